// The plans list: newest first under the key's trust; plans one level above its clearance are
// listed redacted (no intent, no graph), anything higher not at all.
import { api, errorBox, fmtMs, fmtTime, h, show } from './api.js';

const params = new URLSearchParams(location.search);

function row({ record, redacted }) {
  if (redacted) {
    return h('tr', { class: 'redacted', 'data-plan': record.id },
      h('td', {}, h('span', { class: 'muted' }, `redacted ${record.sensitivity} plan`)),
      h('td', {}, record.sensitivity), h('td', { colspan: 6, class: 'muted' }, 'above this key’s clearance'));
  }
  const p = record.payload;
  const m = p.metrics;
  return h('tr', { 'data-plan': record.id },
    h('td', {}, h('a', { href: `/ui/plans/${record.id}` }, p.intent), h('div', { class: 'muted' }, `${p.nodes.length} nodes · r${record.revision}`)),
    h('td', {}, record.sensitivity),
    h('td', { class: 'hide-narrow' }, record.status),
    h('td', { class: 'num' }, String(m.execution_count)),
    // A plan that never ran has no failure rate or latency yet, not 0 % and 0 ms.
    h('td', { class: 'num' }, m.execution_count > 0 ? `${Math.round(m.failure_rate * 100)}%` : '—'),
    h('td', { class: 'num hide-narrow' }, m.execution_count > 0 ? fmtMs(m.avg_latency_ms) : '—'),
    h('td', { class: 'hide-narrow' }, fmtTime(m.last_executed_at)),
  );
}

async function main() {
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'More plans');
  const status = h('p', { class: 'muted' });
  show(
    h('h1', {}, 'Plans'),
    h('form', { class: 'filters', method: 'get', action: '/ui/plans' },
      h('label', {}, 'Intent (exact)', h('input', { name: 'intent', value: params.get('intent') ?? '' })),
      h('label', {}, 'Status', h('select', { name: 'status' },
        ['', 'active', 'superseded', 'retracted', 'merged'].map((s) => h('option', { value: s, selected: s === (params.get('status') ?? '') }, s || 'any')))),
      h('button', { type: 'submit' }, 'Filter'), h('a', { href: '/ui/plans' }, 'clear')),
    h('div', { class: 'table-wrap' }, h('table', { id: 'plans' },
      h('thead', {}, h('tr', {}, ['Plan', 'Sensitivity', 'Status', 'Runs', 'Failure rate', 'Avg latency', 'Last run']
        .map((t, i) => h('th', { class: [2, 5, 6].includes(i) ? 'hide-narrow' : undefined }, t)))),
      body)),
    status, more,
  );
  let cursor;
  const load = async () => {
    const query = new URLSearchParams({ limit: '50' });
    for (const name of ['intent', 'status']) if (params.get(name)) query.set(name, params.get(name));
    if (cursor) query.set('cursor', cursor);
    try {
      const page = await api(`/v1/plans?${query}`);
      body.append(...page.items.map(row));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      if (!body.children.length) status.textContent = 'No plans visible to this key.';
    } catch (err) {
      status.replaceChildren(errorBox(err));
    }
  };
  more.addEventListener('click', load);
  await load();
}

main();
