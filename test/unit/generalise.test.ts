import { describe, expect, it } from 'vitest';
import { opsSentence, planFromEpisode, taskSummary } from '../../src/consolidation/episode-to-plan';
import { antiUnify, generalisationKey, MAX_PLAN_EXAMPLES } from '../../src/consolidation/generalise';
import { episodicPayloadSchema, type EpisodicPayload, type PlanGraphPayload } from '../../src/domain/records';
import { structureKey } from '../../src/domain/structure';
import { parsePlanGraph } from '../../src/domain/graph';
import { inputProblems } from '../../src/runs/run-inputs';

const NOW = '2025-01-02T00:00:00.000Z';

/** One "set up a repository" job, as an agent would record it for one repository and branch. */
function setupEpisode(repo: string, branch: string, over: Partial<EpisodicPayload> = {}): EpisodicPayload {
  const dir = `/work/${repo.split('/').at(-1)}`;
  return episodicPayloadSchema.parse({
    kind: 'episodic',
    timeline: [
      { t: 1000, event_kind: 'setup_project' },
      { t: 1500, event_kind: 'user_request', summary: `Set up ${repo} on branch ${branch} and run its tests` },
      { t: 4000, event_kind: 'done' },
    ],
    tool_graph: [
      { id: 'clone', tool: 'git_clone', args: { url: repo, branch, depth: 1 }, result: { dir, head: `${branch}@abc123` }, timestamp: 1000 },
      { id: 'install', tool: 'npm_install', args: { cwd: dir }, result: { packages: 312 }, depends_on: ['clone'], timestamp: 2000 },
      { id: 'test', tool: 'run_tests', args: { cwd: dir, reporter: 'dot', cmd: `cd ${dir} && npm test` }, depends_on: ['install'], timestamp: 3000 },
    ],
    outcome: 'success',
    ...over,
  });
}

/** A health digest posted for one service to one channel, both named in the task. */
function digestEpisode(service: string, channel: string): EpisodicPayload {
  return episodicPayloadSchema.parse({
    kind: 'episodic',
    timeline: [{ t: 1, event_kind: 'health_digest', summary: `Post the morning health digest for ${service} to ${channel}` }],
    tool_graph: [
      { id: 'check', tool: 'http_request', args: { url: 'http://127.0.0.1:8080/healthz' }, result: { status: 200 } },
      { id: 'post', tool: 'echo', args: { channel, msg: `Health digest for ${service}: platform ok (sent to ${channel})` }, depends_on: ['check'] },
    ],
    outcome: 'success',
  });
}

describe('the agent’s words', () => {
  it('keeps the intent label and takes the description and examples from the task summary', () => {
    const plan = planFromEpisode(setupEpisode('https://git.example/acme/api', 'main'), 'p', NOW);
    expect(plan.intent).toBe('setup_project');
    expect(plan.description).toBe('Set up https://git.example/acme/api on branch main and run its tests');
    expect(plan.examples).toEqual([plan.description]);
  });

  it('falls back to a sentence of op names when no user or goal event has a summary', () => {
    const episode = setupEpisode('https://git.example/acme/api', 'main', { timeline: [{ t: 1, event_kind: 'setup_project', summary: 'step 1' }] });
    expect(taskSummary(episode)).toBeUndefined();
    const plan = planFromEpisode(episode, 'p', NOW);
    expect(plan.description).toBe('Runs git_clone, npm_install then run_tests.');
    expect(plan.examples).toBeUndefined();
    expect(opsSentence(['a', 'a'])).toBe('Runs a.');
  });

  it('takes the task from the summary of the event naming it when no user or goal event has one', () => {
    const timeline = [{ t: 1, event_kind: 'ticket_triage', summary: 'Triage support ticket T-4411 and post it to #support' }];
    const plan = planFromEpisode(setupEpisode('https://git.example/acme/api', 'main', { timeline }), 'p', NOW);
    expect(plan.intent).toBe('ticket_triage');
    expect(plan.description).toBe('Triage support ticket T-4411 and post it to #support');
    expect(plan.examples).toEqual([plan.description]);
  });

  it('never takes the report of how a task went, or a bare acknowledgement, for the task', () => {
    const task = 'Triage support ticket T-4411 and post it to #support';
    const reports: Array<[string, string]> = [['task_completed', 'done'], ['request_failed', 'upstream timed out after 30 s'], ['tool_result', '3 rows'], ['user_message', 'ok, thanks'], ['taskDone', 'finished'], ['final_answer', 'The report was sent to finance']];
    for (const [kind, summary] of reports) {
      const timeline = [{ t: 1, event_kind: 'ticket_triage', summary: task }, { t: 2, event_kind: kind, summary }];
      expect(taskSummary({ timeline }), kind).toBe(task);
    }
    // A request later in the timeline still states the task.
    expect(taskSummary({ timeline: [{ t: 1, event_kind: 'task_completed', summary: 'done' }, { t: 2, event_kind: 'user_request', summary: 'restart billing' }] })).toBe('restart billing');
  });
});

