/** Every workflow the plangraph worker registers. */
export { planExecutorWorkflow } from './plan-executor';
export { consolidationWorkflow } from './consolidation';
export { mapChunkWorkflow } from './map-items';
