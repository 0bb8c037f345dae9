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
    { id: 'boom', op: 'fail', params: { type: 'upstream_down', message: 'the upstream service is down' } },
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

      await page.click('[data-node="boom"]');
      await expect.poll(() => page.locator('#node-error').textContent()).toContain('the upstream service is down');
      expect(await page.locator('#node-error').textContent()).toContain('upstream_down');
      await page.click('[data-node="after"]');
      await expect.poll(() => page.locator('#node-reason').textContent()).toContain('data predecessor "boom" failed');
      await page.click('[data-node="prepare"]');
      await expect.poll(() => page.locator('#node-output').textContent()).toContain('hello');
      if (screenshotDir) await page.screenshot({ path: join(screenshotDir, 'console-run.png') });
      await page.close();
    });
  });
});
