#!/usr/bin/env node
// Brings a fresh machine to the point where plangraph runs and its tests pass:
// npm packages, the word-vector cache of the semantic embedder, the Temporal CLI (dev server +
// Web UI), a running Postgres with pgvector, and Debian's chromium, which the web console's
// browser tests drive headless. Optionally (PLANGRAPH_TEMPORAL_SERVER=1 or --temporal-server)
// Temporal's own server, for the tests against a real server persisting to Postgres.
// Idempotent and quick when everything is already there. Plain Node: it runs before npm install.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ensureWordVectorCache } from './word-vectors.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const toolsBin = join(root, '.tools', 'bin');
const TEMPORAL_CLI_VERSIONS = ['v1.5.1', 'v1.5.0', 'v1.4.1'];
// The server the CLI v1.5.1 embeds, so the Go module cache it filled is reused.
const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const log = (msg) => console.log(`[setup] ${msg}`);

function has(cmd) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, cmd)));
}

function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { stdio: opts.quiet ? 'pipe' : 'inherit', cwd: opts.cwd ?? root, env: opts.env ?? process.env });
  return result.status === 0;
}

/**
 * Runs a long command, printing a heartbeat line so a slow build visibly progresses; `describe`
 * turns the Go module count and the latest output line into the heartbeat's text.
 */
function runWithProgress(label, cmd, args, env, describe = (downloads) => `${downloads} modules downloaded, compiling…`) {
  return new Promise((resolveRun) => {
    const started = Date.now();
    let downloads = 0;
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = [];
    const onData = (chunk) => {
      for (const line of chunk.toString().split('\n')) {
        if (line.startsWith('go: downloading')) downloads += 1;
        if (line.trim()) tail.push(line);
        if (tail.length > 20) tail.shift();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setInterval(() => {
      log(`${label}: ${Math.round((Date.now() - started) / 1000)} s, ${describe(downloads, tail.at(-1) ?? '')}`);
    }, 15_000);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) console.error(tail.join('\n'));
      log(`${label}: ${code === 0 ? 'done' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s`);
      resolveRun(code === 0);
    });
  });
}

