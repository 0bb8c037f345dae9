/** The CLI's consolidation lines: a running pass's progress and a finished pass's counts. */
import { describe, expect, it } from 'vitest';
import { formatPass, formatPassProgress } from '../../src/cli/commands/consolidate';

describe('consolidate output', () => {
  it('names the step a running pass is in and its counts so far', () => {
    expect(formatPassProgress({ step: 'regeneralize', scanned: 12_000, eligible: 9_000, created: 40, linked: 8_900, revised: 3 })).toBe(
      'consolidate: re-learning stored plans; 12000 episodes scanned, 9000 eligible, 40 plans created, 8900 linked, 3 revised',
    );
  });

  it('prints every count of a finished pass', () => {
    const line = formatPass({ scanned: 5, eligible: 4, created: 1, linked: 2, revised: 0, skipped: 1, invalid: 0, competences_created: 1, competences_reinforced: 0, competence_sources: 2 });
    expect(line).toBe('scanned 5, eligible 4, created 1, linked 2, revised 0, skipped 1, invalid 0, competences created 1, reinforced 0');
  });
});
