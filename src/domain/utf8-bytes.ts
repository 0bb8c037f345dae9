/**
 * Bytes that should be UTF-8 text. Decoding turns every byte that is not part of a UTF-8
 * character (a Latin-1 "café", a truncated character) into U+FFFD, which would then be stored in
 * place of what was sent: writers refuse such bytes instead, naming the first.
 */

const strict = new TextDecoder('utf-8', { fatal: true });
// ignoreBOM keeps a leading byte-order mark as a character, so offsets count its 3 bytes.
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** Why `bytes` are not UTF-8 text (naming the first bad byte), or undefined when they are. */
export function utf8Problem(bytes: Uint8Array): string | undefined {
  try {
    strict.decode(bytes);
    return undefined;
  } catch {
    const offset = firstInvalidByte(bytes);
    return `is not valid UTF-8: byte ${offset} (0x${bytes[offset]!.toString(16).padStart(2, '0')}) is not part of a UTF-8 character`;
  }
}

/** Where decoding first put a U+FFFD of its own; those the sender wrote (EF BF BD) are passed over. */
function firstInvalidByte(bytes: Uint8Array): number {
  const text = lenient.decode(bytes);
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf('\ufffd'); at >= 0; at = text.indexOf('\ufffd', at + 1)) {
    offset += encoder.encode(text.slice(from, at)).length;
    from = at;
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
  }
  // Unreachable for bytes the strict decoder refused: decoding replaces every ill-formed sequence.
  return bytes.length - 1;
}
