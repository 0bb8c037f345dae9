/**
 * Temporal's own server (not the dev server), built from the Go module proxy by
 * `PLANGRAPH_TEMPORAL_SERVER=1 node scripts/setup.mjs`, persisting to Postgres: two fresh
 * databases (history and visibility) set up with Temporal's SQL schema tool, a config directory
 * with free ports, then the `default` namespace and plangraph's search attributes registered the
 * way an operator would. For tests against a real server; production runs use the compose file
 * or a managed cluster.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { freePort, freePortInRange } from '../net';
import { PACKAGE_ROOT } from '../package-files';
import { SEARCH_ATTRIBUTES, DEV_SERVER_DYNAMIC_CONFIG } from './dev-server';

const run = promisify(execFile);

/** Where the set-up step caches the server, its schema tool and the schema files it shipped with. */
export const REAL_SERVER_DIR = join(PACKAGE_ROOT, '.tools/temporal-server');

export interface RealServerFiles {
  server: string;
  sqlTool: string;
  /** `schema/postgresql/v12` of the server's Go module: `temporal/versioned` and `visibility/versioned`. */
  schemaDir: string;
}

/** The cached build, if the optional set-up step made one (or TEMPORAL_SERVER_DIR points at one). */
export function findRealServer(dir = process.env.TEMPORAL_SERVER_DIR ?? REAL_SERVER_DIR): RealServerFiles | undefined {
  const files = { server: join(dir, 'bin/temporal-server'), sqlTool: join(dir, 'bin/temporal-sql-tool'), schemaDir: join(dir, 'schema/postgresql/v12') };
  return Object.values(files).every((path) => existsSync(path)) ? files : undefined;
}

export interface RealServer {
  address: string;
  process: ChildProcess;
  /** Stops the server and drops its databases. */
  stop(): Promise<void>;
}

/** Dynamic config in the server's file format (a list of constrained values per key). */
function dynamicConfigYaml(values: Record<string, string | number | boolean>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key}:\n  - value: ${JSON.stringify(value)}\n`)
    .join('');
}

function configYaml(
  db: { host: string; port: string; user: string; password: string },
  databases: { main: string; visibility: string },
  ports: Record<string, number>,
  dynamicConfigFile: string,
): string {
  const store = (name: string, conns: number) => `
      sql:
        pluginName: "postgres12"
        databaseName: "${name}"
        connectAddr: "${db.host}:${db.port}"
        connectProtocol: "tcp"
        user: ${JSON.stringify(db.user)}
        password: ${JSON.stringify(db.password)}
        maxConns: ${conns}
        maxIdleConns: ${conns}
        maxConnLifetime: "1h"`;
  const service = (name: string, extra = '') => `
  ${name}:
    rpc:
      grpcPort: ${ports[`${name}Grpc`]}
      membershipPort: ${ports[`${name}Membership`]}
      bindOnLocalHost: true${extra}`;
  return `log:
  stdout: true
  level: warn
persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
    default:${store(databases.main, 10)}
    visibility:${store(databases.visibility, 4)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
services:${service('frontend', `\n      httpPort: ${ports.frontendHttp}`)}${service('matching')}${service('history')}${service('worker')}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontendGrpc}"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: ${JSON.stringify(dynamicConfigFile)}
  pollInterval: "10s"
