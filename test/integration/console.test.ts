/**
 * The web console at /ui, driven in a real headless Chromium against the real API, Temporal
 * and Postgres: live run page, failed and skipped nodes, trust rules, plan page, phone width.
 * With CONSOLE_SCREENSHOTS=docs the run and plan pages are saved as docs/console-*.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTestContext, type ApiTestContext } from './api-harness';
import { launchBrowser, type Browser } from './browser';
import { uid } from './harness';
import { storePlan, type PlanSpec } from './plans';

let ctx: ApiTestContext;
let browser: Browser;
let base: string;
let lowKey: string;
const screenshotDir = process.env.CONSOLE_SCREENSHOTS;

beforeAll(async () => {
  ctx = await createApiTestContext();
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
  lowKey = await ctx.key(uid('viewer'), 'low');
});
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

/** A page signed in with `key` the way a user does it: typed into the key box once. */
async function openAs(key: string | undefined, path: string, page?: Page): Promise<Page> {
  const tab = page ?? (await browser.context.newPage());
  await tab.goto(`${base}${path}`);
  if (key) {
    await tab.fill('#key-input', key);
    await Promise.all([tab.waitForEvent('load'), tab.click('#key-form button[type=submit]')]);
  }
  return tab;
}

const nodeState = (page: Page, id: string) => page.locator(`[data-node="${id}"]`).getAttribute('data-state');
const nodeFill = (page: Page, id: string) => page.locator(`[data-node="${id}"] rect`).evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string } }).getComputedStyle(el).fill);

/** Starts a run of `planId` through the API as `key`. */
async function startRun(planId: string, key: string): Promise<string> {
  const response = await ctx.call('POST', '/v1/intents', { task_descriptor: 'console test', plan_id: planId }, key);
  expect(response.statusCode, response.body).toBe(202);
  return response.json().workflow_id as string;
}

/** prepare → slow (data) → boom (fails) → after (data: skipped); slow → tidy (control). */
const branchingPlan = (intent: string): PlanSpec => ({
  intent,
  constraints: { failure_policy: 'continue' },
  nodes: [
    { id: 'prepare', op: 'echo', params: { greeting: 'hello' } },
    { id: 'slow', op: 'sleep', params: { ms: 2500 } },
    { id: 'boom', op: 'fail', params: { type: 'upstream_down', message: 'the upstream service is down after {{nodes.slow.output.slept_ms}} ms' } },
    { id: 'after', op: 'echo', params: { got: '{{nodes.boom.output}}' } },
    { id: 'tidy', op: 'noop' },
  ],
  edges: [
    { from: 'prepare', to: 'slow', kind: 'data' },
    { from: 'slow', to: 'boom', kind: 'data' },
    { from: 'boom', to: 'after', kind: 'data' },
    { from: 'slow', to: 'tidy', kind: 'control' },
  ],
});

describe('run page', () => {
  it('follows a running plan to its end: colours change live, the failed node’s error and the skipped branch are shown', async () => {
    const plan = await storePlan(ctx.services.records, branchingPlan(uid('console run')));
    await ctx.withWorker(async () => {
      const workflowId = await startRun(plan.id, lowKey);
      const page = await openAs(lowKey, `/ui/runs/${workflowId}`);
      await page.waitForSelector('[data-node="slow"][data-state="running"]', { timeout: 20_000 });
      const runningFill = await nodeFill(page, 'slow');
      expect(await nodeState(page, 'boom')).toBe('pending');
      expect(await page.locator('#cancel').isVisible()).toBe(true);

      await page.waitForSelector('body[data-run-state="failed"]', { timeout: 30_000 });
      expect(await nodeState(page, 'slow')).toBe('succeeded');
      expect(await nodeFill(page, 'slow')).not.toBe(runningFill);
      expect(await nodeState(page, 'boom')).toBe('failed');
      expect(await nodeState(page, 'after')).toBe('skipped');
      expect(await nodeState(page, 'tidy')).toBe('succeeded');
      expect(await page.locator('#cancel').count()).toBe(0);
      expect(await page.locator('#temporal-link').getAttribute('href')).toContain(`/workflows/${workflowId}/`);

      await page.click('[data-node="prepare"]');
      await expect.poll(() => page.locator('#node-output').textContent()).toContain('hello');
      await page.click('[data-node="after"]');
      await expect.poll(() => page.locator('#node-reason').textContent()).toContain('data predecessor "boom" failed');
      await page.click('[data-node="boom"]');
      await expect.poll(() => page.locator('#node-error').textContent()).toMatch(/the upstream service is down after \d+ ms/);
      expect(await page.locator('#node-error').textContent()).toContain('upstream_down');
      // Params as the executor resolved them: the template filled from slow's output.
      await expect.poll(() => page.locator('#node-params').textContent()).toMatch(/down after \d+ ms/);
      expect(await page.locator('#node-params').textContent()).not.toContain('{{');
      if (screenshotDir) await page.screenshot({ path: join(screenshotDir, 'console-run.png') });
      await page.close();
    });
  });
});