describe('inputs from the task text', () => {
  it('turns args the task states into typed, required inputs, and results into references', () => {
    const plan = planFromEpisode(setupEpisode('https://git.example/acme/api', 'main'), 'p', NOW);
    expect(plan.nodes.map((n) => n.params)).toEqual([
      { url: '{{inputs.url}}', branch: '{{inputs.branch}}', depth: 1 },
      { cwd: '{{nodes.clone.output.dir}}' },
      { cwd: '{{nodes.clone.output.dir}}', reporter: 'dot', cmd: 'cd {{nodes.clone.output.dir}} && npm test' },
    ]);
    expect(plan.inputs_schema).toEqual({
      type: 'object',
      properties: {
        branch: { type: 'string', examples: ['main'] },
        url: { type: 'string', examples: ['https://git.example/acme/api'] },
      },
      required: ['branch', 'url'],
      additionalProperties: false,
    });
    expect(plan.edges).toEqual([
      { from: 'install', to: 'test', kind: 'control' },
      { from: 'clone', to: 'install', kind: 'data' },
      { from: 'clone', to: 'test', kind: 'data' },
    ]);
    expect(parsePlanGraph(plan).ok).toBe(true);
  });

  it('interpolates values the task states inside a longer arg; plain words they share stay text', () => {
    const plan = planFromEpisode(digestEpisode('shipping-api', '#shipping-oncall'), 'p', NOW);
    expect(plan.nodes[1]!.params).toEqual({ channel: '{{inputs.channel}}', msg: 'Health digest for {{inputs.msg}}: platform ok (sent to {{inputs.channel}})' });
    expect(plan.inputs_schema).toMatchObject({ properties: { channel: { examples: ['#shipping-oncall'] }, msg: { examples: ['shipping-api'] } }, required: ['channel', 'msg'] });
  });

  it('finds a stated value behind a URL\'s percent escape', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_message', summary: 'Refund 2x TOTE-CNV-01 on order #100690' }],
      tool_graph: [
        { id: 'find', tool: 'http_request', args: { method: 'GET', url: 'https://api.shop.example/v2/orders?name=%23100690' } },
        { id: 'refund', tool: 'http_request', args: { method: 'POST', url: 'https://api.shop.example/v2/refunds' }, depends_on: ['find'] },
        { id: 'note', tool: 'http_request', args: { method: 'POST', url: 'https://api.shop.example/v2/notes' }, depends_on: ['refund'] },
      ],
      outcome: 'success',
    });
    const plan = planFromEpisode(episode, 'p', NOW);
    expect(plan.nodes[0]!.params.url).toMatch(/^https:\/\/api\.shop\.example\/v2\/orders\?name=%23\{\{inputs\.\w+\}\}$/);
  });

  it('keeps an arg naming a field of a tool result a constant, even when the task says the word', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: 'Copy the name and email of customer cust-0042 to the crm' }],
      tool_graph: [
        { id: 'lookup', tool: 'crm_lookup', args: { customer: 'cust-0042' }, result: { name: 'Alice', contact: { email: 'alice@mail.example' } } },
        { id: 'pick', tool: 'json_pick', args: { fields: { name: 'name', email: 'contact.email' } }, depends_on: ['lookup'] },
        { id: 'save', tool: 'crm_save', args: { record: 'name' }, depends_on: ['pick'] },
      ],
      outcome: 'success',
    });
    const plan = planFromEpisode(episode, 'p', NOW);
    expect(plan.nodes.map((n) => n.params)).toEqual([{ customer: '{{inputs.customer}}' }, { fields: { name: 'name', email: 'contact.email' } }, { record: 'name' }]);
    expect(plan.inputs_schema).toMatchObject({ required: ['customer'] });
  });

  it("takes a value the task states from the task when a result holds it by coincidence, and from the lookup that echoes it", () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_message', summary: 'Ship order A-12001 to Kastanienallee 12, Berlin' }],
      tool_graph: [
        { id: 'get', tool: 'shop_get_order', args: { order_id: 'A-12001' }, result: { order_id: 'A-12001', address: { line1: 'Torstr. 3', city: 'Berlin' } } },
        { id: 'update', tool: 'shop_update_address', args: { order_id: 'A-12001', line1: 'Kastanienallee 12', city: 'Berlin' }, depends_on: ['get'] },
        { id: 'reply', tool: 'helpdesk_reply', args: { body: 'Done' }, depends_on: ['update'] },
      ],
      outcome: 'success',
    });
    const plan = planFromEpisode(episode, 'p', NOW);
    // The order's city before the move is no source of the new one; its id came back from the lookup by it.
    expect(plan.nodes[1]!.params).toEqual({ order_id: '{{nodes.get.output.order_id}}', line1: '{{inputs.line1}}', city: '{{inputs.city}}' });
    expect(plan.inputs_schema).toMatchObject({ required: ['city', 'line1', 'order_id'] });
  });

  it('states no value in the steps an agent reported once its task was given, but in the trigger that gave it', () => {
    const episode = (timeline: Array<{ event_kind: string; summary: string }>) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: timeline.map((event, t) => ({ t, ...event })),
        tool_graph: [
          { id: 'find', tool: 'crm_find_deal', args: { account: 'Acme Corp' }, result: { deal_id: 'D-58812' } },
          { id: 'move', tool: 'crm_update_deal', args: { deal_id: 'D-58812', stage: 'Negotiation' }, depends_on: ['find'] },
          { id: 'post', tool: 'slack_post', args: { channel: '#deal-desk', text: 'D-58812 moved' }, depends_on: ['move'] },
        ],
        outcome: 'success',
      });
    const given = { event_kind: 'user_request', summary: 'Move the Acme Corp deal to Negotiation' };
    const reported = planFromEpisode(episode([given, { event_kind: 'slack_posted', summary: 'Posted to #deal-desk' }]), 'p', NOW);
    expect(reported.nodes[2]!.params).toMatchObject({ channel: '#deal-desk' });
    expect(Object.keys((reported.inputs_schema as { properties: object }).properties).sort()).toEqual(['account', 'stage']);
    // Before any task was given, a kind in the past tense is the trigger, and the user answering is the user's side.
    const trigger = planFromEpisode(episode([{ event_kind: 'deal_move_requested', summary: 'Move the Acme Corp deal to Negotiation, post in #deal-desk' }]), 'p', NOW);
    expect(trigger.nodes[2]!.params).toMatchObject({ channel: '{{inputs.channel}}' });
    const answered = planFromEpisode(episode([given, { event_kind: 'user_replied', summary: 'and post it in #deal-desk' }]), 'p', NOW);
    expect(answered.nodes[2]!.params).toMatchObject({ channel: '{{inputs.channel}}' });
  });

  it('traces an output inside a longer string only at value edges: "restart" is not in "restarted"', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: 'recycle the billing workers' }],
      tool_graph: [
        { id: 'plan', tool: 'choose_action', args: { queue: 'billing' }, result: { action: 'restart', host: 'wk-17' } },
        { id: 'note', tool: 'log', args: { text: 'restarted billing on wk-17 (action restart)' }, depends_on: ['plan'] },
        { id: 'done', tool: 'notify', args: { text: 'ok' }, depends_on: ['note'] },
      ],
      outcome: 'success',
    });
    expect(planFromEpisode(episode, 'p', NOW).nodes[1]!.params).toEqual({
      text: 'restarted billing on {{nodes.plan.output.host}} (action {{nodes.plan.output.action}})',
    });
  });

  it('finds a value of three or more parts with a digit inside a name joined by dashes; plainer values and longer values stay', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: 'Ship shipping-api v3.0.1 to eu-west-1 on 2025-11-19' }],
      tool_graph: [
        { id: 'tag', tool: 'git_tag', args: { tag: 'release-v3.0.1-2025-11-19' }, result: { ok: true } },
        { id: 'deploy', tool: 'deploy', args: { region: 'eu-west-1', cluster: 'k8s-eu-west-1-prod', az: 'eu-west-1a' }, depends_on: ['tag'] },
        { id: 'tell', tool: 'chat', args: { text: 'Shipped shipping-api-v2 beside shipping-api' }, depends_on: ['deploy'] },
      ],
      outcome: 'success',
    });
    const plan = planFromEpisode(episode, 'p', NOW);
    const input = /\{\{inputs\.\w+\}\}/.source;
    expect(plan.nodes.map((n) => n.params)).toEqual([
      { tag: expect.stringMatching(new RegExp(`^release-${input}-${input}$`)) },
      { region: '{{inputs.region}}', cluster: 'k8s-{{inputs.region}}-prod', az: 'eu-west-1a' },
      { text: expect.stringMatching(new RegExp(`^Shipped shipping-api-v2 beside ${input}$`)) },
    ]);
  });

  it('never names an input by another value before it ("ship payments v2.3.0" to the repo acme/payments)', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: 'Ship payments v2.3.0 to ap-southeast-2' }],
      tool_graph: [
        { id: 'build', tool: 'ci_build', args: { repo: 'acme/payments', spec: 'build v2.3.0 of acme/payments' }, result: { image: 'img-77' } },
        { id: 'deploy', tool: 'deploy', args: { image: 'img-77', region: 'ap-southeast-2' }, depends_on: ['build'] },
        { id: 'tell', tool: 'chat', args: { text: 'Shipped payments v2.3.0' }, depends_on: ['deploy'] },
      ],
      outcome: 'success',
    });
    const plan = planFromEpisode(episode, 'p', NOW);
    expect(plan.nodes[2]!.params).toEqual({ text: 'Shipped payments {{inputs.spec}}' });
    expect(Object.keys((plan.inputs_schema as { properties: object }).properties).sort()).toEqual(['region', 'spec']);
  });

  it('never names an input by a particle before its value ("roll out shipping-api-v2")', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: 'roll out shipping-api-v2 to production' }],
      tool_graph: [
        { id: 'build', tool: 'ci_build', args: { ref: 'main' }, result: { image: 'img-1' } },
        { id: 'deploy', tool: 'http_post', args: { target: 'https://deploy.example/apps/shipping-api-v2/rollout' }, depends_on: ['build'] },
        { id: 'watch', tool: 'monitor', args: { minutes: 5 }, depends_on: ['deploy'] },
      ],
      outcome: 'success',
    });
    // Named by the collection of the URL path it is a member of.
    expect(planFromEpisode(episode, 'p', NOW).nodes[1]!.params).toEqual({ target: 'https://deploy.example/apps/{{inputs.app}}/rollout' });
  });

  it('keeps the action the task asks for a constant: it is what the plan does, not a value callers vary', () => {
    const episode = episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: 'please restart the billing queue workers on node worker-7' }],
      tool_graph: [
        { id: 'find', tool: 'queue_workers', args: { queue: 'billing' }, result: { pids: [11, 12] } },
        { id: 'act', tool: 'supervisor', args: { action: 'restart', host: 'worker-7' }, depends_on: ['find'] },
        { id: 'check', tool: 'queue_health', args: { queue: 'billing' }, depends_on: ['act'] },
      ],
      outcome: 'success',
    });
    const plan = planFromEpisode(episode, 'p', NOW);
    expect(plan.nodes[1]!.params).toEqual({ action: 'restart', host: '{{inputs.host}}' });
    expect(plan.inputs_schema).toMatchObject({ required: ['host', 'queue'] });
  });

  it('reads a number as stated only as a token of its own, not inside an id', () => {
    const deep = (summary: string) => {
      const episode = setupEpisode('https://git.example/acme/api', 'main', { timeline: [{ t: 1, event_kind: 'setup_project', summary }] });
      episode.tool_graph[0]!.args.depth = 20;
      return planFromEpisode(episode, 'p', NOW).nodes[0]!.params.depth;
    };
    expect(deep('Clone acme/a20f with depth 20.')).toBe('{{inputs.depth}}');
    for (const summary of ['Clone acme/a20f', 'Clone ticket T-20', 'Clone v1.20 of it', 'Clone from /srv/20/x']) expect(deep(summary), summary).toBe(20);
  });

  it('takes values of the environment as inputs too, and replays literals when generalisation is off', () => {
    const episode = setupEpisode('https://git.example/acme/api', 'main', {
      timeline: [{ t: 1, event_kind: 'setup_project' }],
      environment: { repository: 'https://git.example/acme/api' },
    });
    expect(planFromEpisode(episode, 'p', NOW).nodes[0]!.params).toEqual({ url: '{{inputs.url}}', branch: 'main', depth: 1 });
    const literal = planFromEpisode(episode, 'p', NOW, { generalise: false });
    expect(literal.nodes.map((n) => n.params)).toEqual(episode.tool_graph.map((t) => t.args));
    expect(literal.edges.every((e) => e.kind === 'control')).toBe(true);
    expect(literal.inputs_schema).toEqual({});
  });
});

