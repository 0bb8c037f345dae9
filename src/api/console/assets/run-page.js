// The run page: the plan graph with each node's live state, polled every second until the run
// ends; a node's details on click; the run in the Temporal UI; cancel while it runs.
import { api, badge, fitGraphBox, durationMs, errorBox, fmtMs, fmtTime, h, jsonBlock, show, subject } from './api.js';
import { drawPlan, layoutPlan, legend } from './graph.js';

const POLL_MS = 1000;
const workflowId = subject();

const nodesOf = (view) => view.status?.nodes ?? view.result?.nodes ?? [];

function header(view, onCancel) {
  const latency = view.result?.latency_ms ?? view.record?.latency_ms;
  return h('section', { class: 'run-head' },
    h('h1', {}, 'Run ', h('code', {}, view.workflow_id), ' ', h('span', { id: 'run-state' }, badge(view.state))),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Plan'), h('dd', {}, h('a', { href: `/ui/plans/${view.plan_id}` }, view.status?.intent ?? view.result?.intent ?? view.plan_id)),
      h('dt', {}, 'Started'), h('dd', {}, fmtTime(view.started_at)),
      h('dt', {}, 'Closed'), h('dd', {}, fmtTime(view.closed_at)),
      h('dt', {}, 'Latency'), h('dd', {}, fmtMs(latency)),
    ),
    h('p', { class: 'actions' },
      h('a', { href: view.ui_url, target: '_blank', rel: 'noopener', id: 'temporal-link' }, 'Open in the Temporal UI ↗'),
      view.state === 'running' ? h('button', { id: 'cancel', type: 'button', onclick: onCancel }, 'Cancel run') : null,
    ),
    view.error ? h('p', { class: 'error', id: 'run-error' }, `${view.error.type}: ${view.error.message}`) : null,
    view.status_error ? h('p', { class: 'muted' }, view.status_error) : null,
  );
}

function nodePanel(planNode, status, detail) {
  if (!planNode) return h('p', { class: 'muted' }, 'Click a node to see its params, output, error, attempts and timings.');
  const s = status ?? { state: 'pending', attempts: 0 };
  return h('div', {},
    h('h2', {}, planNode.id, ' ', badge(s.state)),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Op'), h('dd', {}, planNode.op),
      h('dt', {}, 'Attempts'), h('dd', { id: 'node-attempts' }, String(s.attempts)),
      h('dt', {}, 'Started'), h('dd', {}, fmtTime(s.started_at)),
      h('dt', {}, 'Finished'), h('dd', {}, fmtTime(s.finished_at)),
      h('dt', {}, 'Took'), h('dd', {}, fmtMs(durationMs(s.started_at, s.finished_at))),
    ),
    s.reason ? h('p', { class: 'reason', id: 'node-reason' }, `Why ${s.state}: ${s.reason}`) : null,
    s.error ? h('div', { class: 'error', id: 'node-error' }, h('strong', {}, s.error.type), ': ', s.error.message) : null,
    h('h3', {}, detail?.resolved_params ? 'Params, as resolved' : 'Params, as declared'),
    h('div', { id: 'node-params' }, jsonBlock(detail?.resolved_params ?? detail?.params ?? planNode.params)),
    detail?.resolved_params ? h('details', {}, h('summary', {}, 'as declared'), jsonBlock(detail.params)) : null,
    h('h3', {}, 'Output'),
    h('div', { id: 'node-output' }, s.output_omitted
      ? h('p', { class: 'muted' }, `${s.output_omitted.bytes.toLocaleString()} bytes, too large to report with the run's other outputs: see the node's activity result (or local-activity marker) in the run's Temporal history.`)
      : jsonBlock(s.output)),
    planNode.guards && Object.keys(planNode.guards).length ? [h('h3', {}, 'Guard'), jsonBlock(planNode.guards)] : null,
  );
}

async function main() {
  let view;
  try {
    view = await api(`/v1/runs/${encodeURIComponent(workflowId)}`);
  } catch (err) {
    return show(h('h1', {}, 'Run ', h('code', {}, workflowId)), errorBox(err));
  }
  const plan = (await api(`/v1/plans/${view.plan_id}`)).record.payload;
  const head = h('div');
  const graphBox = h('div', { class: 'graph-box', id: 'graph' }, h('p', { class: 'muted' }, `Laying out ${plan.nodes.length} nodes…`));
  const panel = h('aside', { class: 'panel', id: 'node-panel' });
  const timing = h('p', { class: 'muted', id: 'layout-time' });
  show(head, h('div', { class: 'split' }, h('div', { class: 'graph-col' }, graphBox, legend(), timing), panel));

  const planNodes = new Map(plan.nodes.map((n) => [n.id, n]));
  let selected;
  const statusById = () => new Map(nodesOf(view).map((s) => [s.id, s]));
  // Resolved params come from the run's own input and plan snapshot; fetched once a node has
  // started, and kept once it is done (they never change after the node starts).
  const details = new Map();
  let shown;
  const renderPanel = async () => {
    const id = selected;
    const status = statusById().get(id);
    // Redraw only when something changed, so an open disclosure or a scrolled output stays put.
    const key = JSON.stringify([id, status, details.has(id)]);
    if (key === shown) return;
    shown = key;
    panel.replaceChildren(nodePanel(planNodes.get(id), status, details.get(id)));
    if (!status || details.has(id) || !['running', 'succeeded', 'failed'].includes(status.state)) return;
    try {
      details.set(id, await api(`/v1/runs/${encodeURIComponent(workflowId)}/nodes/${encodeURIComponent(id)}`));
      if (selected === id) renderPanel();
    } catch {
      // the declared params stay shown
    }
  };
  const cancel = async () => {
    try {
      await api(`/v1/runs/${encodeURIComponent(workflowId)}/cancel`, { method: 'POST' });
      document.getElementById('cancel').disabled = true;
    } catch (err) {
      head.append(errorBox(err));
    }
  };
  const renderHead = () => head.replaceChildren(header(view, cancel));
  renderHead();
  renderPanel();

  const layout = await layoutPlan(plan.nodes, plan.edges);
  fitGraphBox(graphBox, layout);
  timing.textContent = `${plan.nodes.length} nodes laid out in ${layout.ms} ms (${layout.engine}) · drag to pan, wheel to zoom, double-click to fit`;
  timing.dataset.layoutMs = String(layout.ms);
  const setStates = drawPlan(graphBox, plan, layout, (id) => {
    selected = id;
    renderPanel();
  });
  setStates(nodesOf(view));
  document.body.dataset.runState = view.state;

  // Poll while the run runs, one request a second at most apart; each answer recolours only
  // the nodes that changed.
  let asked = performance.now();
  while (view.state === 'running') {
    await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (performance.now() - asked))));
    asked = performance.now();
    try {
      view = await api(`/v1/runs/${encodeURIComponent(workflowId)}`);
    } catch {
      continue; // a missed poll (API restarting) is retried on the next tick
    }
    setStates(nodesOf(view));
    document.getElementById('run-state').replaceChildren(badge(view.state));
    if (view.state !== 'running') renderHead();
    if (selected) renderPanel();
  }
  document.body.dataset.runState = view.state;
}

main();
