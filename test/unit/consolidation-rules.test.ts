import { describe, expect, it } from 'vitest';
import {
  competencePayload,
  groupCompetenceSources,
  maxSensitivity,
  MIXED_SCOPE,
  sharedScope,
  toolSignature,
} from '../../src/consolidation/competence-rules';
import { convertedPlanIssues, executionSample, inferIntent, planFromEpisode, timelineSpanMs } from '../../src/consolidation/episode-to-plan';
import { checkLine } from '../../src/consolidation/ingest-episodes';
import { generateEpisodes } from '../../src/consolidation/generate-episodes';
import { parseEpisode } from '../../src/store/episodes';
import { episodicPayloadSchema, type EpisodicPayload } from '../../src/domain/records';

const episode = (over: Partial<EpisodicPayload> = {}): EpisodicPayload =>
  episodicPayloadSchema.parse({
    kind: 'episodic',
    timeline: [
      { t: '2025-01-01T00:00:00.000Z', event_kind: 'setup_project' },
      { t: '2025-01-01T00:00:02.500Z', event_kind: 'install_deps' },
    ],
    tool_graph: [
      { id: 'n1', tool: 'git_init', args: { path: './' } },
      { id: 'n2', tool: 'npm_install', depends_on: ['n1'] },
      { id: 'n3', tool: 'npm_build', depends_on: ['n2'] },
    ],
    outcome: 'success',
    ...over,
  });