describe('cancel', () => {
  it('a caller who may see the run cancels it from the page; running and pending nodes end cancelled', async () => {
    const plan = await storePlan(ctx.services.records, {
      intent: uid('console cancel'),
      nodes: [{ id: 'wait', op: 'sleep', params: { ms: 60_000 } }, { id: 'then', op: 'noop' }],
      edges: [{ from: 'wait', to: 'then', kind: 'control' }],
    });
    await ctx.withWorker(async () => {
      const workflowId = await startRun(plan.id, lowKey);
      const page = await openAs(lowKey, `/ui/runs/${workflowId}`);
      await page.waitForSelector('[data-node="wait"][data-state="running"]', { timeout: 20_000 });
      // Cancelling asks first; a dismissed question cancels nothing.
      page.once('dialog', (dialog) => void dialog.dismiss());
      await page.click('#cancel');
      expect(await page.locator('#cancel').isDisabled()).toBe(false);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('#cancel');
      await page.waitForSelector('body[data-run-state="cancelled"]', { timeout: 30_000 });
      expect(await nodeState(page, 'wait')).toBe('cancelled');
      expect(await nodeState(page, 'then')).toBe('cancelled');
      // A cancelled run can be resumed from its page: the new run's page names the run it resumes.
      await Promise.all([page.waitForURL((url) => url.pathname !== `/ui/runs/${encodeURIComponent(workflowId)}`, { timeout: 20_000 }), page.click('#resume')]);
      await page.waitForSelector('#resumed-from', { timeout: 20_000 });
      expect(await page.locator('#resumed-from').textContent()).toBe(workflowId);
      // The resumed run sleeps its minute again: cancelled here, so no worker after this one waits on it.
      const resumed = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
      expect((await ctx.call('POST', `/v1/runs/${resumed}/cancel`, {}, lowKey)).statusCode).toBe(202);
      await page.close();
    });
  });
});

describe('approvals', () => {
  it('shows what a run waits for with its prompt filled in, and approving from the page lets it finish', async () => {
    const plan = await storePlan(ctx.services.records, {
      intent: uid('console approval'),
      nodes: [
        { id: 'build', op: 'echo', params: { tag: 'billing-v42' } },
        { id: 'go', op: 'approval', params: { prompt: 'Deploy {{nodes.build.output.tag}} to production?' } },
        { id: 'deploy', op: 'noop' },
      ],
      edges: [{ from: 'build', to: 'go', kind: 'data' }, { from: 'go', to: 'deploy', kind: 'control' }],
    });
    await ctx.withWorker(async () => {
      const workflowId = await startRun(plan.id, lowKey);
      const page = await openAs(lowKey, `/ui/runs/${workflowId}`);
      await page.waitForSelector('#waits [data-wait="go"]', { timeout: 20_000 });
      expect(await page.locator('#waits [data-wait="go"]').textContent()).toContain('Deploy billing-v42 to production?');
      await page.click('#waits [data-wait="go"] button.approve');
      await page.waitForSelector('body[data-run-state="succeeded"]', { timeout: 30_000 });
      expect(await nodeState(page, 'deploy')).toBe('succeeded');
      expect(await page.locator('#waits').count()).toBe(0);
      await page.close();
    });
  });
});