function ensureNpmPackages() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs)) return;
  log('installing npm packages…');
  if (!run('npm', [existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund'])) throw new Error('npm install failed');
}

async function ensureTemporalCli() {
  if (process.env.TEMPORAL_CLI_PATH) {
    if (!existsSync(process.env.TEMPORAL_CLI_PATH)) throw new Error(`TEMPORAL_CLI_PATH=${process.env.TEMPORAL_CLI_PATH} does not exist`);
    return log(`Temporal CLI: ${process.env.TEMPORAL_CLI_PATH} (TEMPORAL_CLI_PATH)`);
  }
  if (has('temporal')) return log('Temporal CLI: found on PATH');
  const cached = join(toolsBin, 'temporal');
  if (existsSync(cached)) return log(`Temporal CLI: ${cached} (cached)`);
  if (!has('go')) {
    return log('Temporal CLI: no Go toolchain; the SDK will download its own dev server on first use');
  }
  mkdirSync(toolsBin, { recursive: true });
  for (const version of TEMPORAL_CLI_VERSIONS) {
    log(`building the Temporal CLI ${version} with go install (takes a few minutes, once)…`);
    const ok = await runWithProgress(`temporal ${version}`, 'go', ['install', `github.com/temporalio/cli/cmd/temporal@${version}`], {
      ...process.env,
      GOBIN: toolsBin,
      GOFLAGS: '-mod=mod',
    });
    if (ok && existsSync(cached)) return;
  }
  throw new Error('could not build the Temporal CLI; set TEMPORAL_CLI_PATH to an existing binary');
}

/**
 * Optional (PLANGRAPH_TEMPORAL_SERVER=1 or --temporal-server): Temporal's own server and its SQL
 * schema tool built from the Go module proxy, with the Postgres schema files of the same module,
 * cached in .tools/temporal-server; the `real-server` test project runs against it when present.
 */
async function ensureTemporalServer() {
  const wanted = process.env.PLANGRAPH_TEMPORAL_SERVER === '1' || process.argv.includes('--temporal-server');
  const dir = join(root, '.tools', 'temporal-server');
  const server = join(dir, 'bin', 'temporal-server');
  if (existsSync(server)) return log(`Temporal server: ${server} (cached)`);
  if (!wanted) return;
  if (!has('go')) throw new Error('PLANGRAPH_TEMPORAL_SERVER=1 needs a Go toolchain (go install)');
  const gobin = mkdtempSync(join(tmpdir(), 'temporal-server-'));
  log(`building Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool with go install (15-20 min on 2 busy cores, once)…`);
  const modules = ['cmd/server', 'cmd/tools/sql'].map((pkg) => `go.temporal.io/server/${pkg}@${TEMPORAL_SERVER_VERSION}`);
  // nice: a long compile should not starve whatever else the machine runs.
  const ok = await runWithProgress('temporal server', 'nice', ['-n', '10', 'go', 'install', ...modules], { ...process.env, GOBIN: gobin, GOFLAGS: '-mod=mod' });
  if (!ok) throw new Error('could not build the Temporal server (see the output above)');
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  const schema = join(modCache, `go.temporal.io/server@${TEMPORAL_SERVER_VERSION}`, 'schema/postgresql/v12');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  rmSync(join(dir, 'schema'), { recursive: true, force: true });
  cpSync(schema, join(dir, 'schema/postgresql/v12'), { recursive: true });
  run('chmod', ['-R', 'u+w', join(dir, 'schema')]);
  // Copied, not renamed: the temporary directory may be on another file system.
  cpSync(join(gobin, 'sql'), join(dir, 'bin', 'temporal-sql-tool'));
  // The server last: its presence marks a complete cache.
  cpSync(join(gobin, 'server'), server);
  rmSync(gobin, { recursive: true, force: true });
  log(`Temporal server: ${server}`);
}

function databaseUrl() {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/plangraph';
}

async function pgQuery(sql) {
  const { default: pg } = await import('pg');
  const url = new URL(databaseUrl());
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function isLocal() {
  const host = new URL(databaseUrl()).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

async function ensurePostgres() {
  try {
    await pgQuery('SELECT 1');
    return log('Postgres: answering');
  } catch (err) {
    if (!isLocal() || !existsSync('/etc/postgresql')) throw new Error(`Postgres at ${databaseUrl()} does not answer: ${err.message}`);
  }
  for (const version of readdirSync('/etc/postgresql')) {
    log(`Postgres: starting local cluster ${version}/main`);
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  }
  for (let i = 0; i < 30; i++) {
    try {
      await pgQuery('SELECT 1');
      return log('Postgres: answering');
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`Postgres at ${databaseUrl()} does not answer`);
}

/** Waits for apt/dpkg locks another install holds (a parallel set-up) instead of failing at once. */
const APT_WAIT = ['-o', 'DPkg::Lock::Timeout=600'];

/** Debian bookworm has no pgvector binary package; its source package builds against PG 15. */
function buildPgvectorFromDebianSource(major) {
  const work = mkdtempSync(join(tmpdir(), 'pgvector-'));
  const lists = join(work, 'lists');
  mkdirSync(join(lists, 'partial'), { recursive: true });
  const sources = join(work, 'sources.list');
  execFileSync('sh', ['-c', `echo 'deb-src http://deb.debian.org/debian trixie main' > ${sources}`]);
  const aptOpts = ['-o', `Dir::State::Lists=${lists}`, '-o', `Dir::Etc::sourcelist=${sources}`, '-o', 'Dir::Etc::sourceparts=-'];
  if (!run('apt-get', [...aptOpts, 'update'], { quiet: true })) return false;
  if (!run('apt-get', [...aptOpts, 'source', '--download-only', 'pgvector'], { cwd: work, quiet: true })) return false;
  const orig = readdirSync(work).find((f) => f.endsWith('.orig.tar.gz'));
  if (!orig) return false;
  run('tar', ['xzf', orig], { cwd: work });
  const srcDir = readdirSync(work).find((f) => f.startsWith('pgvector-') && statSync(join(work, f)).isDirectory());
  if (!srcDir) return false;
  const pgConfig = `/usr/lib/postgresql/${major}/bin/pg_config`;
  const dir = join(work, srcDir);
  return run('make', [`PG_CONFIG=${pgConfig}`, 'OPTFLAGS='], { cwd: dir, quiet: true }) &&
    run('make', [`PG_CONFIG=${pgConfig}`, 'install'], { cwd: dir, quiet: true });
}

async function ensurePgvector() {
  const available = async () => (await pgQuery("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).length > 0;
  if (await available()) return log('pgvector: available');
  if (!isLocal()) throw new Error('pgvector is not installed on the Postgres server; install it there');
  const [{ server_version_num: num }] = await pgQuery('SHOW server_version_num');
  const major = String(Math.floor(Number(num) / 10000));
  log(`pgvector: installing for PostgreSQL ${major}…`);
  run('apt-get', [...APT_WAIT, 'update', '-qq'], { quiet: true });
  const installed = run('apt-get', [...APT_WAIT, 'install', '-y', '-qq', `postgresql-${major}-pgvector`], { quiet: true });
  if (!installed || !(await available())) {
    log('pgvector: no binary package for this release; building Debian\'s source package…');
    if (!run('apt-get', [...APT_WAIT, 'install', '-y', '-qq', `postgresql-server-dev-${major}`, 'make', 'clang'], { quiet: true })) {
      throw new Error(`could not install postgresql-server-dev-${major}`);
    }
    if (!buildPgvectorFromDebianSource(major)) throw new Error('could not build pgvector');
  }
  if (!(await available())) throw new Error('pgvector still unavailable after installing it');
  log('pgvector: installed');
}

/** Debian's chromium, driven headless by the console tests; apt-get only when it is missing. */
async function ensureChromium() {
  const binary = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(binary)) return log(`Chromium: ${binary}`);
  if (!has('apt-get')) throw new Error(`no ${binary} and no apt-get to install it; install Chromium and set CHROMIUM_PATH`);
  // Another apt-get may hold the dpkg lock (a second checkout's set-up): wait for it.
  const aptOpts = ['-o', 'DPkg::Lock::Timeout=600', '-o', 'APT::Status-Fd=1'];
  // Status-Fd lines read "dlstatus:…:42.1:Retrieving file 3 of 90"; the heartbeat shows the latest.
  const aptProgress = (_, line) => line.split(':').slice(2).join(' ').trim() || 'working…';
  log('Chromium: missing; apt-get update…');
  if (!(await runWithProgress('apt-get update', 'apt-get', [...aptOpts, 'update', '-qq'], process.env, aptProgress))) {
    throw new Error('apt-get update failed');
  }
  log('Chromium: apt-get install -y chromium (a few minutes, once)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!(await runWithProgress('apt-get install chromium', 'apt-get', [...aptOpts, 'install', '-y', '-qq', 'chromium'], env, aptProgress))) {
    throw new Error('apt-get install chromium failed');
  }
  if (!existsSync(binary)) throw new Error(`chromium installed but ${binary} is missing; set CHROMIUM_PATH`);
  log('Chromium: installed');
}

try {
  ensureNpmPackages();
  log(`word vectors: ${ensureWordVectorCache(root, log)}`);
  await ensureTemporalCli();
  await ensureTemporalServer();
  await ensurePostgres();
  await ensurePgvector();
  await ensureChromium();
} catch (err) {
  console.error(`[setup] error: ${err.message}`);
  process.exit(1);
}
