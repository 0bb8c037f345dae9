// The plan page: its graph, metrics and a chart of recent runs (latency and outcome), revision
// and relations, source episodes, and a form to run it.
import { api, badge, fitGraphBox, errorBox, fmtMs, fmtTime, h, jsonBlock, show, subject } from './api.js';
import { drawPlan, layoutPlan, legend } from './graph.js';

const planId = subject();

const card = (label, value, id) => h('div', { class: 'card', id }, h('b', {}, value), label);

const svgEl = (tag, attrs = {}, text) => {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
};

/** Recent runs, oldest left: bar height is latency, colour the outcome; a bar links to its run. */
function runChart(runs) {
  const closed = runs.filter((r) => r.latency_ms !== null).reverse();
  if (!closed.length) return h('p', { class: 'muted' }, 'No finished runs yet.');
  const width = 640;
  const height = 100;
  const max = Math.max(...closed.map((r) => r.latency_ms), 1);
  const step = width / closed.length;
  const chart = svgEl('svg', { class: 'chart', id: 'run-chart', viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'none' });
  closed.forEach((r, i) => {
    const bh = Math.max(2, (r.latency_ms / max) * (height - 14));
    const cls = r.state === 'succeeded' ? 'ok' : r.state === 'failed' ? 'bad' : 'other';
    const bar = svgEl('rect', { class: cls, x: i * step + 1, y: height - bh, width: Math.max(1, step - 2), height: bh, 'data-state': r.state });
    bar.append(svgEl('title', {}, `${r.state}, ${fmtMs(r.latency_ms)}, ${fmtTime(r.started_at)}`));
    const link = svgEl('a', { href: `/ui/runs/${encodeURIComponent(r.workflow_id)}` });
    link.append(bar);
    chart.append(link);
  });
  return h('div', {}, chart, h('p', { class: 'muted' }, `Last ${closed.length} finished runs, oldest left; the tallest bar is ${fmtMs(max)}; green succeeded, red failed, brown cancelled.`));
}

function relationsList(record) {
  if (!record.relations.length) return h('p', { class: 'muted' }, 'No relations.');
  return h('ul', { id: 'relations' }, record.relations.map((rel) => {
    const href = rel.predicate === 'derived_from' ? null : `/ui/plans/${rel.target_id}`;
    return h('li', { 'data-predicate': rel.predicate }, `${rel.predicate.replace('_', ' ')} `, href ? h('a', { href }, h('code', {}, rel.target_id)) : h('code', {}, rel.target_id));
  }));
}

/** Source episodes (derived_from): each fetched under the same key, so hidden ones stay hidden. */
async function episodesList(record) {
  const ids = record.relations.filter((r) => r.predicate === 'derived_from').map((r) => r.target_id);
  if (!ids.length) return h('p', { class: 'muted' }, 'Authored directly: no source episodes.');
  const items = await Promise.all(ids.slice(0, 20).map((id) => api(`/v1/episodes/${id}`).then(
    ({ record: ep, redacted }) => (redacted ? h('li', {}, h('code', {}, id), ` (redacted ${ep.sensitivity} episode)`) : h('li', {}, h('code', {}, id), ` · ${ep.payload.outcome} · ${ep.payload.tool_graph.length} tool calls · ${fmtTime(ep.created_at)}`)),
    () => h('li', {}, h('code', {}, id), ' (not visible to this key)'),
  )));
  return h('ul', { id: 'episodes' }, items, ids.length > 20 ? h('li', { class: 'muted' }, `…and ${ids.length - 20} more`) : null);
}

/** The run inputs a plan takes, as its inputs_schema lists them: name, type, required or default, examples. */
function inputsList(schema) {
  const properties = Object.entries(schema?.properties ?? {});
  if (!properties.length) return h('p', { class: 'muted' }, 'This plan takes no inputs.');
  const required = new Set(schema.required ?? []);
  return h('ul', { id: 'plan-inputs' }, properties.map(([name, p]) => h('li', {},
    h('code', {}, name), ` ${p.type ?? 'any'}`,
    p.default !== undefined ? ` · default ${JSON.stringify(p.default)}` : required.has(name) ? ' · required' : ' · optional',
    p.examples?.length ? ` · e.g. ${p.examples.slice(0, 3).map((e) => JSON.stringify(e)).join(', ')}` : '',
    p.description ? h('span', { class: 'muted' }, ` — ${p.description}`) : null)));
}

function runForm(plan) {
  const inputs = h('textarea', { id: 'run-inputs', 'aria-label': 'run inputs (JSON)' }, '{}');
  const out = h('div');
  const submit = async (event) => {
    event.preventDefault();
    try {
      // The plan is named, so the task text only labels the run (at most 4,000 characters, an intent's limit).
      const body = { task_descriptor: plan.intent.slice(0, 4000), plan_id: planId, inputs: JSON.parse(inputs.value || '{}') };
      const started = await api('/v1/intents', { method: 'POST', body });
      location.href = `/ui/runs/${encodeURIComponent(started.workflow_id)}`;
    } catch (err) {
      out.replaceChildren(errorBox(err));
    }
  };
  return h('form', { id: 'run-form', onsubmit: submit }, inputsList(plan.inputs_schema), h('label', {}, 'Inputs (JSON)', inputs), h('button', { type: 'submit' }, 'Run this plan'), out);
}

