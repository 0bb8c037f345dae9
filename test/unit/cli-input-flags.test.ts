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

  it('leaves plain words unquoted', () => {
    expect(inputFlags({ ticket_id: 'T-102', words: 30 })).toBe('--input ticket_id=T-102 --input words=30');
  });
});
