/**
 * The query string, checked as bodies are: Fastify decodes percent-escapes that are not UTF-8 to
 * U+FFFD, and a NUL or lone surrogate would reach Postgres, which cannot store it. Both are a 400
 * naming the parameter, never a silently altered filter or a 500.
 */
import { formatPath } from '../domain/graph';
import { jsonProblem } from '../domain/json-limits';
import { utf8Problem } from '../domain/utf8-bytes';

export interface QueryProblem {
  field: string;
  message: string;
}

/** A query component's bytes: `+` is a space, `%XX` one byte, anything else its UTF-8. */
function componentBytes(component: string): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const match of component.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    parts.push(Buffer.from(component.slice(from, match.index).replaceAll('+', ' '), 'utf8'));
    parts.push(Buffer.from(match[0].replaceAll('%', ''), 'hex'));
    from = match.index + match[0].length;
  }
  parts.push(Buffer.from(component.slice(from).replaceAll('+', ' '), 'utf8'));
  return Buffer.concat(parts);
}

/** The first parameter of `url`'s query that is not valid UTF-8 or not storable text. */
export function queryProblem(url: string, parsedQuery: unknown): QueryProblem | undefined {
  const at = url.indexOf('?');
  const query = at < 0 ? '' : url.slice(at + 1);
  for (const pair of query.split('&')) {
    const [rawName = '', ...rest] = pair.split('=');
    const nameBytes = componentBytes(rawName);
    const problem = utf8Problem(nameBytes) ?? utf8Problem(componentBytes(rest.join('=')));
    if (problem) return { field: formatPath(['query', nameBytes.toString('utf8')]), message: problem };
  }
  const stored = jsonProblem(parsedQuery);
  return stored && { field: formatPath(['query', ...stored.path]), message: stored.message };
}
