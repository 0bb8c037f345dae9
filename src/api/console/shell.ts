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
  const nav = (['runs', 'plans', 'explore'] as const)
    .map((p) => `<a href="/ui/${p}"${page.startsWith(p.slice(0, 3)) ? ' aria-current="page"' : ''}>${TITLES[p]}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(TITLES[page])}${subject ? ` ${escapeHtml(subject)}` : ''} · plangraph</title>
<link rel="stylesheet" href="/ui/assets/console.css">
<link rel="icon" href="data:,">
</head>
<body data-page="${page}" data-subject="${escapeHtml(subject)}">
<header class="top">
  <a class="brand" href="/ui">plangraph</a>
  <nav>${nav}</nav>
  <form id="key-form" class="key" autocomplete="off">
    <span id="key-who" class="who">anonymous: public records only</span>
    <input id="key-input" type="password" placeholder="API key" aria-label="API key">
    <button type="submit">Use key</button>
    <button type="button" id="key-clear">Forget</button>
  </form>
</header>
<main id="main"><p class="muted">Loading…</p></main>
<script type="module" src="/ui/assets/${page}-page.js"></script>
</body>
</html>`;
}
