import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_SERVER_DYNAMIC_CONFIG, partitionedConfig } from '../../src/temporal/dev-server';

const READ = 'matching.numTaskqueueReadPartitions';
const WRITE = 'matching.numTaskqueueWritePartitions';

describe('a dev server\'s task-queue partitions', () => {
  const dirs: string[] = [];
  const stateFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'plangraph-partitions-'));
    dirs.push(dir);
    return join(dir, 'temporal.db');
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('are one per queue for a server kept in memory', () => {
    expect(partitionedConfig(DEV_SERVER_DYNAMIC_CONFIG, undefined)).toMatchObject({ [READ]: 1, [WRITE]: 1 });
  });

  it('are one per queue for a new state file, and stay so when it is reopened', () => {
    const dbFile = stateFile();
    expect(partitionedConfig(DEV_SERVER_DYNAMIC_CONFIG, dbFile)).toMatchObject({ [READ]: 1, [WRITE]: 1 });
    expect(existsSync(`${dbFile}.one-partition`)).toBe(true);
    writeFileSync(dbFile, 'state');
    expect(partitionedConfig(DEV_SERVER_DYNAMIC_CONFIG, dbFile)).toMatchObject({ [READ]: 1, [WRITE]: 1 });
  });

  it('keep Temporal\'s default for a state file made before, whose queues may hold tasks in other partitions', () => {
    const dbFile = stateFile();
    writeFileSync(dbFile, 'state');
    const config = partitionedConfig(DEV_SERVER_DYNAMIC_CONFIG, dbFile);
    expect(config).not.toHaveProperty(READ);
    expect(config).not.toHaveProperty(WRITE);
    expect(config).toMatchObject({ 'system.enableActivityEagerExecution': true });
    expect(existsSync(`${dbFile}.one-partition`)).toBe(false);
  });
});
