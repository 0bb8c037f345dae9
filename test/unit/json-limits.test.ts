import { describe, expect, it } from 'vitest';
import { jsonProblem, MAX_JSON_DEPTH, textProblem, unstorablePath, wellFormedText } from '../../src/domain/json-limits';
import { fromJsonb, toJsonbText } from '../../src/store/jsonb-text';

describe('textProblem', () => {
  it('refuses NUL and lone surrogates of either half, accepts pairs and other control characters', () => {
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
    expect(textProblem('\ud800')).toMatch(/surrogate/);
    expect(textProblem('x\udc00')).toMatch(/surrogate/);
    expect(textProblem('\ud800\ud800\udc00')).toMatch(/surrogate/);
    expect(textProblem('\ud83d\ude00 \t\u0007\u001f é')).toBeUndefined();
  });
});

describe('unstorablePath', () => {
  it('names the path of the first bad string, key or number', () => {
    expect(unstorablePath({ a: [1, { b: 'x\u0000' }] })?.path).toEqual(['a', 1, 'b']);
    expect(unstorablePath({ a: { ['k\ud800']: 1 } })).toMatchObject({ path: ['a', 'k\ud800'], message: expect.stringMatching(/^has a key/) });
    expect(unstorablePath([0, Infinity])).toMatchObject({ path: [1], message: expect.stringMatching(/double/) });
    expect(unstorablePath({ n: NaN })?.message).toMatch(/NaN/);
    expect(unstorablePath({ a: ['fine', 1.5, null, true] })).toBeUndefined();
  });
  it('with text: false, checks numbers only', () => {
    expect(unstorablePath({ s: '\u0000' }, { text: false })).toBeUndefined();
    expect(unstorablePath({ s: -Infinity }, { text: false })?.path).toEqual(['s']);
  });
  it('reports depth before content, and does not walk past the depth limit', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonProblem(deep)?.message).toMatch(new RegExp(`deeper than ${MAX_JSON_DEPTH}`));
    expect(unstorablePath(deep)).toBeUndefined();
  });
});

describe('jsonProblem', () => {
  it('refuses keys that could replace a prototype, naming where, and accepts the same words elsewhere', () => {
    const polluted = JSON.parse('{"a": [{"b": {"__proto__": {"admin": true}}}]}');
    expect(jsonProblem(polluted)).toMatchObject({ path: ['a', 0, 'b', '__proto__'], message: expect.stringMatching(/__proto__/) });
    expect(jsonProblem(JSON.parse('{"constructor": {"prototype": {}}}'))?.path).toEqual(['constructor', 'prototype']);
    expect(jsonProblem({ constructor: 1, prototype: 2, node: '__proto__', list: ['__proto__'] })).toBeUndefined();
    expect(unstorablePath(polluted)).toBeUndefined();
  });
  it('reports the first problem in document order', () => {
    expect(jsonProblem({ a: 'fine', b: ['x', 'y\u0000'], c: Infinity })?.path).toEqual(['b', 1]);
  });
});

describe('wellFormedText', () => {
  it('writes lone surrogates as visible escapes and leaves pairs alone', () => {
    expect(wellFormedText('a\ud800b\udfff\ud83d\ude00')).toBe('a\\ud800b\\udfff\ud83d\ude00');
  });
});

describe('jsonb text envelope', () => {
  it('round-trips values Postgres cannot hold and leaves others as plain JSON', () => {
    const bad = { type: 'x', message: 'a\u0000b\ud800', nested: [{ k: '\udc00' }] };
    const text = toJsonbText(bad);
    expect(text).not.toMatch(/[^\\]\\u0000/);
    expect(fromJsonb(JSON.parse(text))).toEqual(bad);
    expect(toJsonbText({ message: 'ok' })).toBe('{"message":"ok"}');
    expect(fromJsonb({ message: 'ok' })).toEqual({ message: 'ok' });
  });
});
