/** The console's fast layered layout (used for plans too large for ELK): pure, so tested here. */
import { describe, expect, it } from 'vitest';

type Box = { x: number; y: number; width: number; height: number };
type Layout = { width: number; height: number; boxes: Map<string, Box>; lines: Array<{ from: string; to: string; points: Array<{ x: number; y: number }> }> };
type Edge = { from: string; to: string; kind: 'data' | 'control' };

// A browser module (plain JS served at /ui/assets): imported by path, typed here.
const modulePath: string = '../../src/api/console/assets/layered-layout.js';
const { layeredLayout } = (await import(modulePath)) as { layeredLayout(nodes: Array<{ id: string }>, edges: Edge[]): Layout };

function randomDag(n: number, seed: number) {
  let s = seed;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}` }));
  const edges: Edge[] = [];
  for (let i = 1; i < n; i++) {
    const fanIn = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < fanIn; k++) edges.push({ from: `n${Math.floor(rnd() * i)}`, to: `n${i}`, kind: rnd() < 0.5 ? 'data' : 'control' });
  }
  return { nodes, edges };
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('layered layout', () => {
  it('puts every edge left to right and never overlaps two nodes', () => {
    for (const seed of [1, 7, 42]) {
      const { nodes, edges } = randomDag(300, seed);
      const layout = layeredLayout(nodes, edges);
      expect(layout.boxes.size).toBe(300);
      for (const e of edges) expect(layout.boxes.get(e.from)!.x).toBeLessThan(layout.boxes.get(e.to)!.x);
      const boxes = [...layout.boxes.values()].sort((a, b) => a.x - b.x || a.y - b.y);
      for (let i = 1; i < boxes.length; i++) {
        if (boxes[i]!.x === boxes[i - 1]!.x) expect(overlap(boxes[i]!, boxes[i - 1]!)).toBe(false);
      }
      for (const box of boxes) {
        expect(box.x + box.width).toBeLessThanOrEqual(layout.width);
        expect(box.y + box.height).toBeLessThanOrEqual(layout.height);
      }
    }
  });

  it('draws each edge from the right side of its source to the left side of its target', () => {
    const layout = layeredLayout([{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ from: 'a', to: 'b', kind: 'data' }, { from: 'a', to: 'c', kind: 'control' }, { from: 'a', to: 'zz', kind: 'data' }]);
    expect(layout.lines).toHaveLength(2);
    const a = layout.boxes.get('a')!;
    const b = layout.boxes.get('b')!;
    expect(layout.lines[0]!.points).toEqual([{ x: a.x + a.width, y: a.y + a.height / 2 }, { x: b.x, y: b.y + b.height / 2 }]);
  });

  it('untangles crossings: two parallel chains stay in their own rows', () => {
    const nodes = ['a1', 'b1', 'a2', 'b2', 'a3', 'b3'].map((id) => ({ id }));
    const edges: Edge[] = [
      { from: 'a1', to: 'a2', kind: 'data' }, { from: 'a2', to: 'a3', kind: 'data' },
      { from: 'b1', to: 'b2', kind: 'data' }, { from: 'b2', to: 'b3', kind: 'data' },
    ];
    const layout = layeredLayout(nodes, edges);
    const row = (id: string) => layout.boxes.get(id)!.y;
    expect(row('a1')).toBe(row('a2'));
    expect(row('a2')).toBe(row('a3'));
    expect(row('b1')).toBe(row('b3'));
    expect(row('a1')).not.toBe(row('b1'));
  });
});
