/** Builders for episodes used by the consolidation tests. */
import type { NewEpisode } from '../../src/domain/records';

export type Tool = { id: string; tool: string; depends_on?: string[]; args?: Record<string, unknown>; result?: unknown };

type EpisodeOptions = Partial<NewEpisode> & {
  outcome?: 'success' | 'failure' | 'partial';
  kinds?: string[];
  /** Task statements: user_request events after the first event. */
  summaries?: string[];
  environment?: Record<string, unknown>;
};

/** An episode whose timeline starts with `intent` (or the given event kinds). */
export function episode(intent: string, tools: Tool[], over: EpisodeOptions = {}): NewEpisode {
  const kinds = over.kinds ?? [intent, 'next'];
  const requests = (over.summaries ?? []).map((summary, i) => ({ t: 1_700_000_000_000 + i, event_kind: 'user_request', summary }));
  return {
    sensitivity: over.sensitivity ?? 'low',
    confidence: 0.5,
    salience: 0,
    scope: over.scope ?? '',
    tags: [],
    payload: {
      kind: 'episodic',
      timeline: [...kinds.map((event_kind, i) => ({ t: 1_700_000_000_000 + i * 1_500, event_kind })), ...requests],
      tool_graph: tools.map((t) => ({ id: t.id, tool: t.tool, args: t.args ?? {}, result: t.result, depends_on: t.depends_on ?? [] })),
      outcome: over.outcome ?? 'success',
      ...(over.environment ? { environment: over.environment } : {}),
    },
  };
}
