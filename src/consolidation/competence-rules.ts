/**
 * The pure half of competence consolidation (docs/consolidation.md): successful episodes grouped by tool
 * signature; a group of two or more makes (or reinforces) the skill `skill:<signature>`.
 */
import { CONSOLIDATED_TAG, SENSITIVITIES, sensitivityRank, type CompetencePayload, type Sensitivity } from '../domain/records';

export const MIN_COMPETENCE_GROUP = 2;
export const COMPETENCE_CONFIDENCE = 0.8;
export const MIXED_SCOPE = 'consolidated:mixed-scope';
export const REINFORCE_GAIN = 0.1;
export const COMPETENCE_TAGS = [CONSOLIDATED_TAG, 'auto-competence'] as const;

/** Sorted, trimmed tool names joined by '+' (a tool used twice appears twice); '' for no tools. */
export function toolSignature(tools: readonly string[]): string {
  return tools
    .map((t) => t.trim())
    .filter(Boolean)
    .sort()
    .join('+');
}

export function skillName(signature: string): string {
  return `skill:${signature}`;
}

/** A successful episode not yet attributed to any competence. */
export interface CompetenceSource {
  id: string;
  sensitivity: Sensitivity;
  scope: string;
  tools: string[];
  latency_ms?: number;
}

export interface CompetenceGroup {
  signature: string;
  skill_name: string;
  /** Sorted, so every pass claims the same episodes in the same order. */
  episode_ids: string[];
  sensitivity: Sensitivity;
  scope: string;
  tools: string[];
  latencies: number[];
}

/** Highest sensitivity of a group's sources: the skill reveals what each of them did. */
export function maxSensitivity(levels: readonly Sensitivity[]): Sensitivity {
  return SENSITIVITIES[Math.max(0, ...levels.map(sensitivityRank))]!;
}

/** The shared scope of the sources, else `consolidated:mixed-scope`. */
export function sharedScope(scopes: readonly string[]): string {
  return new Set(scopes).size === 1 ? scopes[0]! : MIXED_SCOPE;
}

/** Groups sources by signature; only groups of MIN_COMPETENCE_GROUP or more, by signature. */
export function groupCompetenceSources(sources: readonly CompetenceSource[]): CompetenceGroup[] {
  const bySignature = new Map<string, CompetenceSource[]>();
  for (const source of sources) {
    const signature = toolSignature(source.tools);
    if (!signature) continue;
    bySignature.set(signature, [...(bySignature.get(signature) ?? []), source]);
  }
  return [...bySignature.entries()]
    .filter(([, members]) => members.length >= MIN_COMPETENCE_GROUP)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([signature, members]) => ({
      signature,
      skill_name: skillName(signature),
      episode_ids: members.map((m) => m.id).sort(),
      sensitivity: maxSensitivity(members.map((m) => m.sensitivity)),
      scope: sharedScope(members.map((m) => m.scope)),
      tools: signature.split('+'),
      latencies: members.flatMap((m) => (m.latency_ms === undefined ? [] : [m.latency_ms])),
    }));
}

/** The payload of a new skill learned from a group. */
export function competencePayload(group: CompetenceGroup, now: string): CompetencePayload {
  const latencies = group.latencies;
  return {
    kind: 'competence',
    skill_name: group.skill_name,
    triggers: [{ signal: group.signature }],
    recipe: group.tools.map((tool, i) => ({ step: i + 1, tool })),
    required_tools: [...new Set(group.tools)],
    performance: {
      success_count: group.episode_ids.length,
      failure_count: 0,
      success_rate: 1,
      avg_latency_ms: latencies.length > 0 ? latencies.reduce((a, b) => a + b, 0) / latencies.length : 0,
      last_used_at: now,
    },
    version: '1',
  };
}