describe('episode → plan graph', () => {
  it('maps tool nodes to plan nodes and depends_on to control edges', () => {
    const plan = planFromEpisode(episode(), 'p1', '2025-01-02T00:00:00.000Z');
    expect(plan.nodes).toEqual([
      { id: 'n1', op: 'git_init', params: { path: './' }, guards: {} },
      { id: 'n2', op: 'npm_install', params: {}, guards: {} },
      { id: 'n3', op: 'npm_build', params: {}, guards: {} },
    ]);
    expect(plan.edges).toEqual([
      { from: 'n1', to: 'n2', kind: 'control' },
      { from: 'n2', to: 'n3', kind: 'control' },
    ]);
    expect(plan).toMatchObject({ plan_id: 'p1', version: '1', intent: 'setup_project' });
    expect(plan.metrics).toEqual({ execution_count: 1, failure_rate: 0, avg_latency_ms: 2500, last_executed_at: '2025-01-02T00:00:00.000Z' });
    expect(convertedPlanIssues(plan)).toEqual([]);
  });

  it('takes the first non-empty event kind as intent, else "unknown"', () => {
    const none = { tool_graph: [] };
    expect(inferIntent({ ...none, timeline: [{ t: 0, event_kind: '' }, { t: 1, event_kind: '  ' }, { t: 2, event_kind: 'build' }] })).toBe('build');
    expect(inferIntent({ ...none, timeline: [{ t: 0, event_kind: ' ' }] })).toBe('unknown');
    expect(inferIntent({ ...none, timeline: [] })).toBe('unknown');
  });

  it('names a plan after its task, not after the turns of a chat log, else after its tools', () => {
    const tools = [
      { id: 'a', tool: 'fetch_page', args: {}, depends_on: [] },
      { id: 'b', tool: 'summarize_text', args: {}, depends_on: [] },
      { id: 'c', tool: 'fetch_page', args: {}, depends_on: [] },
    ];
    const kinds = (...k: string[]) => k.map((event_kind, t) => ({ t, event_kind }));
    expect(inferIntent({ tool_graph: tools, timeline: kinds('user_message', 'assistant_message', 'tool_call', 'summarise_article') })).toBe('summarise_article');
    expect(inferIntent({ tool_graph: tools, timeline: kinds('User Message', 'assistant', 'tool-result', 'observation', 'message') })).toBe('fetch_page_summarize_text');
    expect(inferIntent({ tool_graph: [], timeline: kinds('user_message') })).toBe('unknown');
    // Markers of a task given or ended say that there was a task, not which: passed over too.
    expect(inferIntent({ tool_graph: tools, timeline: kinds('user_request', 'task', 'newTask', 'Task-Completed', 'goal', 'prompt', 'final_answer') })).toBe('fetch_page_summarize_text');
    expect(inferIntent({ tool_graph: tools, timeline: kinds('user_request', 'rotate_tls_certificates', 'done') })).toBe('rotate_tls_certificates');
    expect(inferIntent({ tool_graph: tools, timeline: kinds('***', 'deploy_request') })).toBe('deploy_request');
    // Task-like kinds that merely contain a role word still name the plan.
    expect(inferIntent({ tool_graph: tools, timeline: kinds('user_onboarding') })).toBe('user_onboarding');
    expect(inferIntent({ tool_graph: tools, timeline: kinds('setup_project') })).toBe('setup_project');
  });

  it('names a plan from its task, not from the steps an agent reported once given it; a trigger in the past tense names it', () => {
    const episode = (kinds: string[]) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 0, event_kind: kinds[0], summary: 'roll back pricing-engine in prod-eu to the previous revision' }, ...kinds.slice(1).map((event_kind, t) => ({ t: t + 1, event_kind, summary: 'ok' }))],
        tool_graph: ['k8s_get_pods', 'k8s_rollout_undo', 'slack_post'].map((tool, i) => ({ id: `s${i}`, tool, args: {}, depends_on: i > 0 ? [`s${i - 1}`] : [] })),
        outcome: 'success',
      });
    const reported = episode(['user_request', 'pods_listed', 'deployment_rolled_back', 'channel_notified', 'task_completed']);
    expect(planFromEpisode(reported, 'p', '').intent).toBe('roll_back_pricing');
    // Without the task at hand, the first step still names it, as it named such plans before.
    expect(inferIntent(reported)).toBe('pods_listed');
    expect(planFromEpisode(episode(['page_received', 'alert_acknowledged', 'task_completed']), 'p', '').intent).toBe('page_received');
  });

  it('names an input from a generic arg key by the word the task has for its value', () => {
    const call = (id: string, args: Record<string, unknown>, dep?: string) => ({ id, tool: 'http_request', args, depends_on: dep ? [dep] : [] });
    const plan = planFromEpisode(
      {
        timeline: [{ t: 0, event_kind: 'user_message', summary: 'Refund order 88121 for customer ana@example.com' }],
        tool_graph: [call('a', { url: 'https://shop.example/lookup', body: { key: '88121' } }), call('b', { q: 'ana@example.com' }, 'a'), call('c', { order_id: '88121' }, 'b')],
        outcome: 'success',
      },
      'p1',
      '',
    );
    expect(plan.nodes.map((n) => n.params)).toEqual([
      { url: 'https://shop.example/lookup', body: { key: '{{inputs.order}}' } },
      { q: '{{inputs.customer}}' },
      { order_id: '{{inputs.order}}' },
    ]);
  });

  it('makes a text arg worded like what only this task says an input, not a message repeating the job', () => {
    const issue = (task: string, title: string, note: string) =>
      planFromEpisode(
        {
          timeline: [{ t: 0, event_kind: 'user_message', summary: task }],
          tool_graph: [
            { id: 'a', tool: 'http_request', args: { url: 'https://git.example/repos/acme/api' }, depends_on: [] },
            { id: 'b', tool: 'http_request', args: { url: 'https://git.example/repos/acme/api/issues', body: { title, body: 'Reported via assistant.' } }, depends_on: ['a'] },
            { id: 'c', tool: 'chat_post', args: { text: note }, depends_on: ['b'] },
          ],
          outcome: 'success',
        },
        'p1',
        '',
      );
    const plan = issue('Open an issue in acme/api: login returns 500 when the password has a quote', 'Login returns 500 when password contains a quote', 'Opened the issue about the login error');
    expect(plan.nodes[1]!.params.body).toEqual({ title: '{{inputs.title}}', body: 'Reported via assistant.' });
    expect(plan.inputs_schema).toMatchObject({ properties: { title: { examples: ['Login returns 500 when password contains a quote'] } } });
    expect(plan.nodes[2]!.params).toEqual({ text: 'Opened the issue about the login error' });
  });

  it('reads the values a task states for its issue into URL paths and references, and none from the agent and tool turns', () => {
    const plan = planFromEpisode(
      {
        timeline: [
          { t: 0, event_kind: 'user_message', summary: 'acme/ledger#87 is resolved with #91, please close it' },
          { t: 1, event_kind: 'tool_call', summary: 'http_request PATCH https://git.example/api/repos/acme/ledger/issues/87' },
          { t: 2, event_kind: 'tool_result', summary: '{"state": "closed", "count": 12}' },
        ],
        tool_graph: [
          { id: 'a', tool: 'http_request', args: { method: 'POST', url: 'https://git.example/api/repos/acme/ledger/issues/87/comments', body: { body: 'Fixed by #91. Closing.' } }, depends_on: [] },
          { id: 'b', tool: 'http_request', args: { method: 'PATCH', url: 'https://git.example/api/repos/acme/ledger/issues/87', body: { state: 'closed' } }, depends_on: ['a'] },
          { id: 'c', tool: 'http_request', args: { url: 'https://git.example/api/repos/acme/ledger/issues?per_page=12' }, depends_on: ['b'] },
        ],
        outcome: 'success',
      },
      'p1',
      '',
    );
    expect(plan.nodes.map((n) => n.params)).toEqual([
      { method: 'POST', url: 'https://git.example/api/repos/{{inputs.repo}}/issues/{{inputs.issue}}/comments', body: { body: 'Fixed by #{{inputs.body}}. Closing.' } },
      // The tool call's summary stated the method and the URL: what the agent did, no values a caller sends.
      { method: 'PATCH', url: 'https://git.example/api/repos/{{inputs.repo}}/issues/{{inputs.issue}}', body: { state: 'closed' } },
      { url: 'https://git.example/api/repos/{{inputs.repo}}/issues?per_page=12' },
    ]);
  });

  it('counts a failed episode as a failure and measures latency only from two or more instants', () => {
    expect(executionSample(episode({ outcome: 'failure' }))).toEqual({ successes: 0, failures: 1, latency_ms: 2500 });
    expect(executionSample(episode({ outcome: 'partial', timeline: [{ t: 5, event_kind: 'x' }] }))).toEqual({ successes: 1, failures: 0, latency_ms: undefined });
    expect(timelineSpanMs({ timeline: [{ t: 1000, event_kind: 'a' }, { t: '1970-01-01T00:00:04.000Z', event_kind: 'b' }] })).toBe(3000);
  });

  it('reports a tool graph that is no runnable plan (cycle)', () => {
    const cyclic = episode({
      tool_graph: [
        { id: 'a', tool: 't', args: {}, depends_on: ['c'] },
        { id: 'b', tool: 't', args: {}, depends_on: ['a'] },
        { id: 'c', tool: 't', args: {}, depends_on: ['b'] },
      ],
    });
    expect(convertedPlanIssues(planFromEpisode(cyclic, 'p', 'now')).map((i) => i.code)).toContain('cycle');
  });
});