`;
}

/** Creates both databases and brings each to the schema version the server expects. */
async function setUpDatabases(files: RealServerFiles, db: { host: string; port: string; user: string; password: string }, databases: { main: string; visibility: string }): Promise<void> {
  const base = ['--plugin', 'postgres12', '--ep', db.host, '-p', db.port, '-u', db.user, ...(db.password ? ['--pw', db.password] : [])];
  for (const [name, kind] of [
    [databases.main, 'temporal'],
    [databases.visibility, 'visibility'],
  ] as const) {
    await run(files.sqlTool, [...base, '--db', name, 'create-database']);
    await run(files.sqlTool, [...base, '--db', name, 'setup-schema', '-v', '0.0']);
    await run(files.sqlTool, [...base, '--db', name, 'update-schema', '-d', join(files.schemaDir, kind, 'versioned')]);
  }
}

/** Registers the namespace and the search attributes plangraph filters runs by, then waits until they are usable. */
async function registerNamespace(connection: Connection, namespace: string): Promise<void> {
  await connection.workflowService
    .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') })
    .catch((err: unknown) => {
      if (!String(err).includes('already')) throw err;
    });
  // temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD
  const types = { Keyword: 2 } as const;
  const deadline = Date.now() + 60_000;
  // The frontend learns a new namespace on its next cache refresh (seconds).
  for (;;) {
    try {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(Object.entries(SEARCH_ATTRIBUTES).map(([name, type]) => [name, types[type]])),
      });
      await connection.workflowService.describeNamespace({ namespace });
      return;
    } catch (err) {
      if (String(err).includes('already exists')) return;
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Starts the server on `port` over fresh databases in the Postgres of `databaseUrl`. */
export async function startRealServer(options: { files: RealServerFiles; databaseUrl: string; port: number; namespace?: string }): Promise<RealServer> {
  const url = new URL(options.databaseUrl);
  const db = { host: url.hostname, port: url.port || '5432', user: decodeURIComponent(url.username || 'postgres'), password: decodeURIComponent(url.password) };
  const prefix = `temporal_${randomBytes(4).toString('hex')}`;
  const databases = { main: prefix, visibility: `${prefix}_visibility` };
  await setUpDatabases(options.files, db, databases);

  const root = mkdtempSync(join(tmpdir(), 'plangraph-temporal-server-'));
  mkdirSync(join(root, 'config/dynamicconfig'), { recursive: true });
  const ports: Record<string, number> = { frontendGrpc: options.port };
  for (const name of ['frontendHttp', 'matchingGrpc', 'historyGrpc', 'workerGrpc']) ports[name] = await freePort();
  // Membership ports are stored in a smallint column: below 32768.
  for (const name of ['frontendMembership', 'matchingMembership', 'historyMembership', 'workerMembership']) ports[name] = await freePortInRange(20_000, 32_000);
  const dynamicConfigFile = join(root, 'config/dynamicconfig/development.yaml');
  writeFileSync(join(root, 'config/development.yaml'), configYaml(db, databases, ports, dynamicConfigFile));
  // Unlike the dev server's, this server's search attributes are added after it starts: it reads them fresh.
  writeFileSync(
    dynamicConfigFile,
    dynamicConfigYaml({ ...DEV_SERVER_DYNAMIC_CONFIG, 'system.forceSearchAttributesCacheRefreshOnRead': true, 'frontend.enableUpdateWorkflowExecution': true }),
  );

  const child = spawn(options.files.server, ['--root', root, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = `127.0.0.1:${options.port}`;
  const dropDatabases = async () => {
    const base = ['--plugin', 'postgres12', '--ep', db.host, '-p', db.port, '-u', db.user, ...(db.password ? ['--pw', db.password] : [])];
    for (const name of Object.values(databases)) await run(options.files.sqlTool, [...base, '--db', name, 'drop-database', '--force']).catch(() => undefined);
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await dropDatabases();
  };

  const deadline = Date.now() + 120_000;
  for (;;) {
    const early = await Promise.race([exited, new Promise((r) => setTimeout(() => r('wait'), 500))]);
    if (early !== 'wait') {
      await dropDatabases();
      throw new Error(`Temporal server exited with code ${String(early)}: ${output.join('').slice(-3000)}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        await registerNamespace(connection, options.namespace ?? 'default');
      } finally {
        await connection.close();
      }
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Temporal server did not answer on ${address} within 120 s: ${String(err)}\n${output.join('').slice(-3000)}`);
      }
    }
  }
  return { address, process: child, stop };
}
