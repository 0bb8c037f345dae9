import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { inputFlags, parseInput } from '../../src/cli/commands/run';

/** What a shell makes of the flags, read back by the CLI's own --input parser. */
function throughShell(flags: string): Record<string, unknown> {
  const words = execFileSync('sh', ['-c', `printf '%s\\0' ${flags}`], { encoding: 'utf8' }).split('\0').filter(Boolean);
  let inputs: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i += 2) {
    expect(words[i]).toBe('--input');
    inputs = parseInput(words[i + 1]!, inputs);
  }
  return inputs;
}

describe('--input flags for suggested inputs', () => {
  it('reads back as the same inputs through a shell: text with spaces and quotes, numbers, text that looks like JSON', () => {
    const inputs = { max_words: 10, query: 'postgres vacuum', title: 'Vacuum "2"', owner: "o'brien", code: '12', flag: true, ticket: 'T-102' };
    expect(throughShell(inputFlags(inputs))).toEqual(inputs);
  });

  it('refuses an integer a JSON number would round, and keeps it exact sent as a string', () => {
    expect(() => parseInput('id=12345678901234567890')).toThrow(/--input id=12345678901234567890: the value holds the integer 12345678901234567890, which a JSON number cannot hold exactly/);
    expect(() => parseInput('ids=[1,12345678901234567890]')).toThrow(/holds the integer 12345678901234567890/);
    expect(parseInput('id="12345678901234567890"')).toEqual({ id: '12345678901234567890' });
    expect(parseInput('id=9007199254740991')).toEqual({ id: 9007199254740991 });
    expect(parseInput('note=call 12345678901234567890')).toEqual({ note: 'call 12345678901234567890' });
    // Digits a double writes back unchanged are exact enough: 1e21 and JSON.stringify's own output.
    expect(parseInput('n=1000000000000000000000')).toEqual({ n: 1e21 });
    expect(parseInput('n=-522209890832124200')).toEqual({ n: -522209890832124200 });
    expect(() => parseInput('n=1234567890123456789012')).toThrow(/would read as 1234567890123456800000/);
  });

  it('refuses an input given twice instead of keeping one of the values', () => {
    expect(() => parseInput('env=staging', parseInput('env=prod'))).toThrow('--input env=staging: env is given twice');
    expect(parseInput('region=eu', parseInput('env=prod'))).toEqual({ env: 'prod', region: 'eu' });
  });

  it('leaves plain words unquoted', () => {
    expect(inputFlags({ ticket_id: 'T-102', words: 30 })).toBe('--input ticket_id=T-102 --input words=30');
  });
});
