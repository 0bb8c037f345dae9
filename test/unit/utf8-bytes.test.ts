import { describe, expect, it } from 'vitest';
import { utf8Problem } from '../../src/domain/utf8-bytes';

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('utf8Problem', () => {
  it('accepts UTF-8 text, with emoji, a byte-order mark and replacement characters the sender wrote', () => {
    expect(utf8Problem(bytes('{"intent": "café 🚀 \ufffd"}'))).toBeUndefined();
    expect(utf8Problem(bytes([0xef, 0xbb, 0xbf], '{}'))).toBeUndefined();
    expect(utf8Problem(bytes(''))).toBeUndefined();
  });

  it.each([
    ['a Latin-1 é', bytes('caf', [0xe9]), 3, 'e9'],
    ['a character cut at the end', bytes('caf', [0xc3]), 3, 'c3'],
    ['an overlong encoding', bytes([0xc0, 0xaf], 'x'), 0, 'c0'],
    ['an encoded UTF-16 surrogate', bytes('x', [0xed, 0xa0, 0x80]), 1, 'ed'],
    ['a bad byte after a replacement character the sender wrote', bytes('a\ufffdb', [0xff]), 5, 'ff'],
    ['a bad byte after a byte-order mark', bytes([0xef, 0xbb, 0xbf], 'caf', [0xe9]), 6, 'e9'],
  ])('names the first bad byte: %s', (_name, input, offset, hex) => {
    expect(utf8Problem(input)).toBe(`is not valid UTF-8: byte ${offset} (0x${hex}) is not part of a UTF-8 character`);
  });
});
