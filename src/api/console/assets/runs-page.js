// The runs list: plan_runs rows from Postgres, newest first, filtered by plan, state and start
// time (the filters live in the address, so a filtered list can be linked to).
import { api, badge, errorBox, fmtMs, fmtTime, h, show } from './api.js';

const STATES = ['', 'running', 'succeeded', 'failed', 'cancelled'];
const params = new URLSearchParams(location.search);

function filterForm() {
  const since = params.get('since');
  return h('form', { class: 'filters', method: 'get', action: '/ui/runs' },
    h('label', {}, 'Plan id', h('input', { name: 'plan_id', value: params.get('plan_id') ?? '', placeholder: 'any plan', size: 36 })),
    h('label', {}, 'State', h('select', { name: 'state' },
      STATES.map((s) => h('option', { value: s, selected: s === (params.get('state') ?? '') }, s || 'any')))),
    h('label', {}, 'Started since', h('input', { type: 'datetime-local', name: 'since', value: since ? since.slice(0, 16) : '' })),
    h('button', { type: 'submit' }, 'Filter'),
    h('a', { href: '/ui/runs' }, 'clear'),
  );
}

/** The API query for the filters: empty ones dropped, local times sent as ISO instants. */
function apiQuery(cursor) {
  const query = new URLSearchParams();
  for (const name of ['plan_id', 'state']) if (params.get(name)) query.set(name, params.get(name));
  if (params.get('since')) query.set('since', new Date(params.get('since')).toISOString());
  if (cursor) query.set('cursor', cursor);
  query.set('limit', '50');
  return query;
}

const row = (run) =>
  h('tr', { 'data-workflow': run.workflow_id },
    h('td', {}, h('a', { href: `/ui/runs/${encodeURIComponent(run.workflow_id)}` }, h('code', {}, run.workflow_id))),
    h('td', {}, h('a', { href: `/ui/plans/${run.plan_id}` }, run.intent || run.plan_id), h('span', { class: 'muted' }, ` r${run.plan_revision}`)),
    h('td', {}, badge(run.state)),
    h('td', { class: 'hide-narrow' }, fmtTime(run.started_at)),
    h('td', { class: 'num' }, fmtMs(run.latency_ms)),
    h('td', { class: 'hide-narrow' }, run.error ? `${run.error.type}: ${run.error.message}` : ''),
  );

async function main() {
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'Older runs');
  const status = h('p', { class: 'muted' });
  show(
    h('h1', {}, 'Runs'),
    filterForm(),
    h('div', { class: 'table-wrap' }, h('table', { id: 'runs' },
      h('thead', {}, h('tr', {}, ['Run', 'Plan', 'State', 'Started', 'Latency', 'Error'].map((t, i) => h('th', { class: i === 3 || i === 5 ? 'hide-narrow' : i === 4 ? 'num' : undefined }, t)))),
      body)),
    status, more,
  );
  let cursor;
  const load = async () => {
    try {
      const page = await api(`/v1/runs?${apiQuery(cursor)}`);
      body.append(...page.items.map(row));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      if (!body.children.length) status.textContent = 'No runs match (only runs of plans this key may run are listed).';
    } catch (err) {
      status.replaceChildren(errorBox(err));
    }
  };
  more.addEventListener('click', load);
  await load();
}

main();