describe('anti-unification of twins', () => {
  const quiet = (repo: string, branch: string, reporter: string) =>
    setupEpisode(repo, branch, {
      // No task text: only the comparison of twins can find the inputs.
      timeline: [{ t: 1000, event_kind: 'setup_project' }],
      tool_graph: setupEpisode(repo, branch).tool_graph.map((t) => (t.id === 'test' ? { ...t, args: { ...t.args, reporter } } : t)),
    });

  it('keeps agreed args, turns differing ones into inputs with examples, and keeps the structure key', () => {
    const a = planFromEpisode(quiet('https://git.example/acme/api', 'main', 'dot'), 'p', NOW);
    const b = planFromEpisode(quiet('https://git.example/acme/web', 'dev', 'dot'), 'q', NOW);
    expect(structureKey(a)).toBe(structureKey(b));
    const merged = antiUnify(a, b);
    expect(merged.nodes.map((n) => n.params)).toEqual([
      { url: '{{inputs.url}}', branch: '{{inputs.branch}}', depth: 1 },
      { cwd: '{{nodes.clone.output.dir}}' },
      { cwd: '{{nodes.clone.output.dir}}', reporter: 'dot', cmd: 'cd {{nodes.clone.output.dir}} && npm test' },
    ]);
    expect(merged.inputs_schema).toMatchObject({
      properties: { url: { type: 'string', examples: ['https://git.example/acme/api', 'https://git.example/acme/web'] }, branch: { examples: ['main', 'dev'] } },
      required: ['branch', 'url'],
    });
    expect(generalisationKey(merged)).not.toBe(generalisationKey(a));
    // A third twin that agrees with the generalisation changes nothing but the examples.
    const c = planFromEpisode(quiet('https://git.example/acme/cli', 'main', 'dot'), 'r', NOW);
    const again = antiUnify(merged, c);
    expect(generalisationKey(again)).toBe(generalisationKey(merged));
    expect((again.inputs_schema as { properties: { url: { examples: string[] } } }).properties.url.examples).toHaveLength(3);
    // One that differs in another arg adds exactly that input.
    const d = planFromEpisode(quiet('https://git.example/acme/cli', 'main', 'spec'), 's', NOW);
    const wider = antiUnify(again, d);
    expect(wider.nodes[2]!.params.reporter).toBe('{{inputs.reporter}}');
    expect(Object.keys((wider.inputs_schema as { properties: object }).properties).sort()).toEqual(['branch', 'reporter', 'url']);
  });

  it('pairs nodes by structure, not by id, and makes clashing names unique', () => {
    const a = planFromEpisode(quiet('https://git.example/acme/api', 'main', 'dot'), 'p', NOW);
    const renamed = quiet('https://git.example/acme/web', 'main', 'dot');
    renamed.tool_graph = renamed.tool_graph.map((t) => ({ ...t, id: `x-${t.id}`, depends_on: t.depends_on.map((d) => `x-${d}`) })).reverse();
    const b = planFromEpisode(renamed, 'q', NOW);
    expect(antiUnify(a, b).nodes[0]!.params).toEqual({ url: '{{inputs.url}}', branch: 'main', depth: 1 });

    const twoUrls = { ...a, nodes: a.nodes.map((n, i) => (i === 1 ? { ...n, params: { ...n.params, url: 'https://mirror.example/a' } } : n)) };
    const otherUrls = { ...b, nodes: b.nodes.map((n) => (n.op === 'npm_install' ? { ...n, params: { ...n.params, url: 'https://mirror.example/b' } } : n)) };
    const merged = antiUnify(twoUrls, otherUrls);
    expect(merged.nodes[1]!.params.url).toBe('{{inputs.url_2}}');
  });

  it('gives a knob (varied where the tasks agree, named by none) the first twin’s value as its default; everything else stays required', () => {
    const withArgs = (repo: string, args: Record<string, unknown>) =>
      setupEpisode(repo, 'main', { tool_graph: setupEpisode(repo, 'main').tool_graph.map((t) => (t.id === 'test' ? { ...t, args: { ...t.args, ...args } } : t)) });
    const properties = (plan: PlanGraphPayload) => (plan.inputs_schema as { properties: Record<string, { default?: unknown }> }).properties;
    // The same task twice, the reporter differing: a knob, defaulting to the first twin's.
    const same = antiUnify(planFromEpisode(withArgs('https://git.example/acme/api', { reporter: 'dot' }), 'p', NOW), planFromEpisode(withArgs('https://git.example/acme/api', { reporter: 'spec' }), 'q', NOW));
    expect(same.nodes[2]!.params.reporter).toBe('{{inputs.reporter}}');
    expect(properties(same).reporter).toEqual({ type: 'string', examples: ['dot', 'spec'], default: 'dot' });
    expect(properties(same).url).not.toHaveProperty('default');
    // The default survives the next fold, whatever that twin's task names.
    const other = antiUnify(same, planFromEpisode(withArgs('https://git.example/acme/cli', { reporter: 'tap' }), 'r', NOW));
    expect(properties(other).reporter).toMatchObject({ examples: ['dot', 'spec', 'tap'], default: 'dot' });
    // Tasks naming other repositories: the reporter may go with the repository, so it is asked for.
    const apart = antiUnify(planFromEpisode(withArgs('https://git.example/acme/api', { reporter: 'dot' }), 'p', NOW), planFromEpisode(withArgs('https://git.example/acme/web', { reporter: 'spec' }), 'q', NOW));
    expect(properties(apart).reporter).not.toHaveProperty('default');
    expect(apart.inputs_schema).toMatchObject({ required: ['branch', 'reporter', 'url'] });
    // ...until a twin of the first one's task shows it varying on its own.
    expect(properties(antiUnify(apart, planFromEpisode(withArgs('https://git.example/acme/api', { reporter: 'tap' }), 'r', NOW))).reporter).toMatchObject({ default: 'dot' });
    // A date or an id made for each run is stale in the next, even where the tasks agree.
    const since = antiUnify(
      planFromEpisode(withArgs('https://git.example/acme/api', { since: '2026-11-01T00:00:00Z', run_id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' }), 'p', NOW),
      planFromEpisode(withArgs('https://git.example/acme/api', { since: '2026-11-08T00:00:00Z', run_id: '6fa459ea-ee8a-3ca4-894e-db77e160355e' }), 'q', NOW),
    );
    expect(properties(since).since).not.toHaveProperty('default');
    expect(properties(since).run_id).not.toHaveProperty('default');
    // So is a value holding one: an export file named for the day it was made.
    const daily = antiUnify(
      planFromEpisode(withArgs('https://git.example/acme/api', { out: '/exports/orders-2026-11-20.csv' }), 'p', NOW),
      planFromEpisode(withArgs('https://git.example/acme/api', { out: '/exports/orders-2026-11-21.csv' }), 'q', NOW),
    );
    expect(JSON.stringify(daily.nodes[2]!.params.out)).toContain('{{inputs.');
    expect(Object.values(properties(daily)).filter((p) => p.default !== undefined)).toEqual([]);
    // Twins without task text set none.
    const untold = antiUnify(planFromEpisode(quiet('https://git.example/acme/api', 'main', 'dot'), 'p', NOW), planFromEpisode(quiet('https://git.example/acme/api', 'main', 'spec'), 'q', NOW));
    expect(properties(untold).reporter).not.toHaveProperty('default');
  });

  it('makes an arg only one twin passed an input: optional when the twin or a task had it, defaulting to the plan’s literal', () => {
    const withArgs = (repo: string, args: Record<string, unknown>) =>
      quiet(repo, 'main', 'dot').tool_graph.map((t) => (t.id === 'test' ? { ...t, args: { ...t.args, ...args } } : t));
    const episode = (repo: string, args: Record<string, unknown>) => setupEpisode(repo, 'main', { timeline: [{ t: 1, event_kind: 'setup_project' }], tool_graph: withArgs(repo, args) });
    const a = planFromEpisode(episode('https://git.example/acme/api', { bail: 3 }), 'p', NOW);
    const b = planFromEpisode(episode('https://git.example/acme/web', { grep: 'smoke' }), 'q', NOW);
    const merged = antiUnify(a, b);
    expect(merged.nodes[2]!.params).toMatchObject({ bail: '{{inputs.bail}}', grep: '{{inputs.grep}}' });
    expect(merged.inputs_schema).toMatchObject({ properties: { bail: { examples: [3], default: 3 }, grep: { examples: ['smoke'] } }, required: ['bail', 'url'] });
    expect((merged.inputs_schema as { properties: Record<string, object> }).properties.grep).not.toHaveProperty('default');
    expect(generalisationKey(merged)).not.toBe(generalisationKey(antiUnify(a, a)));
    // A later twin with the arg adds its example and it stays optional; the plan still validates.
    const c = antiUnify(merged, planFromEpisode(episode('https://git.example/acme/cli', { bail: 1, grep: 'e2e' }), 'r', NOW));
    expect(c.inputs_schema).toMatchObject({ properties: { bail: { examples: [3, 1], default: 3 }, grep: { examples: ['smoke', 'e2e'] } }, required: ['bail', 'url'] });
    expect(parsePlanGraph(c).ok).toBe(true);
    // A task-named input of the plan the twin does without becomes optional, unless the plan also reads it where both twins pass an arg.
    const shared = planFromEpisode(setupEpisode('https://git.example/acme/api', 'main'), 'p', NOW);
    const noBranch = (p: typeof shared) => ({ ...p, nodes: p.nodes.map((n, i) => (i === 0 ? { ...n, params: { url: n.params.url, depth: 1 } } : n)) });
    expect((antiUnify(shared, noBranch(shared)).inputs_schema as { required: string[] }).required).toEqual(['url']);
    const both = { ...shared, nodes: shared.nodes.map((n, i) => (i === 2 ? { ...n, params: { ...n.params, branch: '{{inputs.branch}}' } } : n)) };
    expect((antiUnify(both, noBranch(both)).inputs_schema as { required: string[] }).required).toEqual(['branch', 'url']);
  });

  it('pools the examples of inputs both twins took from their task text', () => {
    const a = planFromEpisode(setupEpisode('https://git.example/acme/api', 'main'), 'p', NOW);
    const b = planFromEpisode(setupEpisode('https://git.example/acme/web', 'main'), 'q', NOW);
    expect(antiUnify(a, b).inputs_schema).toMatchObject({
      properties: { url: { examples: ['https://git.example/acme/api', 'https://git.example/acme/web'] }, branch: { examples: ['main'] } },
    });
  });

  it('merges examples, distinct, at most twenty', () => {
    let plan = planFromEpisode(setupEpisode('https://git.example/acme/r0', 'main'), 'p', NOW);
    for (let i = 1; i < 30; i++) plan = antiUnify(plan, planFromEpisode(setupEpisode(`https://git.example/acme/r${i % 25}`, 'main'), 'q', NOW));
    expect(plan.examples).toHaveLength(MAX_PLAN_EXAMPLES);
    expect(new Set(plan.examples).size).toBe(MAX_PLAN_EXAMPLES);
  });
});

describe('anti-unification of interpolated inputs', () => {
  it('twins with the same text around an input pool their values as its examples', () => {
    const merged = antiUnify(planFromEpisode(digestEpisode('shipping-api', '#shipping-oncall'), 'p', NOW), planFromEpisode(digestEpisode('billing-api', '#billing'), 'q', NOW));
    expect(merged.nodes[1]!.params).toEqual({ channel: '{{inputs.channel}}', msg: 'Health digest for {{inputs.msg}}: platform ok (sent to {{inputs.channel}})' });
    expect(merged.inputs_schema).toMatchObject({ properties: { channel: { examples: ['#shipping-oncall', '#billing'] }, msg: { examples: ['shipping-api', 'billing-api'] } } });
  });
});

describe('drafts whose words differ between twins', () => {
  /** A reply drafted to the sender of the mail a search found: search, look the sender up, draft. */
  const reply = (task: string, query: string, says: string): EpisodicPayload =>
    episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_message', summary: task }],
      tool_graph: [
        { id: 'search', tool: 'gmail_search', args: { query }, result: { messages: [{ from: 'x@corp.example', thread_id: 'th-88213' }] } },
        { id: 'who', tool: 'contacts_lookup', args: { email: 'x@corp.example' }, result: { name: 'Sam Lee' }, depends_on: ['search'] },
        { id: 'draft', tool: 'gmail_draft', args: { thread_id: 'th-88213', body: `Hi Sam Lee,\n\n${says}\n\nBest,\nAlex` }, depends_on: ['who'] },
      ],
      outcome: 'success',
    });

  it('take what each says as an input, its own values written out, and no default from the first', () => {
    const approve = planFromEpisode(reply("Draft a reply to Marcus's email about the hiring plan saying I approve the two new headcount", 'Marcus hiring plan', 'I approve the two new headcount.'), 'p', NOW);
    const terms = planFromEpisode(reply('draft a response to the latest from Fabrikam about pricing, tell them we need net-60 terms', 'Fabrikam pricing', 'We would need net-60 payment terms.'), 'q', NOW);
    expect(terms.nodes[2]!.params.body).toContain('{{inputs.');
    const merged = antiUnify(approve, terms);
    expect(merged.nodes[2]!.params.body).toBe('Hi {{nodes.who.output.name}},\n\n{{inputs.body}}.\n\nBest,\nAlex');
    expect(merged.inputs_schema).toMatchObject({ properties: { body: { examples: ['I approve the two new headcount', 'We would need net-60 payment terms'] } } });
    // The search words are the task's own ("Marcus hiring plan"): named by it, so required, with no default.
    const { properties, required } = merged.inputs_schema as { properties: Record<string, object>; required: string[] };
    expect(required).toEqual(expect.arrayContaining(['body', 'query']));
    expect(properties.query).not.toHaveProperty('default');
  });
});

describe('inputs the twins always passed alike', () => {
  /** A sales report for one region: the region is an arg of its own and a word of the title. */
  const reportEpisode = (region: string) =>
    episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: `export the weekly sales report for ${region} as csv` }],
      tool_graph: [
        { id: 'query', tool: 'echo', args: { region, namespace: 'analytics' } },
        { id: 'render', tool: 'echo', args: { format: 'csv', title: `Sales ${region}` }, depends_on: ['query'] },
        { id: 'send', tool: 'echo', args: { subject: `Weekly sales ${region}` }, depends_on: ['render'] },
      ],
      outcome: 'success',
    });

  it('are one input, which the caller sends once', () => {
    const merged = antiUnify(planFromEpisode(reportEpisode('EMEA'), 'p', NOW), planFromEpisode(reportEpisode('NA-EAST'), 'q', NOW));
    expect(merged.inputs_schema).toEqual({ type: 'object', properties: { region: { type: 'string', examples: ['EMEA', 'NA-EAST'] } }, required: ['region'], additionalProperties: false });
    expect(merged.nodes.map((n) => n.params)).toEqual([
      { region: '{{inputs.region}}', namespace: 'analytics' },
      { format: 'csv', title: 'Sales {{inputs.region}}' },
      { subject: 'Weekly sales {{inputs.region}}' },
    ]);
  });

  it('are one input when one twin passed a number and the other the same digits in a text', () => {
    const scaleEpisode = (pods: number) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_request', summary: `scale the checkout deployment to ${pods} pods` }],
        tool_graph: [
          { id: 'scale', tool: 'echo', args: { deployment: 'checkout', replicas: pods } },
          { id: 'wait', tool: 'echo', args: { deployment: 'checkout', timeout_s: 300 }, depends_on: ['scale'] },
          { id: 'tell', tool: 'echo', args: { text: `checkout now runs ${pods} pods`, reporter: 'k8s-bot' }, depends_on: ['wait'] },
        ],
        outcome: 'success',
      });
    const merged = antiUnify(planFromEpisode(scaleEpisode(6), 'p', NOW), planFromEpisode(scaleEpisode(4), 'q', NOW));
    // A third twin of the first one's task, only its reporter changed: the count stays a number
    // (the digits in its text are the same 6), so its task is the first one's and the reporter a knob.
    const third = planFromEpisode(scaleEpisode(6), 'r', NOW);
    const knob = antiUnify(merged, { ...third, nodes: third.nodes.map((n) => (n.id === 'tell' ? { ...n, params: { ...n.params, reporter: 'ops-digest' } } : n)) });
    expect(knob.inputs_schema).toMatchObject({ properties: { replicas: { type: 'integer', examples: [6, 4] }, reporter: { examples: ['k8s-bot', 'ops-digest'], default: 'k8s-bot' } } });
    expect(merged.inputs_schema).toMatchObject({ properties: { replicas: { type: 'integer', examples: [6, 4] } }, required: ['deployment', 'replicas'] });
    expect(merged.nodes.map((n) => n.params)).toEqual([
      { deployment: '{{inputs.deployment}}', replicas: '{{inputs.replicas}}' },
      { deployment: '{{inputs.deployment}}', timeout_s: 300 },
      { text: 'checkout now runs {{inputs.replicas}} pods', reporter: 'k8s-bot' },
    ]);
  });
});

