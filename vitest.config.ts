import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The integration core that also runs against Temporal's own server persisting to Postgres, when
 * `PLANGRAPH_TEMPORAL_SERVER=1 node scripts/setup.mjs` has built it (src/temporal/real-server.ts).
 */
export const REAL_SERVER_CORE = [
  'test/integration/executor.test.ts',
  'test/integration/intents.test.ts',
  'test/integration/consolidation.test.ts',
  'test/integration/fault-worker-kill.test.ts',
];
const realServerBuilt = existsSync(join(process.env.TEMPORAL_SERVER_DIR ?? join(import.meta.dirname, '.tools/temporal-server'), 'bin/temporal-server'));

// The Temporal native bridge crashes under worker threads: every project runs in forks.
export default defineConfig({
  test: {
    pool: 'forks',
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.data/test-report.json' }]],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      ...(realServerBuilt
        ? [
            {
              extends: true as const,
              test: {
                name: 'real-server',
                include: REAL_SERVER_CORE,
                globalSetup: ['test/global-setup-real-server.ts'],
                testTimeout: 120_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
