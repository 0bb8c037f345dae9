import { describe, expect, it } from 'vitest';
import { bodyText, parseJsonBody } from '../../src/api/json-body';
import { DomainError } from '../../src/domain/errors';

function refusal(text: string): DomainError {
  try {
    parseJsonBody(text);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error(`accepted ${text}`);
}

describe('parseJsonBody', () => {
  it('keeps the parser\'s account of what is wrong and where', () => {
    const error = refusal('{"task_descriptor": "x", }');
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/^invalid body: body is not valid JSON: .*position \d+/);
    expect(error.details).toEqual({ fields: [{ field: 'body', message: expect.stringMatching(/position/) }] });
    expect(refusal('{"a": 1} x').message).toMatch(/not valid JSON/);
  });
  it('reads an empty body as no body, leaving the route schema to decide', () => {
    expect(parseJsonBody('')).toBeUndefined();
    expect(parseJsonBody(' \n')).toBeUndefined();
  });
  it('parses __proto__ as an ordinary own key, leaving the prototype alone', () => {
    const body = parseJsonBody('{"__proto__": {"admin": true}}') as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect((body as { admin?: boolean }).admin).toBeUndefined();
  });
});

describe('bodyText', () => {
  it('decodes UTF-8 and refuses other bytes with a 400 naming the first, instead of storing U+FFFD', () => {
    expect(bodyText(Buffer.from('{"a": "é"}'))).toBe('{"a": "é"}');
    let error: unknown;
    try {
      bodyText(Buffer.concat([Buffer.from('{"a": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('bad_request');
    expect((error as DomainError).details).toEqual({ fields: [{ field: 'body', message: expect.stringMatching(/^is not valid UTF-8: byte 10 \(0xe9\).*send JSON as UTF-8$/) }] });
  });
});