describe('trust', () => {
  it('a low key never sees a high plan or its runs; anonymous sees public plans only', async () => {
    const scope = uid('trust');
    const high = await storePlan(ctx.services.records, { intent: `secret ${scope}`, sensitivity: 'high', nodes: [{ id: 'a', op: 'noop' }] });
    const medium = await storePlan(ctx.services.records, { intent: `internal ${scope}`, sensitivity: 'medium', nodes: [{ id: 'a', op: 'noop' }] });
    const publicPlan = await storePlan(ctx.services.records, { intent: `open ${scope}`, sensitivity: 'public', nodes: [{ id: 'a', op: 'noop' }] });
    const lowPlan = await storePlan(ctx.services.records, { intent: `team ${scope}`, sensitivity: 'low', nodes: [{ id: 'a', op: 'noop' }] });
    const highKey = await ctx.key(uid('admin'), 'high');
    const highRun = await ctx.withWorker(async () => {
      const id = await startRun(high.id, highKey);
      await ctx.services.temporal.client.workflow.getHandle(id).result();
      return id;
    });

    const low = await openAs(lowKey, '/ui/plans');
    await low.waitForSelector('#plans tbody tr');
    const lowList = await low.locator('#plans').textContent();
    expect(lowList).toContain(`team ${scope}`);
    expect(lowList).not.toContain(`secret ${scope}`);
    expect(await low.locator(`[data-plan="${high.id}"]`).count()).toBe(0);
    // One level above the clearance: listed, but redacted.
    expect(await low.locator(`[data-plan="${medium.id}"]`).textContent()).toContain('redacted medium plan');
    expect(lowList).not.toContain(`internal ${scope}`);

    await low.goto(`${base}/ui/plans/${high.id}`);
    await expect.poll(() => low.locator('main .error').textContent()).toContain('not_found');
    expect(await low.locator('main').textContent()).not.toContain('secret');
    await low.goto(`${base}/ui/runs/${highRun}`);
    await expect.poll(() => low.locator('main .error').textContent()).toContain('not_found');
    expect(await low.locator('#graph').count()).toBe(0);
    await low.goto(`${base}/ui/runs?plan_id=${high.id}`);
    await expect.poll(() => low.locator('main').textContent()).toContain('No runs match');
    await low.goto(`${base}/ui/explore?task=${encodeURIComponent(`secret ${scope}`)}`);
    await low.waitForSelector('#decision');
    expect(await low.locator(`#candidates [data-plan="${high.id}"]`).count()).toBe(0);

    // The same pages under the high key do show it.
    const admin = await openAs(highKey, `/ui/runs/${highRun}`);
    await admin.waitForSelector('body[data-run-state="succeeded"]');
    await admin.goto(`${base}/ui/plans/${high.id}`);
    await expect.poll(() => admin.locator('h1').textContent()).toContain(`secret ${scope}`);

    const anonymous = await openAs(undefined, '/ui/plans');
    await anonymous.waitForSelector('#plans tbody tr');
    expect(await anonymous.locator('#key-who').textContent()).toContain('anonymous');
    const anonList = await anonymous.locator('#plans').textContent();
    expect(anonList).toContain(`open ${scope}`);
    expect(anonList).not.toContain(`team ${scope}`);
    expect(anonList).not.toContain(`internal ${scope}`);
    expect(await anonymous.locator(`[data-plan="${lowPlan.id}"]`).textContent()).toContain('redacted low plan');
    expect(await anonymous.locator(`[data-plan="${publicPlan.id}"] a`).count()).toBe(1);
    for (const page of [low, admin, anonymous]) await page.close();
  });
});