describe('values a task states inside URLs and ids', () => {
  /** Fetches one ticket through a URL query and files its summary, as an agent would record it. */
  const ticketEpisode = (ticket: string, queue: number): EpisodicPayload =>
    episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: `Triage ticket ${ticket} from the support queue` }],
      tool_graph: [
        { id: 'fetch', tool: 'http_request', args: { url: `https://desk.example/api/tickets?ticket=${ticket}&expand=1`, queue } },
        { id: 'page', tool: 'http_request', args: { url: `https://desk.example/tickets/${ticket}/history` }, depends_on: ['fetch'] },
        { id: 'file', tool: 'echo', args: { note: `filed ${ticket}.` }, depends_on: ['page'] },
      ],
      outcome: 'success',
    });

  it('interpolates a stated value inside a URL query and path, named by the task’s word for it', () => {
    const plan = planFromEpisode(ticketEpisode('T-4411', 7), 'p', NOW);
    expect(plan.nodes.map((n) => n.params.url ?? n.params.note)).toEqual([
      'https://desk.example/api/tickets?ticket={{inputs.ticket}}&expand=1',
      'https://desk.example/tickets/{{inputs.ticket}}/history',
      'filed {{inputs.ticket}}.',
    ]);
    const merged = antiUnify(plan, planFromEpisode(ticketEpisode('T-8123', 7), 'q', NOW));
    expect(merged.nodes[0]!.params.url).toBe('https://desk.example/api/tickets?ticket={{inputs.ticket}}&expand=1');
    expect(merged.inputs_schema).toMatchObject({ properties: { ticket: { examples: ['T-4411', 'T-8123'] } }, required: ['ticket'] });
  });

  it('folds a value one twin took from its task with the other’s text, in either order; a weak word before it names nothing, the word after does', () => {
    const deskEpisode = (ticket: string, desk: string) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_request', summary: `Summarise ticket ${ticket} for the ${desk} desk` }],
        tool_graph: [
          { id: 'fetch', tool: 'http_request', args: { url: `https://desk.example/history?ticket=${ticket}&desk=${desk}` } },
          { id: 'pick', tool: 'noop', depends_on: ['fetch'] },
          { id: 'note', tool: 'echo', args: { text: 'done' }, depends_on: ['pick'] },
        ],
        outcome: 'success',
      });
    // "gowbat" is a plain word (stays text); "2xv99s" is shaped like a value (an input named by the word after it).
    const plain = planFromEpisode(deskEpisode('T-1001', 'gowbat'), 'p', NOW);
    const shaped = planFromEpisode(deskEpisode('T-2002', '2xv99s'), 'q', NOW);
    expect(shaped.nodes[0]!.params.url).toBe('https://desk.example/history?ticket={{inputs.ticket}}&desk={{inputs.desk}}');
    for (const [a, b] of [[plain, shaped], [shaped, plain]] as const) {
      const merged = antiUnify(a, b);
      expect(merged.nodes[0]!.params.url).toBe('https://desk.example/history?ticket={{inputs.ticket}}&desk={{inputs.desk}}');
      const properties = (merged.inputs_schema as { properties: Record<string, { examples: unknown[]; default?: unknown }> }).properties;
      expect(new Set(properties.desk!.examples)).toEqual(new Set(['gowbat', '2xv99s']));
      expect(merged.inputs_schema).toMatchObject({ required: ['desk', 'ticket'] });
      expect(properties.desk).not.toHaveProperty('default');
    }
  });

  it('interpolates a value-shaped whole input where it also stands inside a URL, and a stated number of 4+ digits; never a number inside 1,200 or 20:30', () => {
    const episode = (summary: string, args: Record<string, unknown>) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_request', summary }],
        tool_graph: [
          { id: 'get', tool: 'http_request', args },
          { id: 'mid', tool: 'noop', depends_on: ['get'] },
          { id: 'end', tool: 'noop', depends_on: ['mid'] },
        ],
        outcome: 'success',
      });
    const params = (summary: string, args: Record<string, unknown>) => planFromEpisode(episode(summary, args), 'p', NOW).nodes[0]!.params;
    expect(params('deploy release v2.4.1 of acme/widgets', { version: 'v2.4.1', url: 'https://git.example/acme/widgets/releases/v2.4.1/notes' })).toEqual({
      version: '{{inputs.version}}',
      url: 'https://git.example/{{inputs.url}}/releases/{{inputs.version}}/notes',
    });
    // A short id the task named whole is that input inside a message too ("restarted w-7"); a word or number as short is not.
    expect(params('restart the workers on w-7 for 2 min', { host: 'w-7', minutes: 2, text: 'restarted w-7 (2 min, see w-7a)' })).toEqual({
      host: '{{inputs.host}}',
      minutes: 2,
      text: 'restarted {{inputs.host}} (2 min, see w-7a)',
    });
    // A plain word is whole only: inside a longer arg it is as often something else, except as a URL's query value.
    expect(params('build branch main of acme/widgets', { branch: 'main', path: '/src/main/java', url: 'https://ci.example/builds?branch=main&page=main2' })).toEqual({
      branch: '{{inputs.branch}}',
      path: '/src/main/java',
      url: 'https://ci.example/builds?branch={{inputs.branch}}&page=main2',
    });
    // A name written with a capital is that input wherever it stands at word edges.
    expect(params('get the weather in Paris for the team', { city: 'Paris', url: 'https://wx.example/v1?q=Paris', text: 'Paris: sunny (Parisian time)' })).toEqual({
      city: '{{inputs.city}}',
      url: 'https://wx.example/v1?q={{inputs.city}}',
      text: '{{inputs.city}}: sunny (Parisian time)',
    });
    // A value inside a URL path is named by the collection it is a member of.
    expect(params('open an issue in acme/api', { url: 'https://api.example/repos/acme/api/issues' })).toEqual({ url: 'https://api.example/repos/{{inputs.repo}}/issues' });
    expect(params('look up order 558812 for the customer', { url: 'https://shop.example/orders/558812?view=full' })).toEqual({ url: 'https://shop.example/orders/{{inputs.order}}?view=full' });
    // A whole numeric input is the same input inside a URL.
    expect(params('refund ticket 4411 today', { ticket: 4411, url: 'https://desk.example/refunds/4411/' })).toEqual({ ticket: '{{inputs.ticket}}', url: 'https://desk.example/refunds/{{inputs.ticket}}/' });
    // 200 and 20 are not stated by 1,200 and 20:30 (the time itself is, whole).
    expect(params('refund 1,200 dollars at 20:30', { limit: 200, retention_days: 20, url: 'https://x.example/a?at=20:30' })).toEqual({ limit: 200, retention_days: 20, url: 'https://x.example/a?at={{inputs.at}}' });
  });

  it('does not read a value inside a longer id, word or number as stated', () => {
    // The queue (5) differs and no task names it: "T-5120" does not state 5, so it is not read as the task's.
    // It varied with the ticket, though, so it stays required.
    const merged = antiUnify(planFromEpisode(ticketEpisode('T-5120', 5), 'p', NOW), planFromEpisode(ticketEpisode('T-5121', 9), 'q', NOW));
    const properties = (merged.inputs_schema as { properties: Record<string, { default?: unknown }> }).properties;
    expect(properties.queue).toEqual({ type: 'integer', examples: [5, 9] });
    expect(merged.nodes[0]!.params.queue).toBe('{{inputs.queue}}');
    // A string inside a longer id is not stated either: the branch "main" is not in "maintain".
    const maintain = setupEpisode('https://git.example/acme/api', 'main', { timeline: [{ t: 1, event_kind: 'setup', summary: 'maintain https://git.example/acme/api' }] });
    expect(planFromEpisode(maintain, 'p', NOW).nodes[0]!.params.branch).toBe('main');
    const shipping = planFromEpisode(digestEpisode('shipping-api-v2', '#ops'), 'p', NOW);
    expect(shipping.nodes[1]!.params.msg).toBe('Health digest for {{inputs.msg}}: platform ok (sent to {{inputs.channel}})');
  });
});

