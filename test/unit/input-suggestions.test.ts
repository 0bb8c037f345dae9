import { describe, expect, it } from 'vitest';
import { suggestInputs, valueShape } from '../../src/domain/input-suggestions';

const schema = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', required, properties });
const ticket = { type: 'string', examples: ['T-103', 'T-100'] };

describe('inputs read off the task text', () => {
  it('shapes values by their runs of capitals, small letters and digits', () => {
    expect(valueShape('T-102')).toBe('A-9');
    expect(valueShape('https://github.com/acme/api')).toBe('a://a.a/a/a');
    expect(valueShape('INV-2041-b')).toBe('A-9-a');
  });

  it('offers the one word shaped like the examples, without its punctuation', () => {
    expect(suggestInputs(schema({ ticket_id: ticket }), 'customer on ticket T-102, wants a refund', {})).toEqual({ ticket_id: 'T-102' });
    const repo = { type: 'string', examples: ['https://github.com/acme/api'] };
    expect(suggestInputs(schema({ url: repo }), 'set up "https://github.com/globex/web" and test it', {})).toEqual({ url: 'https://github.com/globex/web' });
  });

  it('offers nothing for an input given, optional, not a string, or without examples', () => {
    const task = 'refund T-102';
    expect(suggestInputs(schema({ ticket_id: ticket }), task, { ticket_id: 'T-1' })).toEqual({});
    expect(suggestInputs(schema({ ticket_id: ticket }, []), task, {})).toEqual({});
    expect(suggestInputs(schema({ ticket_id: { ...ticket, type: 'number' } }), task, {})).toEqual({});
    expect(suggestInputs(schema({ ticket_id: { type: 'string' } }), task, {})).toEqual({});
  });

  it('offers nothing when the guess would be a coin toss', () => {
    // Two words of the shape.
    expect(suggestInputs(schema({ ticket_id: ticket }), 'merge T-102 into T-100', {})).toEqual({});
    // Plain words: any word of the task would do.
    expect(suggestInputs(schema({ branch: { type: 'string', examples: ['main', 'develop'] } }), 'deploy the release branch', {})).toEqual({});
    // One word two inputs would both take.
    const both = schema({ from: ticket, to: ticket });
    expect(suggestInputs(both, 'link T-102 please', {})).toEqual({});
  });
});
