/**
 * The console's HTML shell, rendered on the server for every /ui page. It carries no data: the
 * client script fetches everything from the /v1 API with the key the user entered, so the
 * console sees exactly what that key sees.
 */

/** The pages of the console; each is one client module under assets/. */
export const CONSOLE_PAGES = ['runs', 'run', 'plans', 'plan', 'explore'] as const;
export type ConsolePage = (typeof CONSOLE_PAGES)[number];

const TITLES: Record<ConsolePage, string> = {
  runs: 'Runs',
  run: 'Run',
  plans: 'Plans',
  plan: 'Plan',
  explore: 'Selection explorer',
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page for one console route; `subject` is the run's workflow id or the plan's id. */
export function renderShell(page: ConsolePage, subject = ''): string {
  const title = `${escapeHtml(TITLES[page])}${subject ? ` ${escapeHtml(subject)}` : ''}`;
  const body = `<body data-page="${page}" data-subject="${escapeHtml(subject)}">`;
  return document(title, page, body, '<p class="muted">Loading…</p>', `<script type="module" src="/ui/assets/${page}-page.js"></script>\n`);
}

/** The page for a /ui path that is no console page: said in the console's own frame, with its navigation. */
export function renderNotFound(path: string): string {
  const main = `<h1>Not found</h1><p>No console page at <code>${escapeHtml(path)}</code>. The console has <a href="/ui/runs">runs</a>, <a href="/ui/plans">plans</a> and the <a href="/ui/explore">selection explorer</a>.</p>`;
  return document('Not found', undefined, '<body data-page="not-found">', main, '');
}

/** The key the console's client uses: on every page with a client script. */
const KEY_FORM = `  <form id="key-form" class="key" autocomplete="off">
    <span id="key-who" class="who">anonymous: public records only</span>
    <input id="key-input" type="password" placeholder="API key" aria-label="API key">
    <button type="submit">Use key</button>
    <button type="button" id="key-clear">Forget</button>
  </form>
`;

function document(title: string, current: ConsolePage | undefined, body: string, main: string, script: string): string {
  const nav = (['runs', 'plans', 'explore'] as const)
    .map((p) => `<a href="/ui/${p}"${current?.startsWith(p.slice(0, 3)) ? ' aria-current="page"' : ''}>${TITLES[p]}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · plangraph</title>
<link rel="stylesheet" href="/ui/assets/console.css">
<link rel="icon" href="data:,">
</head>
${body}
<header class="top">
  <a class="brand" href="/ui">plangraph</a>
  <nav>${nav}</nav>
${current ? KEY_FORM : ''}</header>
<main id="main">${main}</main>
${script}</body>
</html>`;
}
