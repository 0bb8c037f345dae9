/**
 * Folds for measuring the learning loop: in fold f every plan learns its f-th paraphrase and f-th
 * domain phrasing, and is asked its other paraphrases and domain phrasings (label phrasings
 * repeat the intent, so there is nothing to learn from them).
 */
import type { LabelledQuery } from './labelled-set';

export interface LearningFold {
  learned: LabelledQuery[];
  asked: LabelledQuery[];
}

/** As many folds as the fewest phrasings a plan has of one learnable kind. */
export function learningFolds(queries: readonly LabelledQuery[]): LearningFold[] {
  const learnable = queries.filter((q) => q.kind !== 'label');
  // Each phrasing's position among its plan's phrasings of its kind.
  const positions = new Map<LabelledQuery, number>();
  const seen = new Map<string, number>();
  for (const query of learnable) {
    const key = `${query.plan}|${query.kind}`;
    const position = seen.get(key) ?? 0;
    positions.set(query, position);
    seen.set(key, position + 1);
  }
  const folds = Math.min(...seen.values());
  return Array.from({ length: folds }, (_, fold) => ({
    learned: learnable.filter((q) => positions.get(q) === fold),
    asked: learnable.filter((q) => positions.get(q) !== fold),
  }));
}
