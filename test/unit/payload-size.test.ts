import { describe, expect, it } from 'vitest';
import type { NodeStatus, RunStatus } from '../../src/domain/run-state';
import { boundedText, fitStatus, jsonBytes, STATUS_ERROR_MESSAGE_BYTES, utf8Length } from '../../src/domain/payload-size';

const node = (id: string, output?: unknown): NodeStatus => ({ id, op: 'echo', state: 'succeeded', attempts: 1, ...(output === undefined ? {} : { output }) });
const run = (nodes: NodeStatus[]): RunStatus => ({ plan_record_id: 'r', plan_revision: 1, plan_id: 'p', intent: 'i', state: 'succeeded', started_at: '2026-11-27T00:00:00.000Z', nodes });

describe('utf8Length', () => {
  it('counts what Buffer counts, for ASCII, two- and three-byte characters, pairs and lone surrogates', () => {
    for (const text of ['', 'plain ascii', 'é and ß', '日本語', '😀 pair', 'lone \ud800 high', 'lone \udc00 low', 'end \ud83d']) {
      expect(utf8Length(text), text).toBe(Buffer.byteLength(text));
    }
  });
});

describe('boundedText', () => {
  it('keeps a text that fits, whatever its characters', () => {
    expect(boundedText('short', 10)).toBe('short');
    expect(boundedText('é'.repeat(50), 100)).toBe('é'.repeat(50));
  });

  it('cuts a longer one to the limit in UTF-8 bytes, note included, and says how long it was', () => {
    const cut = boundedText('x'.repeat(1000), 100);
    expect(cut).toBe(`${'x'.repeat(100 - ' … [truncated: 1000 bytes in all]'.length - 2)} … [truncated: 1000 bytes in all]`);
    expect(Buffer.byteLength(cut)).toBe(100);
    for (const char of ['é', '日', '😀']) {
      const text = char.repeat(400);
      const bounded = boundedText(text, 200);
      expect(Buffer.byteLength(bounded), char).toBeLessThanOrEqual(200);
      expect(Buffer.byteLength(bounded), char).toBeGreaterThan(200 - Buffer.byteLength(char));
      // Never half a character: the kept part is whole characters of the original.
      const kept = bounded.slice(0, bounded.indexOf(' … '));
      expect(kept, char).toBe(char.repeat([...kept].length));
      expect(bounded, char).toContain(`[truncated: ${Buffer.byteLength(text)} bytes in all]`);
    }
  });
});

describe('fitStatus', () => {
  it('returns the status as it is when it fits', () => {
    const status = run([node('a', { text: 'x'.repeat(100) }), node('b')]);
    expect(fitStatus(status, 1_000)).toBe(status);
  });

  it('leaves out the largest outputs first, ties in node order, until the status fits', () => {
    const status = run([node('small', 'x'.repeat(100)), node('big1', 'y'.repeat(600)), node('mid', 'z'.repeat(300)), node('big2', 'y'.repeat(600)), node('none')]);
    const fitted = fitStatus(status, 1_000);
    expect(fitted.nodes.map((n) => [n.id, n.output === undefined ? n.output_omitted : 'kept'])).toEqual([
      ['small', 'kept'],
      ['big1', { bytes: 602 }],
      ['mid', 'kept'],
      ['big2', { bytes: 602 }],
      ['none', undefined],
    ]);
    expect(jsonBytes(fitted)).toBeLessThanOrEqual(1_000);
    // The status it was given is unchanged: the run keeps passing the outputs along data edges.
    expect(status.nodes[1]!.output).toBe('y'.repeat(600));
  });

  it('cuts the longest error messages, saying so, when leaving out every output is not enough', () => {
    const failed = (id: string, length: number): NodeStatus => ({ id, op: 'http_request', state: 'failed', attempts: 3, error: { type: 'http_error', message: 'é'.repeat(length) } });
    const status = run([node('out', 'o'.repeat(2_000)), failed('f1', 4_000), failed('f2', 1_000), failed('f3', 200), failed('f4', 4_000)]);
    const fitted = fitStatus(status, 9_000);
    expect(jsonBytes(fitted)).toBeLessThanOrEqual(9_000);
    expect(fitted.nodes[0]!.output_omitted).toEqual({ bytes: 2_002 });
    const messages = fitted.nodes.slice(1).map((n) => n.error!.message);
    // f1 and f4 (8,000 bytes each) are cut, the first in node order first; f2 and f3 fit once they are.
    expect(messages.map((m) => m.includes('[truncated'))).toEqual([true, false, false, true]);
    expect(messages[0]).toMatch(/^é+ … \[truncated: 8000 bytes in all\]$/);
    expect(Buffer.byteLength(messages[0]!)).toBeLessThanOrEqual(STATUS_ERROR_MESSAGE_BYTES);
    expect(messages[1]).toBe('é'.repeat(1_000));
    expect(status.nodes[1]!.error!.message).toBe('é'.repeat(4_000));
  });

  it('measures outputs in UTF-8 bytes, not characters', () => {
    const status = run([node('wide', '日'.repeat(200)), node('ascii', 'a'.repeat(500))]);
    // 600 bytes against 502: the wide output is the larger and goes first.
    expect(fitStatus(status, 900).nodes.map((n) => n.output_omitted?.bytes)).toEqual([602, undefined]);
  });
});