function nodePanel(node) {
  if (!node) return h('p', { class: 'muted' }, 'Click a node to see its op, params, guard and policy.');
  return h('div', {}, h('h2', {}, node.id), h('p', {}, 'op ', h('code', {}, node.op)),
    h('h3', {}, 'Params'), jsonBlock(node.params),
    Object.keys(node.guards ?? {}).length ? [h('h3', {}, 'Guard'), jsonBlock(node.guards)] : null,
    node.policy ? [h('h3', {}, 'Policy'), jsonBlock(node.policy)] : null);
}

async function main() {
  let visible;
  try {
    visible = await api(`/v1/plans/${encodeURIComponent(planId)}`);
  } catch (err) {
    return show(h('h1', {}, 'Plan ', h('code', {}, planId)), errorBox(err));
  }
  const { record } = visible;
  if (visible.redacted) {
    return show(h('h1', {}, 'Plan ', h('code', {}, planId)),
      h('p', { class: 'error', id: 'redacted' }, `This ${record.sensitivity} plan is above this key’s clearance: only its envelope is shown.`),
      jsonBlock(record));
  }
  const plan = record.payload;
  const m = plan.metrics;
  const runs = await api(`/v1/runs?plan_id=${encodeURIComponent(planId)}&limit=50`).then((r) => r.items, () => []);
  const ran = m.execution_count > 0;
  const graphBox = h('div', { class: 'graph-box', id: 'graph' }, h('p', { class: 'muted' }, `Laying out ${plan.nodes.length} nodes…`));
  const panel = h('aside', { class: 'panel', id: 'node-panel' }, nodePanel());
  const timing = h('p', { class: 'muted', id: 'layout-time' });
  show(
    h('h1', {}, plan.intent, ' ', badge(record.status)),
    visible.superseded_by ? h('p', { id: 'successor' }, `This plan was ${record.status}; it still runs as it is when named. The plan replacing it: `,
      h('a', { href: `/ui/plans/${encodeURIComponent(visible.superseded_by)}` }, visible.superseded_by)) : null,
    plan.description ? h('p', {}, plan.description) : null,
    h('dl', { class: 'facts' },
      h('dt', {}, 'Record'), h('dd', {}, h('code', {}, record.id), ` · revision ${record.revision} · plan ${plan.plan_id} v${plan.version}`),
      h('dt', {}, 'Trust'), h('dd', {}, `${record.sensitivity}${record.scope ? ` · scope ${record.scope}` : ''}${plan.constraints.requires_authenticated ? ' · key required' : ''}`),
      h('dt', {}, 'Updated'), h('dd', {}, fmtTime(record.updated_at)),
      record.tags.length ? [h('dt', {}, 'Tags'), h('dd', {}, record.tags.join(', '))] : null),
    h('div', { class: 'cards', id: 'metrics' },
      card('runs', String(m.execution_count), 'metric-count'),
      card('failure rate', ran ? `${Math.round(m.failure_rate * 100)}%` : '—', 'metric-failure'),
      card('avg latency', ran ? fmtMs(m.avg_latency_ms) : '—', 'metric-latency'),
      card('last run', fmtTime(m.last_executed_at), 'metric-last')),
    runChart(runs),
    h('div', { class: 'split' }, h('div', { class: 'graph-col' }, graphBox, legend(), timing), panel),
    h('h2', {}, 'Recent runs'),
    runs.length ? h('ul', { id: 'plan-runs' }, runs.slice(0, 10).map((r) => h('li', {}, badge(r.state), ' ', h('a', { href: `/ui/runs/${encodeURIComponent(r.workflow_id)}` }, fmtTime(r.started_at)), ` · ${fmtMs(r.latency_ms)}`)))
      : h('p', { class: 'muted' }, 'None visible.'),
    h('p', {}, h('a', { href: `/ui/runs?plan_id=${encodeURIComponent(planId)}` }, 'All runs of this plan')),
    h('h2', {}, 'Revisions and relations'), relationsList(record),
    h('h2', {}, 'Source episodes'), await episodesList(record),
    h('h2', {}, 'Run'), runForm(plan),
  );
  const layout = await layoutPlan(plan.nodes, plan.edges);
  fitGraphBox(graphBox, layout);
  timing.textContent = `${plan.nodes.length} nodes laid out in ${layout.ms} ms (${layout.engine})`;
  timing.dataset.layoutMs = String(layout.ms);
  const nodes = new Map(plan.nodes.map((n) => [n.id, n]));
  drawPlan(graphBox, plan, layout, (id) => panel.replaceChildren(nodePanel(nodes.get(id))));
}

main();