describe('anti-unification of texts', () => {
  /** A weekly report for one team (a plain word, so not an input of its own) sent from one URL. */
  const reportEpisode = (team: string, url: string) =>
    episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_request', summary: `Send the weekly report for ${team}` }],
      tool_graph: [
        { id: 'fetch', tool: 'http_request', args: { url } },
        { id: 'render', tool: 'noop', depends_on: ['fetch'] },
        { id: 'send', tool: 'echo', args: { msg: `Weekly report for ${team} is ready` }, depends_on: ['render'] },
      ],
      outcome: 'success',
    });

  it('makes each of several differing values in a text an input of its own, a number joined to what follows whole, named by its key', () => {
    const sales = (region: string, week: string) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_request', summary: 'Email the weekly sales report to finance' }],
        tool_graph: [
          { id: 'query', tool: 'sql', args: { sql: `SELECT sum(total) FROM sales WHERE region = '${region}' AND week = '${week}'` } },
          { id: 'render', tool: 'noop', depends_on: ['query'] },
          { id: 'mail', tool: 'noop', depends_on: ['render'] },
        ],
        outcome: 'success',
      });
    const plan = antiUnify(planFromEpisode(sales('EMEA', '2025-W18'), 'p', NOW), planFromEpisode(sales('APAC', '2025-W19'), 'p', NOW));
    expect(plan.nodes[0]!.params).toEqual({ sql: "SELECT sum(total) FROM sales WHERE region = '{{inputs.region}}' AND week = '{{inputs.week}}'" });
    expect(plan.inputs_schema).toMatchObject({ properties: { region: { examples: ['EMEA', 'APAC'] }, week: { examples: ['2025-W18', '2025-W19'] } } });
    // One differing value is one input still, and a version is whole.
    const one = antiUnify(planFromEpisode(sales('EMEA', 'v1.3.0'), 'p', NOW), planFromEpisode(sales('EMEA', 'v1.4.0'), 'p', NOW));
    expect(one.nodes[0]!.params).toEqual({ sql: "SELECT sum(total) FROM sales WHERE region = 'EMEA' AND week = '{{inputs.week}}'" });
    expect(one.inputs_schema).toMatchObject({ properties: { week: { examples: ['v1.3.0', 'v1.4.0'] } } });
  });

  it('reads a word the task states as a URL query value, widens a middle inside a query value to the whole value, and pools inputs the texts share', () => {
    const ci = (repo: string, slug: string, branch: string) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_message', summary: `Run the CI tests for ${repo} on branch ${branch}` }],
        tool_graph: [
          { id: 'trigger', tool: 'http_post', args: { url: `https://ci.example/trigger?project=${slug}&branch=${branch}` }, result: { build: 88123 } },
          { id: 'wait', tool: 'http_get', args: { url: 'https://ci.example/builds/88123' }, depends_on: ['trigger'], result: { status: 'passed' } },
          { id: 'post', tool: 'chat_post', args: { text: `Tests for ${repo} on ${branch}: passed` }, depends_on: ['wait'] },
        ],
        outcome: 'success',
      });
    const first = planFromEpisode(ci('acme/api', 'acme-api', 'main'), 'p', NOW);
    expect(first.nodes[0]!.params).toEqual({ url: 'https://ci.example/trigger?project=acme-api&branch={{inputs.branch}}' });
    const plan = antiUnify(first, planFromEpisode(ci('acme/web', 'acme-web', 'develop'), 'p', NOW));
    expect(plan.nodes.map((n) => n.params)).toEqual([
      { url: 'https://ci.example/trigger?project={{inputs.project}}&branch={{inputs.branch}}' },
      { url: 'https://ci.example/builds/{{nodes.trigger.output.build}}' },
      { text: 'Tests for {{inputs.text}} on {{inputs.branch}}: {{nodes.wait.output.status}}' },
    ]);
    expect(plan.inputs_schema).toMatchObject({
      properties: { branch: { examples: ['main', 'develop'] }, project: { examples: ['acme-api', 'acme-web'] }, text: { examples: ['acme/api', 'acme/web'] } },
      required: ['branch', 'project', 'text'],
    });
  });

  it('folds command lines of several twins into one template: each value an input once, a twin that fits the template adding examples, no input left unread', () => {
    const deploy = (task: string, service: string, version: string, env: string) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_message', summary: task }],
        tool_graph: [
          { id: 'set', tool: 'bash', args: { cmd: `kubectl set image deployment/${service} ${service}=registry.acme.example/${service}:${version} -n ${env}` } },
          { id: 'wait', tool: 'bash', args: { cmd: `kubectl rollout status deployment/${service} -n ${env} --timeout=300s` }, depends_on: ['set'] },
          { id: 'check', tool: 'bash', args: { cmd: `curl -fsS https://${service}.${env}.acme.example/healthz` }, depends_on: ['wait'] },
        ],
        outcome: 'success',
      });
    const plans = [
      deploy('Deploy ledger v2.4.1 to staging', 'ledger', 'v2.4.1', 'staging'),
      deploy('ship checkout 3.2.0 to production', 'checkout', '3.2.0', 'production'),
      deploy('push the new inventory build v1.9.7 out to staging', 'inventory', 'v1.9.7', 'staging'),
      deploy('roll out notifier v5.0.2 on prod', 'notifier', 'v5.0.2', 'prod'),
    ].map((e, i) => planFromEpisode(e, `p${i}`, NOW));
    const plan = plans.slice(1).reduce(antiUnify, plans[0]!);
    const service = '{{inputs.cmd_2}}';
    expect(plan.nodes.map((n) => n.params.cmd)).toEqual([
      `kubectl set image deployment/${service} ${service}=registry.acme.example/${service}:{{inputs.cmd}} -n {{inputs.environment}}`,
      `kubectl rollout status deployment/${service} -n {{inputs.environment}} --timeout=300s`,
      `curl -fsS https://${service}.{{inputs.environment}}.acme.example/healthz`,
    ]);
    expect(plan.inputs_schema).toEqual({
      type: 'object',
      properties: {
        cmd: { type: 'string', examples: ['v2.4.1', '3.2.0', 'v1.9.7', 'v5.0.2'] },
        cmd_2: { type: 'string', examples: ['ledger', 'checkout', 'inventory', 'notifier'] },
        environment: { type: 'string', examples: ['staging', 'production', 'prod'] },
      },
      required: ['cmd', 'cmd_2', 'environment'],
      additionalProperties: false,
    });
  });

  it('reads twins whose tasks named the same value differently as one input, never a template inside a template', () => {
    const deploy = (task: string, service: string, version: string, env: string) =>
      planFromEpisode(
        episodicPayloadSchema.parse({
          kind: 'episodic',
          timeline: [{ t: 1, event_kind: 'user_message', summary: task }],
          tool_graph: [
            { id: 'set', tool: 'bash', args: { cmd: `kubectl -n ${env} set image deployment/${service} ${service}=registry.example/${service}:${version}` } },
            { id: 'wait', tool: 'bash', args: { cmd: `kubectl -n ${env} rollout status deployment/${service}` }, depends_on: ['set'] },
            { id: 'tag', tool: 'bash', args: { cmd: `kubectl -n ${env} annotate deployment/${service} cause="deploy ${version}"` }, depends_on: ['wait'] },
          ],
          outcome: 'success',
        }),
        'p',
        NOW,
      );
    // Each task names the service by its own word before it (`deploy`, `ship`, `please`…).
    const plans = [
      deploy('Deploy orders-api v3.8.2 to staging', 'orders-api', 'v3.8.2', 'staging'),
      deploy('ship pricing-svc 1.14.0 to prod', 'pricing-svc', '1.14.0', 'prod'),
      deploy('roll out the new search-indexer build v0.9.5', 'search-indexer', 'v0.9.5', 'prod'),
      deploy('please deploy orders-api v3.9.0 on staging', 'orders-api', 'v3.9.0', 'staging'),
    ];
    const inputNames = (p: PlanGraphPayload) => Object.keys((p.inputs_schema as { properties: object }).properties);
    expect(new Set(plans.map((p) => inputNames(p).join())).size).toBeGreaterThan(1);
    const plan = plans.slice(1).reduce(antiUnify, plans[0]!);
    const texts = plan.nodes.map((n) => String(n.params.cmd));
    expect(texts.every((t) => !/\{\{[^}]*\{\{/.test(t))).toBe(true);
    const [service, version] = [/deployment\/\{\{inputs\.(\w+)\}\}/.exec(texts[0]!)![1]!, /:\{\{inputs\.(\w+)\}\}$/.exec(texts[0]!)![1]!];
    expect(texts[0]).toBe(`kubectl -n {{inputs.environment}} set image deployment/{{inputs.${service}}} {{inputs.${service}}}=registry.example/{{inputs.${service}}}:{{inputs.${version}}}`);
    expect(plan.inputs_schema).toMatchObject({
      properties: {
        [service]: { examples: ['orders-api', 'pricing-svc', 'search-indexer'] },
        [version]: { examples: ['v3.8.2', '1.14.0', 'v0.9.5', 'v3.9.0'] },
        environment: { examples: ['staging', 'prod'] },
      },
    });
    expect(inputNames(plan)).toHaveLength(3);
  });

  it('makes the part of two values their tasks name an input: the weather URL for London and for Paris', () => {
    const weather = (city: string) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_request', summary: `get the weather for ${city} and post it` }],
        tool_graph: [
          { id: 'get', tool: 'http_request', args: { url: `https://wx.example/weather?city=${city}&units=metric` } },
          { id: 'mid', tool: 'noop', depends_on: ['get'] },
          { id: 'post', tool: 'echo', args: { text: 'posted' }, depends_on: ['mid'] },
        ],
        outcome: 'success',
      });
    const merged = antiUnify(planFromEpisode(weather('London'), 'p', NOW), planFromEpisode(weather('Paris'), 'q', NOW));
    // Named after the query's key, not the whole URL's.
    expect(merged.nodes[0]!.params.url).toBe('https://wx.example/weather?city={{inputs.city}}&units=metric');
    expect(merged.inputs_schema).toEqual({ type: 'object', properties: { city: { type: 'string', examples: ['London', 'Paris'] } }, required: ['city'], additionalProperties: false });
  });

  it('names the mailbox of an address whose domain a lookup returned, and keeps a whole address out of it', () => {
    const refund = (order: string, customer: string, mailbox: string) =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'refund_request', summary: `Refund order ${order} for customer ${customer}` }],
        tool_graph: [
          { id: 'lookup', tool: 'echo', args: { order_id: order }, result: { customer, amount: 40.5 } },
          { id: 'refund', tool: 'echo', args: { amount: 40.5, reason: 'customer_request' }, depends_on: ['lookup'] },
          { id: 'email', tool: 'echo', args: { to: `${mailbox}@${customer}.example`, template: 'refund_v2' }, depends_on: ['refund'] },
        ],
        outcome: 'success',
      });
    const merged = antiUnify(planFromEpisode(refund('558812', 'acme-6dg9', 'billing'), 'p', NOW), planFromEpisode(refund('559340', 'globex-6dg9', 'ap'), 'q', NOW));
    expect(merged.nodes[2]!.params.to).toBe('{{inputs.to_mailbox}}@{{nodes.lookup.output.customer}}.example');
    expect((merged.inputs_schema as { properties: Record<string, unknown> }).properties.to_mailbox).toEqual({ type: 'string', examples: ['billing', 'ap'], pattern: '^[^@\\s]+$' });
    // The pattern holds through the next fold, and the schema refuses a whole address for the mailbox.
    const third = antiUnify(merged, planFromEpisode(refund('560001', 'initech-6dg9', 'finance'), 'r', NOW));
    expect((third.inputs_schema as { properties: Record<string, unknown> }).properties.to_mailbox).toMatchObject({ pattern: '^[^@\\s]+$' });
    expect(inputProblems(third.inputs_schema, { order_id: '560002', to_mailbox: 'billing' })).toEqual([]);
    expect(inputProblems(third.inputs_schema, { order_id: '560002', to_mailbox: 'billing@initech.example' })).not.toEqual([]);
  });

  it('makes the differing words of two texts an input and keeps the text they share; a value without spaces stays whole', () => {
    const merged = antiUnify(planFromEpisode(reportEpisode('billing', 'https://r.example/a'), 'p', NOW), planFromEpisode(reportEpisode('payments', 'https://r.example/b'), 'q', NOW));
    expect(merged.nodes.map((n) => n.params)).toEqual([{ url: '{{inputs.url}}' }, {}, { msg: 'Weekly report for {{inputs.msg}} is ready' }]);
    // The team is what the tasks name: required, no default. The URL no task names went with the team: required too.
    expect(merged.inputs_schema).toEqual({
      type: 'object',
      properties: { msg: { type: 'string', examples: ['billing', 'payments'] }, url: { type: 'string', examples: ['https://r.example/a', 'https://r.example/b'] } },
      required: ['msg', 'url'],
      additionalProperties: false,
    });
    const third = antiUnify(merged, planFromEpisode(reportEpisode('search', 'https://r.example/a'), 'r', NOW));
    expect(generalisationKey(third)).toBe(generalisationKey(merged));
    expect(third.inputs_schema).toMatchObject({ properties: { msg: { examples: ['billing', 'payments', 'search'] } } });
  });
});

