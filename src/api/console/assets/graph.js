// The plan graph laid out left to right — by ELK's layered algorithm in a Web Worker for plans of
// up to a few hundred nodes, by a fast layered layout beyond — and drawn as SVG with pan and
// zoom, nodes coloured by state.
import { layeredLayout } from './layered-layout.js';

const SVG = 'http://www.w3.org/2000/svg';
const NODE_W = 168;
const NODE_H = 40;
/**
 * Past this size ELK's crossing minimisation takes seconds (a 1,000-node plan: 15 s in headless
 * Chromium on a loaded machine), so large plans get the linear layered layout instead.
 */
const LARGE_PLAN = 150;

let worker;
let nextId = 0;
const pending = new Map();

/** The ELK worker, started once per page; messages follow elkjs' own worker protocol. */
function elk() {
  if (worker) return worker;
  worker = new Worker('/ui/vendor/elk-worker.js');
  worker.onmessage = ({ data }) => {
    const call = pending.get(data.id);
    pending.delete(data.id);
    if (!call) return;
    if (data.error) call.reject(new Error(String(data.error.message ?? data.error)));
    else call.resolve(data.data);
  };
  worker.onerror = (event) => {
    for (const call of pending.values()) call.reject(new Error(event.message || 'layout worker failed'));
    pending.clear();
  };
  post({ cmd: 'register', algorithms: ['layered'] });
  return worker;
}

function post(message) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    (worker ?? elk()).postMessage({ id, ...message });
  });
}

/** Lays a plan out; resolves to node boxes and edge polylines, with the time the layout took. */
export async function layoutPlan(nodes, edges) {
  const started = performance.now();
  if (nodes.length > LARGE_PLAN) {
    const laid = layeredLayout(nodes, edges, { width: NODE_W, height: NODE_H, gapX: 44, gapY: 14 });
    return { ...laid, engine: 'layered', ms: Math.round(performance.now() - started) };
  }
  elk();
  const layoutOptions = {
    'elk.algorithm': 'layered',
    'elk.direction': 'RIGHT',
    'elk.spacing.nodeNode': '14',
    'elk.layered.spacing.nodeNodeBetweenLayers': '44',
    'elk.edgeRouting': 'ORTHOGONAL',
  };
  const ids = new Set(nodes.map((n) => n.id));
  const graph = {
    id: 'plan',
    layoutOptions,
    children: nodes.map((n) => ({ id: n.id, width: NODE_W, height: NODE_H })),
    edges: edges
      .filter((e) => ids.has(e.from) && ids.has(e.to))
      .map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to], kind: e.kind })),
  };
  const laid = await post({ cmd: 'layout', graph, layoutOptions, options: {} });
  const boxes = new Map(laid.children.map((c) => [c.id, c]));
  const lines = laid.edges.map((e, i) => {
    const section = e.sections?.[0];
    const points = section ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint] : [];
    return { from: e.sources[0], to: e.targets[0], kind: graph.edges[i].kind, points };
  });
  return { width: laid.width, height: laid.height, boxes, lines, engine: 'elk', ms: Math.round(performance.now() - started) };
}

const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Draws a laid-out plan into `container`; `onSelect(nodeId)` fires on a click (or Enter).
 * Returns `setStates(nodeStatuses)`, which recolours only the nodes whose state changed.
 */
