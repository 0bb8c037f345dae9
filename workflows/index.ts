/** Every workflow the plangraph worker registers. */
export { planExecutorWorkflow } from './plan-executor';
