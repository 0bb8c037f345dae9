/**
 * Synthetic episodes for tests, benchmarks and demos: deterministic for a seed, shaped like agent
 * work (a stated task, a tool graph of chains and fan-outs whose results feed later calls, mostly
 * successful outcomes).
 */
import type { NewEpisode, Sensitivity } from '../domain/records';
import { seededRandom } from '../prng';

export interface GenerateOptions {
  count: number;
  seed?: number;
  /** Prefix of intents and tool names, so separate runs do not share structures. */
  prefix?: string;
  /**
   * Every episode gets its own intent, so each becomes its own plan (the worst case for the
   * consolidator); otherwise intents repeat and structural twins are linked.
   */
  distinct?: boolean;
  /** Timeline start of the first episode (epoch ms). */
  start?: number;
}

const INTENTS = ['setup_project', 'deploy_service', 'triage_bug', 'write_report', 'sync_data', 'review_pr', 'rotate_keys', 'backfill'];
const TOOLS = ['git_clone', 'npm_install', 'npm_build', 'run_tests', 'http_get', 'http_post', 'sql_query', 'summarize', 'write_file', 'notify'];
const SCOPES = ['', '', 'team-a', 'team-b'];
const SENSITIVITIES: Sensitivity[] = ['public', 'low', 'low', 'medium', 'high'];

const REPOS = ['acme/api', 'acme/web', 'acme/cli', 'globex/billing', 'initech/reports', 'umbrella/infra'];
const BRANCHES = ['main', 'develop', 'release', 'hotfix'];

/** A pseudo-random hex id of `length` digits. */
const hexId = (rand: () => number, length: number) =>
  Array.from({ length }, () => Math.floor(rand() * 16).toString(16)).join('');

/**
 * Generates `count` episodes; the same options always give the same episodes. Each is an agent's
 * trace of one job for one repository and branch (named in a user_request summary): the first
 * call takes the repository and branch, every later call takes values an earlier call returned
 * (a path, an id, a URL, sometimes inside a command line), so the traces carry data flow; twins
 * of a job differ in those task values.
 */
export function generateEpisodes(options: GenerateOptions): NewEpisode[] {
  const rand = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const prefix = options.prefix ? `${options.prefix}_` : '';
  const start = options.start ?? Date.UTC(2025, 0, 1);
  return Array.from({ length: options.count }, (_, i) => {
    const intent = options.distinct ? `${prefix}${pick(INTENTS)}_${i}` : `${prefix}${pick(INTENTS)}`;
    const repo = `https://git.example/${pick(REPOS)}-${Math.floor(rand() * 50)}`;
    const branch = pick(BRANCHES);
    const size = 2 + Math.floor(rand() * 5); // 2..6 tool nodes: some too small to consolidate
    const t0 = start + i * 60_000;
    const results: Array<{ id: string; path: string; url: string }> = [];
    const toolGraph = Array.from({ length: size }, (_, n) => {
      const tool = `${prefix}${pick(TOOLS)}`;
      const dep = n === 0 ? undefined : rand() < 0.2 ? 0 : n - 1; // a chain, with an occasional fan-out from the first node
      const from = dep === undefined ? undefined : results[dep]!;
      const args =
        from === undefined
          ? { url: repo, branch, depth: 1 }
          : { step: n + 1, cwd: from.path, ref: from.id, cmd: `${tool} --in ${from.path} --out ${from.url}` };
      const id = `${tool.slice(prefix.length)}-${hexId(rand, 8)}`;
      const result = { id, path: `/work/${hexId(rand, 6)}/${n + 1}`, url: `https://artifacts.example/${id}`, ok: true };
      results.push(result);
      return {
        id: `n${n + 1}`,
        tool,
        args,
        result,
        timestamp: new Date(t0 + n * 1_000).toISOString(),
        depends_on: dep === undefined ? [] : [`n${dep + 1}`],
      };
    });
    const roll = rand();
    return {
      sensitivity: pick(SENSITIVITIES),
      confidence: 0.5,
      salience: 0,
      scope: pick(SCOPES),
      tags: ['generated'],
      payload: {
        kind: 'episodic' as const,
        timeline: [
          { t: new Date(t0).toISOString(), event_kind: intent },
          { t: new Date(t0 + 1).toISOString(), event_kind: 'user_request', summary: `${intent.replace(/_/g, ' ')} for ${repo} on branch ${branch}` },
          ...toolGraph.map((node, n) => ({
            t: new Date(t0 + n * 1_000 + Math.floor(rand() * 500)).toISOString(),
            event_kind: node.tool,
            summary: `step ${n + 1}`,
          })),
        ],
        tool_graph: toolGraph,
        outcome: roll < 0.8 ? 'success' : roll < 0.95 ? 'failure' : 'partial',
      },
    };
  });
}

/** The episodes as JSON Lines, ready for `plangraph episodes ingest`. */
export function toJsonLines(episodes: readonly NewEpisode[]): string {
  return episodes.map((e) => JSON.stringify(e)).join('\n') + '\n';
}
