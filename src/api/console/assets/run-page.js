// The run page: the plan graph with each node's live state, polled every second until the run
// ends; a node's details on click; the run in the Temporal UI; cancel while it runs, decide what
// it waits for, resume it once it failed.
import { api, badge, fitGraphBox, durationMs, errorBox, fmtMs, fmtTime, h, jsonBlock, show, subject } from './api.js';
import { drawPlan, layoutPlan, legend } from './graph.js';

const POLL_MS = 1000;
const workflowId = subject();

const run = `/v1/runs/${encodeURIComponent(workflowId)}`;
const detailedNodes = (view) => view.status?.nodes ?? view.result?.nodes ?? [];
const partitionedOf = (view) => view.status?.partitioned ?? view.result?.partitioned;

/**
 * Every node's state of a partitioned run: its status details only the current partition, so
 * the others come from the node list (one state per node, a thousand a page).
 */
async function partitionStates() {
  const states = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await api(`${run}/nodes?offset=${offset}&limit=1000`);
    states.push(...page.nodes.map((n) => ({ id: n.node_id, op: n.op, state: n.state, attempts: 0 })));
    if (offset + 1000 >= page.node_count) return states;
  }
}

/** What waits for a person, each with its prompt (references filled in) and a decision to make. */
function waits(view, onDecide) {
  const waiting = view.status?.waiting_for ?? [];
  if (waiting.length === 0) return null;
  return h('section', { class: 'waits', id: 'waits' },
    h('h2', {}, 'Waiting for a person'),
    waiting.map((w) => h('div', { class: 'wait', 'data-wait': w.node_id },
      h('p', {}, h('strong', {}, w.node_id === '$run' ? 'Run gate' : w.node_id), ': ', w.prompt),
      h('p', { class: 'muted' }, `since ${fmtTime(w.since)}${w.timeout_at ? ` · until ${fmtTime(w.timeout_at)}` : ''}`),
      h('p', { class: 'actions' },
        h('button', { type: 'button', class: 'approve', onclick: () => onDecide(w.node_id, 'approve') }, 'Approve'),
        h('button', { type: 'button', class: 'reject', onclick: () => onDecide(w.node_id, 'reject') }, 'Reject')),
    )),
  );
}

function header(view, actions) {
  const resumedFrom = view.record?.resumed_from;
  const latency = view.result?.latency_ms ?? view.record?.latency_ms;
  return h('section', { class: 'run-head' },
    h('h1', {}, 'Run ', h('code', {}, view.workflow_id), ' ', h('span', { id: 'run-state' }, badge(view.state))),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Plan'), h('dd', {}, h('a', { href: `/ui/plans/${view.plan_id}` }, view.status?.intent ?? view.result?.intent ?? view.plan_id)),
      h('dt', {}, 'Started'), h('dd', {}, fmtTime(view.started_at)),
      h('dt', {}, 'Closed'), h('dd', {}, fmtTime(view.closed_at)),
      h('dt', {}, 'Latency'), h('dd', {}, fmtMs(latency)),
      resumedFrom ? [h('dt', {}, 'Resumes'), h('dd', {}, h('a', { href: `/ui/runs/${encodeURIComponent(resumedFrom)}`, id: 'resumed-from' }, resumedFrom))] : null,
    ),
    h('p', { class: 'actions' },
      h('a', { href: view.ui_url, target: '_blank', rel: 'noopener', id: 'temporal-link' }, 'Open in the Temporal UI ↗'),
      view.state === 'running' ? h('button', { id: 'cancel', type: 'button', onclick: actions.cancel }, 'Cancel run') : null,
      ['failed', 'cancelled'].includes(view.state) ? h('button', { id: 'resume', type: 'button', onclick: actions.resume }, 'Resume: rerun what did not succeed') : null,
    ),
    waits(view, actions.decide),
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
    s.reused_from ? h('p', { class: 'reason' }, 'Reused, not run again: its output from ', h('a', { href: `/ui/runs/${encodeURIComponent(s.reused_from)}` }, s.reused_from)) : null,
    s.prompt ? h('p', { class: 'reason' }, `Asks: ${s.prompt}`) : null,
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
    view = await api(run);
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
  let coarse = [];
  const refreshCoarse = async () => {
    if (partitionedOf(view)) coarse = await partitionStates().catch(() => coarse);
  };
  // A detailed status wins over the node list's state of the same node.
  const nodesOf = () => {
    const detailed = detailedNodes(view);
    const known = new Set(detailed.map((s) => s.id));
    return [...coarse.filter((s) => !known.has(s.id)), ...detailed];
  };
  const statusById = () => new Map(nodesOf().map((s) => [s.id, s]));
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
      details.set(id, await api(`${run}/nodes/${encodeURIComponent(id)}`));
      if (selected === id) renderPanel();
    } catch {
      // the declared params stay shown
    }
  };
  const attempt = async (work) => {
    try {
      await work();
    } catch (err) {
      head.append(errorBox(err));
    }
  };
  const actions = {
    cancel: () => confirm('Cancel this run? Running nodes are asked to stop; nothing more starts.') &&
      attempt(async () => {
        await api(`${run}/cancel`, { method: 'POST' });
        document.getElementById('cancel').disabled = true;
      }),
    resume: () => attempt(async () => {
      const resumed = await api(`${run}/resume`, { method: 'POST' });
      location.assign(`/ui/runs/${encodeURIComponent(resumed.workflow_id)}`);
    }),
    decide: (nodeId, decision) => attempt(async () => {
      await api(`${run}/approvals/${encodeURIComponent(nodeId)}`, { method: 'POST', body: { decision } });
      for (const button of document.querySelectorAll(`#waits [data-wait="${CSS.escape(nodeId)}"] button`)) button.disabled = true;
    }),
  };
  let headKey;
  // Redrawn only when what it shows changes, so a button is not replaced under the pointer.
  const renderHead = () => {
    const key = JSON.stringify([view.state, view.error, view.status_error, view.status?.waiting_for, view.record]);
    if (key !== headKey) head.replaceChildren(header(view, actions));
    headKey = key;
  };
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
  await refreshCoarse();
  setStates(nodesOf());
  document.body.dataset.runState = view.state;

  // Poll while the run runs, one request a second at most apart; each answer recolours only
  // the nodes that changed.
  let asked = performance.now();
  while (view.state === 'running') {
    await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (performance.now() - asked))));
    asked = performance.now();
    try {
      view = await api(run);
      await refreshCoarse();
    } catch {
      continue; // a missed poll (API restarting) is retried on the next tick
    }
    setStates(nodesOf());
    renderHead();
    if (selected) renderPanel();
  }
  document.body.dataset.runState = view.state;
}

main();