describe('competence rules', () => {
  it('signs a tool set: trimmed, sorted, joined by +', () => {
    expect(toolSignature([' search ', 'fetch', 'search', ''])).toBe('fetch+search+search');
    expect(toolSignature([])).toBe('');
  });

  it('takes the highest sensitivity and a shared scope, else mixed', () => {
    expect(maxSensitivity(['low', 'hyper', 'medium'])).toBe('hyper');
    expect(sharedScope(['a', 'a'])).toBe('a');
    expect(sharedScope(['a', ''])).toBe(MIXED_SCOPE);
  });

  it('groups two or more episodes with the same signature, whatever the tool order', () => {
    const groups = groupCompetenceSources([
      { id: 'e2', sensitivity: 'low', scope: 's', tools: ['b', 'a'], latency_ms: 10 },
      { id: 'e1', sensitivity: 'high', scope: 's', tools: ['a', 'b'] },
      { id: 'e3', sensitivity: 'public', scope: 's', tools: ['c', 'a'] },
      { id: 'e4', sensitivity: 'public', scope: 's', tools: [] },
      { id: 'e5', sensitivity: 'public', scope: 's', tools: [' '] },
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ signature: 'a+b', skill_name: 'skill:a+b', episode_ids: ['e1', 'e2'], sensitivity: 'high', scope: 's' });
    const payload = competencePayload(groups[0]!, 'now');
    expect(payload).toMatchObject({ skill_name: 'skill:a+b', required_tools: ['a', 'b'], recipe: [{ step: 1, tool: 'a' }, { step: 2, tool: 'b' }] });
    expect(payload.performance).toEqual({ success_count: 2, failure_count: 0, success_rate: 1, avg_latency_ms: 10, last_used_at: 'now' });
  });
});

