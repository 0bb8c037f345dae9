// The selection explorer: rank the stored plans for a task under the key's own trust, with every
// signal behind each score and the selection's decision (auto-run or needs more), and start a run.
import { api, errorBox, h, ownTrust, show } from './api.js';

const pct = (x) => (x === undefined ? '—' : x.toFixed(3));

/** How the server scored and decided, in the words of the selection mode it runs (docs/selection.md). */
const HOW = {
  calibrated: 'Each plan’s match (applicability) fuses a lexical score over its document (intent, description, examples, ops, inputs) with a word alignment of the task against it (0.6 · lexical + 0.4 · alignment), or a learned alias’s match when higher; the score adds at most 0.05 for its success rate and recency, so a track record only breaks near-ties. The confidence estimates the chance that the top plan is the one meant, from its match and its margin over the runner-up (counted as at least 0.3).',
  membrane: 'The score is the mean of applicability (embedding similarity, or the plan’s confidence without embeddings), success rate and recency; the confidence is the gap between the two best scores relative to the best.',
};

function decision(selection) {
  const { confidence, threshold, needs_more, action_conflict, value_conflict } = selection;
  const does = action_conflict ? `the top plan does “${action_conflict.plan.join('”, “')}”` : '';
  const fixed = (value_conflict ?? []).map((c) => `“${c.task}” where the top plan always uses “${c.plan}” (node ${c.node}, param ${c.param})`);
  const why = !action_conflict
    ? fixed.length > 0
      ? `the task names ${fixed.join(' and ')}, and the plan takes no input for ${fixed.length > 1 ? 'them' : 'it'}`
      : `confidence ${confidence.toFixed(3)} is below the threshold ${threshold}`
    : action_conflict.also
      ? `the task also asks to “${action_conflict.task}”, which nothing says the top plan does`
      : action_conflict.task.startsWith('not ')
        ? `the task says “${action_conflict.task}”${action_conflict.plan.length > 0 ? `, and ${does}` : ''}`
        : action_conflict.plan.length === 0
          ? `the task asks to “${action_conflict.task}”, which cannot be taken back, and the top plan is not known to do it`
          : `the task asks to “${action_conflict.task}”, but ${does}`;
  return needs_more
    ? h('p', { class: 'decision more', id: 'decision', 'data-decision': 'needs_more' },
      `Needs more: ${why}. An intent without a plan_id is refused (422); pick a plan below or refine the task.`)
    : h('p', { class: 'decision auto', id: 'decision', 'data-decision': 'auto_run' },
      `Auto-run: confidence ${confidence.toFixed(3)} ≥ threshold ${threshold}; an intent runs the top plan.`);
}

async function main() {
  const task = h('textarea', { id: 'task', 'aria-label': 'task', placeholder: 'Describe the task, as an agent would…' }, new URLSearchParams(location.search).get('task') ?? '');
  const result = h('div', { id: 'result' });
  const inputs = h('textarea', { id: 'explore-inputs', 'aria-label': 'run inputs (JSON)' }, '{}');

  const run = async (planId) => {
    try {
      const body = { task_descriptor: task.value.trim(), inputs: JSON.parse(inputs.value || '{}'), ...(planId && { plan_id: planId }) };
      const started = await api('/v1/intents', { method: 'POST', body });
      location.href = `/ui/runs/${encodeURIComponent(started.workflow_id)}`;
    } catch (err) {
      result.prepend(errorBox(err));
    }
  };

  const rank = async (event) => {
    event?.preventDefault();
    if (!task.value.trim()) return;
    history.replaceState(null, '', `?task=${encodeURIComponent(task.value.trim())}`);
    try {
      const trust = await ownTrust();
      const answer = await api('/v1/retrieve', { method: 'POST', body: { task_descriptor: task.value.trim(), trust, limit: 20 } });
      const rows = answer.candidates.map((c, i) => {
        const p = c.redacted ? undefined : c.record.payload;
        return h('tr', { 'data-plan': c.record.id, class: c.redacted ? 'redacted' : undefined },
          h('td', { class: 'num' }, String(i + 1)),
          h('td', {}, p ? h('a', { href: `/ui/plans/${c.record.id}` }, p.intent) : h('span', { class: 'muted' }, `redacted ${c.record.sensitivity} plan`)),
          h('td', { class: 'num' }, pct(c.score)),
          h('td', { class: 'num' }, pct(c.signals.applicability)),
          h('td', { class: 'num' }, pct(c.signals.lexical)),
          h('td', { class: 'num' }, pct(c.signals.alignment ?? c.signals.cosine)),
          h('td', { class: 'num' }, pct(c.signals.alias)),
          h('td', { class: 'num' }, pct(c.signals.success_rate)),
          h('td', { class: 'num' }, pct(c.signals.recency)),
          h('td', {}, p ? h('button', { type: 'button', onclick: () => run(c.record.id) }, 'Run') : ''),
        );
      });
      result.replaceChildren(...[
        h('p', { class: 'muted', id: 'how' }, `Selection mode ${answer.selection.mode ?? 'calibrated'}: ${HOW[answer.selection.mode ?? 'calibrated'] ?? ''}`),
        decision(answer.selection),
        answer.selection.needs_more ? null : h('button', { type: 'button', id: 'run-best', onclick: () => run() }, 'Run the selection'),
        h('div', { class: 'table-wrap' }, h('table', { id: 'candidates', class: 'signals' },
          h('thead', {}, h('tr', {}, ['#', 'Plan', 'Score', 'Applicability', 'Lexical', 'Alignment', 'Alias', 'Success rate', 'Recency', ''].map((t) => h('th', {}, t)))),
          h('tbody', {}, rows))),
        rows.length ? null : h('p', { class: 'muted' }, 'No plan visible to this key matches.'),
      ].filter(Boolean));
    } catch (err) {
      result.replaceChildren(errorBox(err));
    }
  };

  show(
    h('h1', {}, 'Selection explorer'),
    h('p', { class: 'muted' }, 'Ranks the stored plans for a task exactly as an intent would, under this key’s trust, with every signal behind each score; the top plan runs on its own only when the confidence reaches the threshold. Redacted plans are listed but never selected.'),
    h('form', { id: 'explore-form', onsubmit: rank }, task, h('details', {}, h('summary', {}, 'Run inputs (JSON)'), inputs), h('button', { type: 'submit' }, 'Rank plans')),
    result,
  );
  if (task.value) await rank();
}

main();