export function drawPlan(container, plan, layout, onSelect) {
  const pad = 16;
  const root = svg('svg', { class: 'graph', role: 'img', 'aria-label': `plan graph, ${plan.nodes.length} nodes` });
  root.innerHTML = `<defs>
    <marker id="arrow-data" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrow-data"/></marker>
    <marker id="arrow-control" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrow-control"/></marker>
  </defs>`;
  const edgesLayer = svg('g', { class: 'edges' });
  const nodesLayer = svg('g', { class: 'nodes' });
  root.append(edgesLayer, nodesLayer);
  const edgeEls = new Map();
  for (const line of layout.lines) {
    if (line.points.length < 2) continue;
    const path = svg('polyline', {
      class: `edge edge-${line.kind}`,
      points: line.points.map((p) => `${p.x},${p.y}`).join(' '),
      'marker-end': `url(#arrow-${line.kind})`,
      'data-from': line.from,
      'data-to': line.to,
    });
    edgesLayer.append(path);
    if (!edgeEls.has(line.to)) edgeEls.set(line.to, []);
    edgeEls.get(line.to).push(path);
  }
  const nodeEls = new Map();
  for (const node of plan.nodes) {
    const box = layout.boxes.get(node.id);
    if (!box) continue;
    const g = svg('g', { class: 'node state-pending', transform: `translate(${box.x},${box.y})`, tabindex: 0, 'data-node': node.id, 'data-state': 'pending' });
    const title = svg('title');
    title.textContent = `${node.id} (${node.op})`;
    const label = svg('text', { x: 10, y: 17, class: 'label' });
    label.textContent = clip(node.id, 22);
    const op = svg('text', { x: 10, y: 32, class: 'op' });
    op.textContent = clip(node.op, 24);
    g.append(title, svg('rect', { width: NODE_W, height: NODE_H, rx: 6 }), label, op);
    nodesLayer.append(g);
    nodeEls.set(node.id, { g, title, state: 'pending' });
  }
  nodesLayer.addEventListener('click', (event) => {
    const g = event.target.closest('[data-node]');
    if (!g) return;
    for (const el of nodesLayer.querySelectorAll('.selected')) el.classList.remove('selected');
    g.classList.add('selected');
    onSelect?.(g.dataset.node);
  });
  nodesLayer.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') event.target.closest('[data-node]')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  });
  container.replaceChildren(root);
  enablePanZoom(root, { x: -pad, y: -pad, w: layout.width + 2 * pad, h: layout.height + 2 * pad });

  return function setStates(statuses) {
    for (const status of statuses) {
      const entry = nodeEls.get(status.id);
      if (!entry || entry.state === status.state) continue;
      entry.g.classList.replace(`state-${entry.state}`, `state-${status.state}`);
      entry.g.dataset.state = status.state;
      entry.state = status.state;
      const why = status.reason ? `: ${status.reason}` : status.error ? `: ${status.error.message}` : '';
      entry.title.textContent = `${status.id} (${status.op}) ${status.state}${why}`;
      for (const edge of edgeEls.get(status.id) ?? []) edge.classList.toggle('into-skipped', status.state === 'skipped');
    }
  };
}

/** Pan by dragging, zoom with the wheel (around the pointer); starts fitted to the whole graph. */
function enablePanZoom(root, full) {
  let view = { ...full };
  const apply = () => root.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  root.setAttribute('preserveAspectRatio', 'xMinYMin meet');
  apply();
  root.addEventListener('wheel', (event) => {
    event.preventDefault();
    const rect = root.getBoundingClientRect();
    const scale = Math.min(view.w / rect.width, view.h / rect.height) || 1;
    const fx = view.x + (event.clientX - rect.left) * scale;
    const fy = view.y + (event.clientY - rect.top) * scale;
    const k = event.deltaY > 0 ? 1.15 : 1 / 1.15;
    view = { x: fx - (fx - view.x) * k, y: fy - (fy - view.y) * k, w: view.w * k, h: view.h * k };
    apply();
  }, { passive: false });
  let drag;
  root.addEventListener('pointerdown', (event) => {
    if (event.target.closest('[data-node]')) return;
    drag = { x: event.clientX, y: event.clientY, view: { ...view } };
    root.setPointerCapture(event.pointerId);
  });
  root.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const rect = root.getBoundingClientRect();
    const scale = Math.max(view.w / rect.width, view.h / rect.height) || 1;
    view = { ...drag.view, x: drag.view.x - (event.clientX - drag.x) * scale, y: drag.view.y - (event.clientY - drag.y) * scale };
    apply();
  });
  root.addEventListener('pointerup', () => (drag = undefined));
  root.addEventListener('dblclick', () => {
    view = { ...full };
    apply();
  });
}

/** The colour key under every graph. */
export function legend() {
  const states = ['pending', 'running', 'waiting', 'succeeded', 'failed', 'skipped', 'cancelled'];
  const wrap = document.createElement('div');
  wrap.className = 'legend';
  for (const state of states) {
    const item = document.createElement('span');
    item.className = `badge state-${state}`;
    item.textContent = state;
    wrap.append(item);
  }
  const data = document.createElement('span');
  data.className = 'edge-key data';
  data.textContent = 'data edge';
  const control = document.createElement('span');
  control.className = 'edge-key control';
  control.textContent = 'control edge';
  wrap.append(data, control);
  return wrap;
}