describe('inputs inside SQL', () => {
  const topCustomers = (task: string, table: string, from: string, to: string, limit: number): EpisodicPayload =>
    episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1, event_kind: 'user_message', summary: task }],
      tool_graph: [
        { id: 'q', tool: 'sql_query', args: { sql: `SELECT name, SUM(total) AS spend FROM ${table} WHERE created_at >= '${from}' AND created_at < '${to}' GROUP BY name ORDER BY spend DESC LIMIT ${limit}` } },
        { id: 'fmt', tool: 'python', args: { code: 'print(rows)' }, depends_on: ['q'] },
        { id: 'save', tool: 'write_file', args: { path: 'reports/top.txt' }, depends_on: ['fmt'] },
      ],
      outcome: 'success',
    });

  it('names a value by where it stands in the statement: the column compared, the rows after LIMIT, the table after FROM', () => {
    const a = planFromEpisode(topCustomers('Top 10 customers by spend for September', 'orders', '2026-09-01', '2026-10-01', 10), 'p', NOW);
    const b = planFromEpisode(topCustomers('top 5 spenders in October please', 'orders_eu', '2026-10-01', '2026-11-01', 5), 'q', NOW);
    expect(antiUnify(a, b).nodes[0]!.params.sql).toBe(
      'SELECT name, SUM(total) AS spend FROM {{inputs.table}} WHERE created_at >= \'{{inputs.created_at_from}}\' AND created_at < \'{{inputs.created_at_to}}\' GROUP BY name ORDER BY spend DESC LIMIT {{inputs.limit}}',
    );
  });
});

