/** The scenarios whose histories are committed under test/histories, one file each, by name. */
import { generateEpisodes } from '../../src/consolidation/generate-episodes';
import { planGraphPayloadSchema } from '../../src/domain/records';
import { createEpisodeStore } from '../../src/store/episodes';
import { createRecordStore } from '../../src/store/records';
import { decideWhenWaiting, echo, HISTORY_TASK_QUEUE, openedByStarterScenario, planScenario, resumeScenario, untilNodeRunning, type Scenario } from './scenario-kinds';

export const SCENARIOS: Scenario[] = [
  planScenario('chain', {
    intent: 'history: chain',
    nodes: [echo('fetch', { url: 'https://example.test' }), echo('parse'), echo('store')],
    edges: [
      { from: 'fetch', to: 'parse', kind: 'data' },
      { from: 'parse', to: 'store', kind: 'data' },
    ],
  }),
  planScenario('fan-out', {
    intent: 'history: fan-out and join',
    nodes: [echo('split'), echo('part_a'), echo('part_b'), echo('part_c'), echo('join')],
    edges: ['part_a', 'part_b', 'part_c'].flatMap((part) => [
      { from: 'split', to: part, kind: 'data' as const },
      { from: part, to: 'join', kind: 'data' as const },
    ]),
  }),
  planScenario('guards-skips', {
    intent: 'history: guards with skips',
    nodes: [
      echo('check', { urgent: false }),
      echo('page_oncall', {}, { eq: [{ ref: 'nodes.check.output.urgent' }, true] }),
      echo('file_ticket', {}, { eq: [{ ref: 'nodes.check.output.urgent' }, false] }),
      echo('confirm_page'),
    ],
    edges: [
      { from: 'check', to: 'page_oncall', kind: 'data' },
      { from: 'check', to: 'file_ticket', kind: 'data' },
      { from: 'page_oncall', to: 'confirm_page', kind: 'data' },
    ],
  }),
  planScenario('fail-fast', {
    intent: 'history: fail_fast failure',
    constraints: { failure_policy: 'fail_fast' },
    nodes: [
      { id: 'boom', op: 'fail', params: { type: 'upstream_down', message: 'upstream is down' } },
      { id: 'slow', op: 'timed', params: { ms: 3000 } },
      echo('after_boom'),
    ],
    edges: [{ from: 'boom', to: 'after_boom', kind: 'data' }],
  }),
  planScenario('retries', {
    intent: 'history: retried node',
    nodes: [
      { id: 'flaky', op: 'flaky', params: { fail_times: 2 }, policy: { retry: { maximum_attempts: 3, initial_interval: '100ms' } } },
      echo('after'),
    ],
    edges: [{ from: 'flaky', to: 'after', kind: 'data' }],
  }),
  planScenario('local-nodes', {
    intent: 'history: local nodes beside activities',
    nodes: [
      echo('load', { user: { name: 'ada' } }),
      { id: 'pick', op: 'json_pick', params: { from: '{{nodes.load.output.user}}', fields: { who: 'name' } } },
      { id: 'flaky_local', op: 'flaky', params: { fail_times: 1 }, policy: { execution: 'local', retry: { maximum_attempts: 3, initial_interval: '100ms' } } },
      { id: 'remote', op: 'echo', params: {}, policy: { execution: 'activity' } },
      { id: 'merge', op: 'json_merge', params: {} },
    ],
    edges: [
      { from: 'load', to: 'pick', kind: 'data' },
      { from: 'pick', to: 'merge', kind: 'data' },
      { from: 'flaky_local', to: 'merge', kind: 'data' },
      { from: 'remote', to: 'merge', kind: 'data' },
    ],
  }),
  planScenario(
    'cancellation',
    {
      intent: 'history: cancelled run',
      nodes: [{ id: 'long', op: 'timed', params: { ms: 60_000 }, policy: { heartbeat_timeout: '5s' } }, echo('never')],
      edges: [{ from: 'long', to: 'never', kind: 'data' }],
    },
    async (handle) => {
      await untilNodeRunning(handle, 'long');
      await handle.cancel();
    },
  ),
  planScenario(
    'approvals',
    {
      intent: 'history: approvals and the run gate',
      constraints: { requires_approval: true, approval_prompt: 'Start?' },
      nodes: [
        echo('build'),
        { id: 'ok', op: 'approval', params: { prompt: 'Deploy?' } },
        echo('deploy'),
        { id: 'late', op: 'approval', params: { prompt: 'Also notify?', timeout: '300ms' }, policy: { continue_on_error: true } },
      ],
      edges: [
        { from: 'build', to: 'ok', kind: 'control' },
        { from: 'ok', to: 'deploy', kind: 'data' },
      ],
    },
    async (handle) => {
      await decideWhenWaiting(handle, '$run', 'approve');
      await decideWhenWaiting(handle, 'ok', 'approve');
    },
  ),
  planScenario(
    'approval-rejected',
    {
      intent: 'history: a rejected run gate',
      constraints: { requires_approval: true },
      nodes: [echo('first'), { id: 'ok', op: 'approval', params: { prompt: 'Never asked' } }],
      edges: [{ from: 'first', to: 'ok', kind: 'data' }],
    },
    (handle) => decideWhenWaiting(handle, '$run', 'reject'),
  ),
  resumeScenario('resumed'),
  openedByStarterScenario('opened-by-starter'),
  planScenario('map', {
    intent: 'history: map node, one item failing, continue policy',
    constraints: { failure_policy: 'continue', max_parallelism: 2 },
    nodes: [
      echo('list', { items: [1, 2, 'three', 4] }),
      { id: 'sum', op: 'add', for_each: '{{nodes.list.output.items}}', params: { a: '{{item}}', b: '{{index}}' } },
      { id: 'each', op: 'echo', for_each: '{{nodes.list.output.items}}', params: { v: '{{item}}' } },
      echo('after', { sums: '{{nodes.each.output}}' }),
    ],
    edges: [
      { from: 'list', to: 'sum', kind: 'data' },
      { from: 'list', to: 'each', kind: 'data' },
      { from: 'each', to: 'after', kind: 'data' },
    ],
  }),
  // 1,001 items: two chunk child workflows, the second of one item (recorded next as map-chunk).
  planScenario('map-chunks', {
    intent: 'history: map node in chunks',
    nodes: [{ id: 'each', op: 'echo', for_each: '{{nodes.list.output.items}}', params: { i: '{{index}}' } }, echo('list', { items: Array.from({ length: 1001 }, (_, i) => i) })],
    edges: [{ from: 'list', to: 'each', kind: 'data' }],
  }),
  {
    name: 'map-chunk',
    async run({ client }) {
      return client.workflow.getHandle('history-map-chunks/each[1000-1000]');
    },
  },
  {
    name: 'sub-plan',
    async run({ client, db }, workflowId) {
      const records = createRecordStore(db);
      const childPayload = planGraphPayloadSchema.parse({
        kind: 'plan_graph',
        plan_id: 'history-sub-plan-child',
        intent: 'history: sub-plan child',
        inputs_schema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        nodes: [{ id: 'inc', op: 'add', params: { a: '{{inputs.x}}', b: 1 } }],
      });
      const child = await records.create({ type: 'plan_graph', sensitivity: 'low', confidence: 0.8, payload: childPayload });
      return planScenario('sub-plan', {
        intent: 'history: sub-plan',
        nodes: [
          echo('src', { v: 41 }),
          { id: 'sub', op: 'plan', params: { plan_id: child.id, inputs: { x: '{{nodes.src.output.v}}' } } },
          echo('after', { got: '{{nodes.sub.output.outputs.inc.sum}}' }),
        ],
        edges: [
          { from: 'src', to: 'sub', kind: 'data' },
          { from: 'sub', to: 'after', kind: 'data' },
        ],
      }).run({ client, db }, workflowId);
    },
  },
  // A plan run in partitions of 2 nodes: three runs joined by continue-as-new; the first and last are recorded.
  planScenario(
    'partitioned',
    {
      intent: 'history: partitioned run',
      nodes: [
        echo('p1', { v: 1 }),
        { id: 'p2', op: 'echo', params: { v: '{{nodes.p1.output.v}}' }, policy: { execution: 'activity' } },
        echo('p3', { v: '{{nodes.p2.output.v}}' }),
        { id: 'p4', op: 'echo', params: { v: '{{nodes.p3.output.v}}' }, policy: { execution: 'activity' } },
        echo('p5', { v: '{{nodes.p4.output.v}}' }),
      ],
      edges: ['p1', 'p2', 'p3', 'p4'].map((from, i) => ({ from, to: `p${i + 2}`, kind: 'data' as const })),
    },
    undefined,
    2,
  ),
  // A node reading an upstream output that is not there fails without running (UNRESOLVED_REF_VERSION); the rest go on.
  planScenario('unresolved-ref', {
    intent: 'history: unresolved output reference',
    constraints: { failure_policy: 'continue' },
    nodes: [
      { id: 'lookup', op: 'echo', params: { cluster: { name: 'c-7' } }, policy: { execution: 'activity' } },
      { id: 'scale', op: 'echo', params: { cluster_id: '{{nodes.lookup.output.cluster.id}}' }, policy: { execution: 'activity' } },
      { id: 'note', op: 'echo', params: { text: '{{nodes.lookup.output.cluster.name}} under {{run.id}}' }, policy: { execution: 'activity' } },
    ],
    edges: [
      { from: 'lookup', to: 'scale', kind: 'data' },
      { from: 'lookup', to: 'note', kind: 'data' },
    ],
  }),
  // The same in partitions of 2 nodes, which ask the `executor-unresolved-ref` patch.
  planScenario(
    'partitioned-unresolved-ref',
    {
      intent: 'history: unresolved output reference across partitions',
      constraints: { failure_policy: 'continue' },
      nodes: [
        { id: 'u1', op: 'echo', params: { cluster: { name: 'c-7' }, key: '{{run.id}}' }, policy: { execution: 'activity' } },
        echo('u2', { name: '{{nodes.u1.output.cluster.name}}' }),
        { id: 'u3', op: 'echo', params: { cluster_id: '{{nodes.u1.output.cluster.id}}' }, policy: { execution: 'activity' } },
      ],
      edges: [
        { from: 'u1', to: 'u2', kind: 'data' },
        { from: 'u1', to: 'u3', kind: 'data' },
      ],
    },
    undefined,
    2,
  ),
  {
    name: 'consolidation',
    async run({ client, db }, workflowId) {
      await createEpisodeStore(db).insertMany(generateEpisodes({ count: 5, seed: 7, prefix: 'history' }));
      const handle = await client.workflow.start('consolidationWorkflow', { taskQueue: HISTORY_TASK_QUEUE, workflowId, args: [{ page_size: 2 }] });
      await handle.result();
      return handle;
    },
  },
];
