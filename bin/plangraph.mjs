#!/usr/bin/env node
// The installed package runs the compiled CLI (dist/); a source checkout, which has src/ and
// tsx, runs its TypeScript directly so it never runs a stale build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'src/cli/main.ts');
if (existsSync(sources)) {
  // `--import tsx` would resolve tsx from the caller's directory (an MCP client's, say), and tsx
  // would look for tsconfig.json there too: name both from this checkout instead (a file URL,
  // since --import takes a specifier; createRequire because import.meta.resolve needs Node 20.6).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const env = { TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'), ...process.env };
  const child = spawn(process.execPath, ['--import', tsx, sources, ...process.argv.slice(2)], { stdio: 'inherit', env });
  // A process manager signals this process, not its child: pass SIGTERM on, so a worker or API
  // drains and stops as it would run directly. A terminal's Ctrl-C reaches the child itself (the
  // whole foreground group gets it); relayed, it would be a second one, which means "exit now".
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => {});
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
} else {
  await import('../dist/cli.js');
}
