/** The bench worker's workflows: every real plangraph workflow plus the bench-only baselines. */
export * from '../../workflows/index';
export * from './baselines';
