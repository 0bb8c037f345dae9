/**
 * Synthetic episodes for benchmarks and demos: deterministic for a seed, shaped like agent work
 * (a timeline of steps, a tool graph of chains and fan-outs, mostly successful outcomes).
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

/** Generates `count` episodes; the same options always give the same episodes. */
export function generateEpisodes(options: GenerateOptions): NewEpisode[] {
  const rand = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const prefix = options.prefix ? `${options.prefix}_` : '';
  const start = options.start ?? Date.UTC(2025, 0, 1);
  return Array.from({ length: options.count }, (_, i) => {
    const intent = options.distinct ? `${prefix}${pick(INTENTS)}_${i}` : `${prefix}${pick(INTENTS)}`;
    const size = 2 + Math.floor(rand() * 5); // 2..6 tool nodes: some too small to consolidate
    const t0 = start + i * 60_000;
    const toolGraph = Array.from({ length: size }, (_, n) => ({
      id: `n${n + 1}`,
      tool: `${prefix}${pick(TOOLS)}`,
      args: { step: n + 1, target: `item-${Math.floor(rand() * 100)}` },
      timestamp: new Date(t0 + n * 1_000).toISOString(),
      // A chain, with an occasional fan-out from the first node.
      depends_on: n === 0 ? [] : [rand() < 0.2 ? 'n1' : `n${n}`],
    }));
    const roll = rand();
    return {
      sensitivity: pick(SENSITIVITIES),
      confidence: 0.5,
      salience: 0,
      scope: pick(SCOPES),
      tags: ['generated'],
      payload: {
        kind: 'episodic' as const,
        timeline: toolGraph.map((node, n) => ({
          t: new Date(t0 + n * 1_000 + Math.floor(rand() * 500)).toISOString(),
          event_kind: n === 0 ? intent : node.tool,
          summary: `step ${n + 1}`,
        })),
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
