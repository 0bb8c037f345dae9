/**
 * Selection as a caller who sees only a few plans (a new deployment, a narrow scope) meets it:
 * decided offline over the candidate evidence retrieval gathered against the whole set.
 */
import { CALIBRATED_THRESHOLD, calibratedSelect, FUSION_WEIGHTS } from '../../src/domain/selection';
import { seededRandom } from '../../src/prng';
import type { Figure } from '../lib/scenario';
import { round } from '../lib/stats';
import type { CandidateEvidence, QueryPool } from './cross-validate';
import type { QueryOutcome } from './evaluate';

/** Seeded draws of n items from a list (a shuffled prefix), repeatable run to run. */
export function seededDraw(seed: number): <T>(items: readonly T[], n: number) => T[] {
  const random = seededRandom(seed);
  return (items, n) => {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
    return pool.slice(0, n);
  };
}

/**
 * The candidate the shipped selector auto-runs among the visible ones, if any; `gate: false`
 * decides on the confidence alone, as before the action gate (for comparison).
 */
export function autoRunAmong(visible: readonly CandidateEvidence[], options: { gate?: boolean } = {}): CandidateEvidence | undefined {
  const ranked = visible
    .map((c) => ({ c, match: FUSION_WEIGHTS.alignment.lexical * c.lexical + FUSION_WEIGHTS.alignment.dense * c.alignment }))
    .map((x) => ({ ...x, score: x.match + x.c.history }))
    .sort((a, b) => b.score - a.score);
  if (calibratedSelect(ranked, CALIBRATED_THRESHOLD).needs_more) return undefined;
  return options.gate !== false && ranked[0]!.c.conflicts ? undefined : ranked[0]!.c;
}

/** How many plans a caller sees in the "few visible plans" figures, and draws per phrasing. */
const FEW_PLANS = [1, 2, 3, 5] as const;
const FEW_PLAN_DRAWS = 20;

/**
 * A caller who sees only a few plans (a new deployment, a narrow scope): each phrasing asked
 * against random sets of k plans (seeded), once without its plan among them and once with it.
 * Without it nothing may auto-run (RUNNER_UP_FLOOR); with it the right plan should.
 */
export function fewPlanFigures(pools: readonly QueryPool[]): Figure[] {
  const draw = seededDraw(2026);
  return FEW_PLANS.flatMap((k) => {
    let wrong = 0;
    let right = 0;
    for (const pool of pools) {
      const others = pool.candidates.filter((c) => !c.labelled);
      const labelled = pool.candidates.find((c) => c.labelled)!;
      for (let n = 0; n < FEW_PLAN_DRAWS; n++) {
        if (autoRunAmong(draw(others, k))) wrong++;
        if (autoRunAmong([labelled, ...draw(others, k - 1)])?.labelled) right++;
      }
    }
    const asked = pools.length * FEW_PLAN_DRAWS;
    return [
      { label: `${k} visible plan${k > 1 ? 's' : ''}, none the task's: one auto-runs`, value: round(wrong / asked, 4) },
      { label: `${k} visible plan${k > 1 ? 's' : ''}, one the task's: it auto-runs`, value: round(right / asked) },
    ];
  });
}


/** Plans visible beside the plan whose object a task names, in the "another action" figures. */
const BESIDE_NEAR = [0, 2] as const;

/**
 * Tasks asking for another action on a plan's object (bench/selection/other-actions.ts), which no
 * plan does, so every auto-run is wrong: with all plans visible, and with only the plan whose
 * object it names and k others (seeded draws), each with and without the action gate.
 */
export function otherActionFigures(outcomes: readonly QueryOutcome[], pools: readonly QueryPool[]): Figure[] {
  const share = (n: number, of: number) => round(n / (of || 1), 4);
  const whole = [
    { label: 'another action, all plans visible: auto-runs (all wrong) with the action gate', value: share(outcomes.filter((o) => o.autoRun).length, outcomes.length), target: { op: '<=' as const, value: 0.02 } },
    { label: 'another action, all plans visible: auto-runs (all wrong) on confidence alone', value: share(outcomes.filter((o) => o.confidence >= CALIBRATED_THRESHOLD).length, outcomes.length) },
  ];
  const draw = seededDraw(2027);
  const few = BESIDE_NEAR.flatMap((k) => {
    let gated = 0;
    let ungated = 0;
    for (const pool of pools) {
      const near = pool.candidates.find((c) => c.labelled)!;
      for (let n = 0; n < FEW_PLAN_DRAWS; n++) {
        const visible = [near, ...draw(pool.candidates.filter((c) => !c.labelled), k)];
        if (autoRunAmong(visible)) gated++;
        if (autoRunAmong(visible, { gate: false })) ungated++;
      }
    }
    const asked = pools.length * FEW_PLAN_DRAWS;
    const seen = k === 0 ? 'only the plan it names the object of' : `the plan it names the object of and ${k} others`;
    return [
      { label: `another action, ${seen} visible: auto-runs with the action gate`, value: share(gated, asked), target: { op: '<=' as const, value: 0.02 } },
      { label: `another action, ${seen} visible: auto-runs on confidence alone`, value: share(ungated, asked) },
    ];
  });
  return [...whole, ...few];
}
