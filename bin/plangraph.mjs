#!/usr/bin/env node
// The installed package runs the compiled CLI (dist/); a source checkout, which has src/ and
// tsx, runs its TypeScript directly so it never runs a stale build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'src/cli/main.ts');
if (existsSync(sources)) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', sources, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} else {
  await import('../dist/cli.js');
}
