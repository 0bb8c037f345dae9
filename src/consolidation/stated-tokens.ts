/**
 * Values a task states inside a longer arg: the task "post the digest for shipping-api to
 * #oncall" and the message "Health digest for shipping-api: all ok". Only tokens shaped like
 * values count (letters joined by punctuation, or with digits: `shipping-api`, `INC-3071`,
 * `#oncall`): an arg and its task share plain words ("digest") without them being values.
 */
import { distinctive, valueShape } from '../domain/input-suggestions';
import { TEMPLATE } from '../domain/refs';

const TOKEN = /[^\s"'`(),;!?<>[\]{}]+/g;
/** Sentence punctuation after a token is not part of it ("shipping-api:"). */
const TRAILING = /[.:]+$/;

/** The value-shaped tokens of a text, at least 4 characters long. */
export function valueTokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => m[0].replace(TRAILING, '')).filter((token) => token.length >= 4 && distinctive(valueShape(token)));
}

/** `text` with each token of `stated` replaced by `replace(token)`, never inside a `{{ }}` template. */
export function interpolateTokens(text: string, stated: ReadonlySet<string>, replace: (token: string) => string): string {
  const literal = (segment: string) =>
    segment.replace(TOKEN, (raw) => {
      const token = raw.replace(TRAILING, '');
      return stated.has(token) ? replace(token) + raw.slice(token.length) : raw;
    });
  let out = '';
  let from = 0;
  for (const match of text.matchAll(TEMPLATE)) {
    out += literal(text.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return out + literal(text.slice(from));
}