describe('anti-unification of strings holding references', () => {
  /** Composes "Hi <name>, your order <N> has shipped." where <name> comes from the lookup. */
  const mailEpisode = (customer: string, name: string, order: number): EpisodicPayload =>
    episodicPayloadSchema.parse({
      kind: 'episodic',
      timeline: [{ t: 1000, event_kind: 'notify_shipping' }],
      tool_graph: [
        { id: 'lookup', tool: 'crm_lookup', args: { customer }, result: { name, email: `${name.toLowerCase()}@mail.example` }, timestamp: 1000 },
        { id: 'compose', tool: 'compose_email', args: { body: `Hi ${name}, your order ${order} has shipped.` }, depends_on: ['lookup'], timestamp: 2000 },
        { id: 'send', tool: 'send_email', args: { to: `${name.toLowerCase()}@mail.example` }, depends_on: ['compose', 'lookup'], timestamp: 3000 },
      ],
      outcome: 'success',
    });
  const body = (p: ReturnType<typeof planFromEpisode>) => p.nodes.find((n) => n.id === 'compose')!.params.body;
  const bodyExamples = (p: ReturnType<typeof planFromEpisode>) =>
    (p.inputs_schema as { properties: Record<string, { examples: unknown[] }> }).properties.body?.examples;

  it('turns the differing literal beside a reference into an input and keeps the reference', () => {
    const a = planFromEpisode(mailEpisode('cust-1', 'Alice', 48213), 'p', NOW);
    const b = planFromEpisode(mailEpisode('cust-2', 'Bruno', 99120), 'q', NOW);
    const c = planFromEpisode(mailEpisode('cust-3', 'Chiara', 30077), 'r', NOW);
    expect(body(a)).toBe('Hi {{nodes.lookup.output.name}}, your order 48213 has shipped.');
    const ab = antiUnify(a, b);
    expect(body(ab)).toBe('Hi {{nodes.lookup.output.name}}, your order {{inputs.body}} has shipped.');
    expect(bodyExamples(ab)).toEqual(['48213', '99120']);
    // A third twin only adds its value as an example.
    const abc = antiUnify(ab, c);
    expect(body(abc)).toBe(body(ab));
    expect(generalisationKey(abc)).toBe(generalisationKey(ab));
    expect(bodyExamples(abc)).toEqual(['48213', '99120', '30077']);
    expect(parsePlanGraph(abc).ok).toBe(true);
    // Identical template strings stay as they are.
    const same = antiUnify(a, planFromEpisode(mailEpisode('cust-1', 'Dmitri', 48213), 's', NOW));
    expect(same.nodes.map((n) => n.params)).toEqual(a.nodes.map((n) => n.params));
  });

  it('does not split a number or a word between the constant and the input', () => {
    const a = planFromEpisode(mailEpisode('cust-1', 'Alice', 48213), 'p', NOW);
    const b = planFromEpisode(mailEpisode('cust-2', 'Bruno', 40217), 'q', NOW);
    expect(body(antiUnify(a, b))).toBe('Hi {{nodes.lookup.output.name}}, your order {{inputs.body}} has shipped.');
    expect(bodyExamples(antiUnify(a, b))).toEqual(['48213', '40217']);
  });

  it('makes the whole param an input when the difference cuts through a reference', () => {
    const a = planFromEpisode(mailEpisode('cust-1', 'Alice', 48213), 'p', NOW);
    // A twin (same structure) whose body holds no reference: its name did not come from the lookup.
    const b = { ...a, nodes: a.nodes.map((n) => (n.id === 'compose' ? { ...n, params: { body: 'Hi Bruno, your order 99120 has shipped.' } } : n)) };
    expect(body(b)).toBe('Hi Bruno, your order 99120 has shipped.');
    const merged = antiUnify(a, b);
    expect(body(merged)).toBe('{{inputs.body}}');
    expect(bodyExamples(merged)).toEqual(['Hi Bruno, your order 99120 has shipped.']);
    // The other way round too: the plan's literal is no reason to keep the twin's difference out.
    expect(body(antiUnify(b, a))).toBe('{{inputs.body}}');
    expect(bodyExamples(antiUnify(b, a))).toEqual(['Hi Bruno, your order 99120 has shipped.']);
  });

  it('keeps the plan’s text, rather than make an input no example shows how to fill, when both texts are templates', () => {
    const a = planFromEpisode(mailEpisode('cust-1', 'Alice', 48213), 'p', NOW);
    const withBody = (text: string) => ({ ...a, nodes: a.nodes.map((n) => (n.id === 'compose' ? { ...n, params: { body: text } } : n)) });
    const merged = antiUnify(withBody('Order {{inputs.order}} shipped.'), withBody('Order {{inputs.order}} for {{nodes.lookup.output.name}} shipped.'));
    expect(body(merged)).toBe('Order {{inputs.order}} shipped.');
    expect(Object.keys((merged.inputs_schema as { properties?: object }).properties ?? {})).not.toContain('body');
  });

  it('keeps the plan’s references when the twins differ in references alone', () => {
    const a = planFromEpisode(mailEpisode('cust-1', 'Alice', 48213), 'p', NOW);
    const other = { ...a, nodes: a.nodes.map((n) => (n.id === 'compose' ? { ...n, params: { body: 'Hi {{nodes.lookup.output.email}}, your order 48213 has shipped.' } } : n)) };
    expect(body(antiUnify(a, other))).toBe(body(a));
  });

  it('makes an input of a value one twin read off a result and its twin’s task stated, whichever came first', () => {
    const refund = (task: string, amount: number): EpisodicPayload =>
      episodicPayloadSchema.parse({
        kind: 'episodic',
        timeline: [{ t: 1, event_kind: 'user_message', summary: task }],
        tool_graph: [
          { id: 'get', tool: 'shop_get_order', args: { order_id: 'A-61204' }, result: { order_id: 'A-61204', price: 89 } },
          { id: 'refund', tool: 'shop_refund', args: { order_id: 'A-61204', amount }, depends_on: ['get'] },
          { id: 'reply', tool: 'helpdesk_reply', args: { body: 'Refunded' }, depends_on: ['refund'] },
        ],
        outcome: 'success',
      });
    const full = planFromEpisode(refund('Refund order A-61204', 89), 'p', NOW);
    const partial = planFromEpisode(refund('Give 15 back on order A-61204', 15), 'q', NOW);
    expect(full.nodes[1]!.params.amount).toBe('{{nodes.get.output.price}}');
    expect(partial.nodes[1]!.params.amount).toBe('{{inputs.amount}}');
    for (const merged of [antiUnify(full, partial), antiUnify(partial, full)]) {
      expect(merged.nodes[1]!.params.amount).toBe('{{inputs.amount}}');
      // Required: no literal default stands for what the lookup would have read.
      expect(merged.inputs_schema).toMatchObject({ properties: { amount: { examples: [15] } }, required: expect.arrayContaining(['amount']) });
      expect((merged.inputs_schema as { properties: Record<string, object> }).properties.amount).not.toHaveProperty('default');
    }
  });

  it('turns arrays of different lengths into an input', () => {
    const a = planFromEpisode(setupEpisode('https://git.example/acme/api', 'main'), 'p', NOW);
    const withTags = (p: typeof a, tags: string[]) => ({ ...p, nodes: p.nodes.map((n, i) => (i === 0 ? { ...n, params: { ...n.params, tags } } : n)) });
    const merged = antiUnify(withTags(a, ['alpha']), withTags(a, ['alpha', 'beta']));
    expect(merged.nodes[0]!.params.tags).toBe('{{inputs.tags}}');
    expect(merged.inputs_schema).toMatchObject({ properties: { tags: { examples: [['alpha'], ['alpha', 'beta']] } } });
  });
});
