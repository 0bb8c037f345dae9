/**
 * Files the package ships beside its code, found from the package root so the same paths hold
 * when running the TypeScript sources (src/…) and the compiled bundle (dist/…).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

const ROOT = packageRoot(import.meta.dirname);

/** The package's own directory (a checkout's root, or node_modules/plangraph when installed). */
export const PACKAGE_ROOT = ROOT;

export const MIGRATIONS_DIR = join(ROOT, 'migrations');
export const CACHED_CLI_PATH = join(ROOT, '.tools/bin/temporal');
/** The workflow sources (a checkout has them; the compiled package ships their bundle instead). */
export const WORKFLOWS_PATH = join(ROOT, 'workflows/index.ts');

const RUNNING_SOURCES = import.meta.url.endsWith('.ts');

/** The web console's browser modules and styles (copied into dist/ by the build). */
export const CONSOLE_ASSETS_DIR = RUNNING_SOURCES ? join(ROOT, 'src/api/console/assets') : join(ROOT, 'dist/console-assets');

/**
 * The workflow code workers and replay load: the sources (bundled by the worker at start) when
 * running TypeScript, the bundle prebuilt into dist/ by `npm run build` in the compiled package.
 */
export const WORKFLOW_CODE: { workflowsPath: string } | { workflowBundle: { codePath: string } } = RUNNING_SOURCES
  ? { workflowsPath: WORKFLOWS_PATH }
  : { workflowBundle: { codePath: join(ROOT, 'dist/workflow-bundle.js') } };

/** Temporal's OpenTelemetry workflow interceptors, bundled with the workflows when tracing is on. */
export const OTEL_WORKFLOW_INTERCEPTORS = createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/**
 * The workflow code of a worker that traces: the sources with the OpenTelemetry interceptors
 * added when the worker bundles them, or the second prebuilt bundle that has them. The plain
 * bundle stays free of them, so a worker without tracing runs no tracing code in workflows.
 */
export const TRACED_WORKFLOW_CODE: { workflowsPath: string; workflowModules: string[] } | { workflowBundle: { codePath: string } } = RUNNING_SOURCES
  ? { workflowsPath: WORKFLOWS_PATH, workflowModules: [OTEL_WORKFLOW_INTERCEPTORS] }
  : { workflowBundle: { codePath: join(ROOT, 'dist/workflow-bundle-traced.js') } };
