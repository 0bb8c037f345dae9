import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema, loadConfig } from '../../src/config';

type Service = { environment?: Record<string, string>; command?: string[]; image?: string; build?: string; volumes?: string[] };
const compose = parse(readFileSync(resolve(import.meta.dirname, '../../docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const plangraphServices = ['migrate', 'worker', 'api'];

describe('docker-compose.yml', () => {
  it('has Postgres with pgvector, Temporal, its UI, migrate, worker and api', () => {
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'temporal', 'temporal-ui', ...plangraphServices]),
    );
    expect(compose.services.postgres?.image).toMatch(/pgvector/);
  });

  it.each(plangraphServices)('%s reads only variables the config schema knows, and they parse', (name) => {
    const env = compose.services[name]?.environment ?? {};
    const known = Object.keys(configSchema.shape);
    expect(Object.keys(env).filter((key) => !known.includes(key))).toEqual([]);
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('points the plangraph services at the compose Postgres and Temporal on the default task queue', () => {
    for (const name of plangraphServices) {
      const config = loadConfig(compose.services[name]?.environment ?? {});
      expect(new URL(config.DATABASE_URL).hostname).toBe('postgres');
      expect(config.TEMPORAL_ADDRESS).toBe('temporal:7233');
      expect(config.TEMPORAL_TASK_QUEUE).toBe(loadConfig({}).TEMPORAL_TASK_QUEUE);
    }
  });

  it('runs each plangraph service with its own CLI verb', () => {
    expect(plangraphServices.map((name) => compose.services[name]?.command?.[0])).toEqual(['migrate', 'worker', 'api']);
  });

  it('gives the Temporal server a dynamic config that turns on eager activity execution', () => {
    const temporal = compose.services.temporal!;
    // The image resolves DYNAMIC_CONFIG_FILE_PATH against its working directory, /etc/temporal.
    const inContainer = `/etc/temporal/${temporal.environment?.DYNAMIC_CONFIG_FILE_PATH}`;
    const mount = temporal.volumes?.map((volume) => volume.split(':')).find(([, target]) => target === inContainer);
    expect(mount, `a volume mounted at ${inContainer}`).toBeDefined();
    const dynamicConfig = parse(readFileSync(resolve(import.meta.dirname, '../..', mount![0]!), 'utf8')) as Record<string, Array<{ value: unknown }>>;
    expect(dynamicConfig['system.enableActivityEagerExecution']).toEqual([{ value: true }]);
  });
});