describe('plan page and selection explorer', () => {
  it('shows the graph, metrics and the recent runs chart; the explorer ranks with signals and starts a run', async () => {
    const intent = uid('summarise the weekly sales report');
    const plan = await storePlan(ctx.services.records, branchingPlan(intent));
    const page = await ctx.withWorker(async () => {
      for (let i = 0; i < 2; i++) {
        const id = await startRun(plan.id, lowKey);
        await ctx.services.temporal.client.workflow.getHandle(id).result().catch(() => undefined);
      }
      const tab = await openAs(lowKey, `/ui/plans/${plan.id}`);
      await tab.waitForSelector('#graph svg [data-node="boom"]');
      expect(await tab.locator('#metric-count b').textContent()).toBe('2');
      expect(await tab.locator('#metric-failure b').textContent()).toBe('100%');
      // What the run form takes, from the plan's inputs_schema (this plan takes none).
      expect(await tab.locator('#run-form').textContent()).toContain('This plan takes no inputs.');
      expect(await tab.locator('#run-chart rect[data-state="failed"]').count()).toBe(2);
      expect(await tab.locator('.edge-control').count()).toBe(1);
      expect(await tab.locator('.edge-data').count()).toBe(3);
      await tab.click('[data-node="boom"]');
      await expect.poll(() => tab.locator('#node-panel').textContent()).toContain('upstream_down');
      if (screenshotDir) await tab.screenshot({ path: join(screenshotDir, 'console-plan.png'), fullPage: true });

      await tab.goto(`${base}/ui/explore?task=${encodeURIComponent(intent)}`);
      await tab.waitForSelector(`#candidates [data-plan="${plan.id}"]`);
      expect(await tab.locator('#decision').getAttribute('data-decision')).toMatch(/^(auto_run|needs_more)$/);
      const cells = await tab.locator(`#candidates [data-plan="${plan.id}"] td`).allTextContents();
      expect(cells.slice(2, 9).every((c) => c === '—' || /^\d\.\d{3}$/.test(c))).toBe(true);
      // The explanation is the mode the server runs (calibrated by default), not another one's formula.
      expect(await tab.locator('#how').textContent()).toMatch(/^Selection mode calibrated: .*0\.6 · lexical \+ 0\.4 · alignment/);
      await Promise.all([tab.waitForURL(/\/ui\/runs\//), tab.locator(`#candidates [data-plan="${plan.id}"] button`).click()]);
      await tab.waitForSelector('body[data-run-state="failed"]', { timeout: 30_000 });
      return tab;
    });
    await page.goto(`${base}/ui/runs?plan_id=${plan.id}&state=failed`);
    await page.waitForSelector('#runs tbody tr');
    expect(await page.locator('#runs tbody tr').count()).toBe(3);
    await page.close();
  });
});

describe('scale and small screens', () => {
  it('lays out a 1,000-node plan and stays usable; the run page fits a phone-width screen', async () => {
    const nodes = Array.from({ length: 1000 }, (_, i) => ({ id: `n${i}`, op: 'noop' }));
    // Ten parallel lanes of 100 steps, with a cross-link every tenth step: a wide, deep plan.
    const edges = nodes.flatMap((node, i) => {
      const out: Array<{ from: string; to: string; kind: 'data' | 'control' }> = [];
      if (i >= 10) out.push({ from: `n${i - 10}`, to: node.id, kind: 'control' });
      if (i >= 10 && i % 10 === 0) out.push({ from: `n${i - 9}`, to: node.id, kind: 'data' });
      return out;
    });
    const big = await storePlan(ctx.services.records, { intent: uid('thousand nodes'), nodes, edges });
    const page = await openAs(lowKey, `/ui/plans/${big.id}`);
    await page.waitForSelector('#layout-time[data-layout-ms]', { timeout: 60_000 });
    const layoutMs = Number(await page.locator('#layout-time').getAttribute('data-layout-ms'));
    console.log(`console: 1,000-node plan laid out in ${layoutMs} ms`);
    expect(await page.locator('#graph [data-node]').count()).toBe(1000);
    // Still responsive: a click selects a node and fills the panel.
    await page.click('[data-node="n0"]', { force: true });
    await expect.poll(() => page.locator('#node-panel h2').textContent()).toBe('n0');
    await page.close();

    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    const plan = await storePlan(ctx.services.records, branchingPlan(uid('phone')));
    await ctx.withWorker(async () => {
      const id = await startRun(plan.id, lowKey);
      await openAs(lowKey, `/ui/runs/${id}`, phone);
      await phone.waitForSelector('body[data-run-state="failed"]', { timeout: 30_000 });
    });
    const widths = await phone.evaluate(() => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
      return { scroll: doc.documentElement.scrollWidth, client: doc.documentElement.clientWidth };
    });
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const graph = await phone.locator('#graph').boundingBox();
    const panel = await phone.locator('#node-panel').boundingBox();
    expect(panel!.y).toBeGreaterThanOrEqual(graph!.y + graph!.height);
    await phone.close();
  });
});