describe('episode input', () => {
  it('names the field of every schema problem', () => {
    const result = parseEpisode({ sensitivity: 'secret', payload: { kind: 'episodic', outcome: 'maybe', tool_graph: [{ id: 'a' }] } }, 'body');
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.problems.map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(['body.sensitivity', 'body.payload.outcome', 'body.payload.tool_graph[0].tool']));
  });

  it('refuses duplicate tool ids and dependencies on missing tools', () => {
    const result = parseEpisode({
      payload: { kind: 'episodic', outcome: 'success', tool_graph: [{ id: 'a', tool: 't' }, { id: 'a', tool: 't', depends_on: ['zz'] }] },
    });
    expect(result.ok ? [] : result.problems.map((p) => p.field)).toEqual(['payload.tool_graph[1].id', 'payload.tool_graph[1].depends_on[0]']);
  });

  it('refuses a call that waits on itself, directly or through others', () => {
    const problems = (tool_graph: unknown[]) => {
      const result = parseEpisode({ payload: { kind: 'episodic', outcome: 'success', tool_graph } });
      return result.ok ? [] : result.problems;
    };
    expect(problems([{ id: 'a', tool: 't', depends_on: ['a'] }, { id: 'b', tool: 't' }])).toEqual([
      { field: 'payload.tool_graph[0].depends_on[0]', message: 'a call cannot wait on itself' },
    ]);
    expect(problems([{ id: 'c', tool: 't' }, { id: 'a', tool: 't', depends_on: ['b'] }, { id: 'b', tool: 't', depends_on: ['a', 'c'] }])).toEqual([
      { field: 'payload.tool_graph[1].depends_on', message: 'a call cannot wait on itself: cycle through a -> b -> a' },
    ]);
    expect(problems([{ id: 'a', tool: 't' }, { id: 'b', tool: 't', depends_on: ['a'] }, { id: 'c', tool: 't', depends_on: ['a', 'b'] }])).toEqual([]);
  });

  it('classifies JSONL lines: blank, malformed, invalid, valid', () => {
    expect(checkLine('   ', 1)).toBeUndefined();
    expect(checkLine('{oops', 2)).toMatchObject({ rejected: { line: 2, reason: expect.stringMatching(/^malformed JSON/) } });
    expect(checkLine('{"payload":{"kind":"episodic","outcome":"nope"}}', 3)).toMatchObject({
      rejected: { line: 3, reason: expect.stringContaining('payload.outcome') },
    });
    expect(checkLine('{"payload":{"kind":"episodic","outcome":"success"}}', 4)).toHaveProperty('episode');
    // An integer JSON.parse would round is refused, not stored changed; inside a string it is text.
    expect(checkLine('{"payload":{"kind":"episodic","outcome":"success","environment":{"id":12345678901234567890}}}', 5)).toMatchObject({
      rejected: { line: 5, reason: expect.stringContaining('holds the integer 12345678901234567890') },
    });
    expect(checkLine('{"payload":{"kind":"episodic","outcome":"success","environment":{"id":"12345678901234567890","n":-9007199254740991,"exact":100000000000000000000,"shortest":-522209890832124200,"x":1e300}}}', 6)).toHaveProperty('episode');
  });

  it('generates valid, reproducible episodes', () => {
    const a = generateEpisodes({ count: 50, seed: 7 });
    expect(a).toEqual(generateEpisodes({ count: 50, seed: 7 }));
    for (const e of a) expect(parseEpisode(e).ok).toBe(true);
    expect(a.some((e) => e.payload.tool_graph.length < 3) && a.some((e) => e.payload.tool_graph.length >= 3)).toBe(true);
  });
});
