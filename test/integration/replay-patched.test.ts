/**
 * The patched() guard, proven by replay (docs/workflow-changes.md): a step added to workflow
 * code breaks replay of a run recorded before it, unless the step sits behind patched().
 * Fixture: test/fixtures/workflows/greeting-*.ts and the histories recorded from v1 and v2.
 */
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readHistoryFile, type History } from '../../src/replay/history-file';
import { installQuietReplayRuntime, loadWorkflowBundle, replayWorkflowHistory, type WorkflowSource } from '../../src/replay/replay';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/workflows');
const VERSIONS = ['greeting-v1', 'greeting-v2-unpatched', 'greeting-v2-patched', 'greeting-v3-deprecated'] as const;

const code = {} as Record<(typeof VERSIONS)[number], WorkflowSource>;
let v1History: History;
let v2History: History;

beforeAll(async () => {
  installQuietReplayRuntime(); // the failures Core would log are the point of this test
  for (const version of VERSIONS) code[version] = { workflowBundle: await loadWorkflowBundle({ workflowsPath: join(FIXTURES, `${version}.ts`) }) };
  v1History = await readHistoryFile(join(FIXTURES, 'greeting-v1.history.json'));
  v2History = await readHistoryFile(join(FIXTURES, 'greeting-v2-patched.history.json'));
});

describe('changing workflow code safely with patched()', () => {
  it('replays the v1 history against the v1 code it was recorded with', async () => {
    expect(await replayWorkflowHistory(v1History, code['greeting-v1'])).toMatchObject({ ok: true, events: v1History.events!.length });
  });

  it('fails replay of the v1 history when a step is added without a patch, naming the event', async () => {
    const outcome = await replayWorkflowHistory(v1History, code['greeting-v2-unpatched']);
    expect(outcome).toMatchObject({ ok: false, kind: 'nondeterminism', eventId: 5, event: 'ActivityTaskScheduled activity "1" type "greet"' });
    expect(!outcome.ok && outcome.difference).toMatch(/'greet'.*'audit'/);
  });

  it('replays the v1 history when the same step sits behind patched()', async () => {
    expect(await replayWorkflowHistory(v1History, code['greeting-v2-patched'])).toMatchObject({ ok: true });
  });

  it('replays a run recorded on the patched code (which took the new branch)', async () => {
    expect(await replayWorkflowHistory(v2History, code['greeting-v2-patched'])).toMatchObject({ ok: true, events: v2History.events!.length });
  });

  it('keeps patched runs replaying after deprecatePatch(), which old v1 runs no longer do', async () => {
    expect(await replayWorkflowHistory(v2History, code['greeting-v3-deprecated'])).toMatchObject({ ok: true });
    expect(await replayWorkflowHistory(v1History, code['greeting-v3-deprecated'])).toMatchObject({ ok: false, kind: 'nondeterminism', eventId: 5 });
  });

  it('fails a patched run replayed on code without the patch call: the marker is the event', async () => {
    const outcome = await replayWorkflowHistory(v2History, code['greeting-v2-unpatched']);
    expect(outcome).toMatchObject({ ok: false, kind: 'nondeterminism', eventId: 5, event: 'MarkerRecorded "core_patch"' });
    expect(!outcome.ok && outcome.difference).toContain('audit-before-greet');
  });
});
