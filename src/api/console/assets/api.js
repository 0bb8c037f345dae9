// The console's link to the API: the key kept in this browser session, JSON calls that carry it
// exactly as any API client would, and the small DOM helpers every page uses.

const KEY_ITEM = 'plangraph.apiKey';

/** The API key entered on this tab (sessionStorage: gone when the browser session ends). */
export const apiKey = () => sessionStorage.getItem(KEY_ITEM) ?? '';

/** An API failure, with the API's error code, message and details. */
export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Calls the API as the session's key (anonymous without one); resolves to the JSON body. */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { accept: 'application/json' };
  if (apiKey()) headers.authorization = `Bearer ${apiKey()}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, json.error?.code ?? 'error', json.error?.message ?? response.statusText, json.error?.details);
  return json;
}

/** Builds an element: h('a', { href }, 'text', child…). Text is always set as text, never as HTML. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces the page body with the given nodes. */
export function show(...nodes) {
  document.getElementById('main').replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined && n !== false));
}

/**
 * An error box naming what failed; 404 under a key tells the user the key may not see it. The
 * details that say what to change come with it: each input problem, and the inputs to send.
 */
export function errorBox(err) {
  const hint = err.status === 404 ? ' (or this key may not see it)' : '';
  const details = err.details ?? {};
  const problems = [...(details.problems ?? []), ...(details.fields ?? []).map((f) => `${f.field}: ${f.message}`)];
  return h('div', { class: 'error', role: 'alert' },
    h('p', {}, `${err.code ?? 'error'}: ${err.message}${hint}`),
    problems.length ? h('ul', {}, problems.map((p) => h('li', {}, typeof p === 'string' ? p : JSON.stringify(p)))) : null,
    details.missing_inputs?.length ? h('p', {}, `Required inputs the task does not state: ${details.missing_inputs.join(', ')}`) : null,
    details.suggested_inputs ? h('p', {}, 'Suggested inputs: ', h('code', {}, JSON.stringify(details.suggested_inputs))) : null,
  );
}

export const fmtTime = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
export function fmtMs(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}
export const durationMs = (from, to) => (from && to ? new Date(to).getTime() - new Date(from).getTime() : null);

/** JSON in a <pre>, for params, outputs and errors. */
export const jsonBlock = (value) => h('pre', { class: 'json' }, value === undefined ? '—' : JSON.stringify(value, null, 2));

/** Fits a graph box to its graph: no taller than the graph needs, at most 62% of the window. */
export function fitGraphBox(box, layout) {
  box.style.height = `${Math.round(Math.max(180, Math.min(window.innerHeight * 0.62, layout.height + 48)))}px`;
}

/** A state badge, coloured like the graph's nodes. */
export const badge = (state) => h('span', { class: `badge state-${state}` }, state);

let principal;
/** The principal the session's key names (GET /v1/whoami), fetched once per page. */
export function whoami() {
  principal ??= api('/v1/whoami');
  return principal;
}

/** The trust a request runs under: exactly the key's own (the API refuses anything wider). */
export async function ownTrust() {
  const me = await whoami();
  return { max_sensitivity: me.max_sensitivity, authenticated: me.authenticated, ...(me.scopes && { scopes: me.scopes }) };
}

function wireKeyForm() {
  const form = document.getElementById('key-form');
  const input = document.getElementById('key-input');
  const who = document.getElementById('key-who');
  whoami().then(
    (me) => (who.textContent = me.authenticated ? `${me.name} · clearance ${me.max_sensitivity}` : 'anonymous: public records only'),
    (err) => (who.textContent = `key refused: ${err.message}`),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!input.value.trim()) return;
    sessionStorage.setItem(KEY_ITEM, input.value.trim());
    location.reload();
  });
  document.getElementById('key-clear').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_ITEM);
    location.reload();
  });
}

/** The page's subject (a workflow id or a plan id) as the server put it in the shell. */
export const subject = () => document.body.dataset.subject ?? '';

wireKeyForm();
