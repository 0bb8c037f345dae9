import { describe, expect, it } from 'vitest';
import { domainOverlap, LABELLED_PLANS, labelledPayload, labelledQueries } from '../../bench/selection/labelled-set';

describe('the labelled selection set', () => {
  it('has at least 30 plans with 5 phrasings each, 2 of them in domain language', () => {
    expect(LABELLED_PLANS.length).toBeGreaterThanOrEqual(30);
    for (const plan of LABELLED_PLANS) {
      expect(Object.values(plan.phrasings).flat().length, plan.intent).toBeGreaterThanOrEqual(5);
      expect(plan.phrasings.domain.length, plan.intent).toBeGreaterThanOrEqual(2);
    }
  });

  it('domain-language phrasings share no content word with the intent', () => {
    for (const query of labelledQueries().filter((q) => q.kind === 'domain')) {
      expect(domainOverlap(LABELLED_PLANS[query.plan]!, query.text), query.text).toEqual([]);
    }
  });

  it('intents are distinct and every plan is a valid payload', () => {
    expect(new Set(LABELLED_PLANS.map((p) => p.intent)).size).toBe(LABELLED_PLANS.length);
    LABELLED_PLANS.forEach((plan, i) => expect(labelledPayload(plan, i).nodes.length).toBe(plan.steps.length));
  });
});
