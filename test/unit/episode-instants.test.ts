import { describe, expect, it } from 'vitest';
import { timelineEventSchema } from '../../src/domain/records';

const messageOf = (t: unknown) => {
  const parsed = timelineEventSchema.safeParse({ t, event_kind: 'user_request' });
  return parsed.success ? undefined : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('an instant of an episode’s timeline', () => {
  it('is ISO-8601 text with an offset or epoch milliseconds, and says so when it is neither', () => {
    expect(messageOf('2025-05-01T10:00:00Z')).toBeUndefined();
    expect(messageOf(1746093600000)).toBeUndefined();
    const expected = ['t: must be ISO-8601 text with an offset ("2025-05-01T10:00:00Z") or whole epoch milliseconds'];
    expect(messageOf('2025-05-01T10:00:00')).toEqual(expected);
    expect(messageOf(true)).toEqual(expected);
    // A value of the right type keeps its own reason.
    expect(messageOf('0000-05-01T10:00:00Z')).toEqual(['t: must be in the years 0001–9999, with an offset of at most ±15:59']);
  });
});
