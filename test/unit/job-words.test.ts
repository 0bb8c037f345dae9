import { describe, expect, it } from 'vitest';
import { callOverlap, jobName, jobOf, SAME_CALLS, sameJob } from '../../src/consolidation/job-words';
import { assignJobs } from '../../src/consolidation/job-pools';
import { planFromEpisode } from '../../src/consolidation/episode-to-plan';
import { shapeKey } from '../../src/domain/structure';
import type { EpisodicPayload, PlanGraphPayload } from '../../src/domain/records';

/** A plan learned from one task whose input values are `values`. */
const learned = (task: string, ...values: string[]) => ({
  examples: [task],
  nodes: [],
  inputs_schema: { type: 'object', properties: Object.fromEntries(values.map((v, i) => [`input_${i}`, { type: 'string', examples: [v] }])) },
});

/** The job of a three-call chain learned from a task whose calls sent these args. */
const job = (task: string, ...calls: Array<Record<string, unknown>>) =>
  jobOf({
    examples: [task],
    nodes: calls.map((params, i) => ({ id: `n${i}`, op: 'bash', params, guards: {} })),
    edges: calls.slice(1).map((_, i) => ({ from: `n${i}`, to: `n${i + 1}`, kind: 'control' as const })),
  });
const deploy = (service: string, env: string, note = 'done') =>
  job(`Deploy ${service} to ${env}`, { cmd: `make build SERVICE=${service}` }, { cmd: `kubectl apply -f deploy/${service}.yaml -n ${env}` }, { cmd: `kubectl rollout status deploy/${service} -n ${env}`, note });
const rollback = (service: string, env: string) =>
  job(`Undo the last deploy of ${service} on ${env}`, { cmd: `kubectl rollout history deploy/${service} -n ${env}` }, { cmd: `kubectl rollout undo deploy/${service} -n ${env}` }, { cmd: `kubectl rollout status deploy/${service} -n ${env}`, note: 'done' });

describe('job words', () => {
  it('names a job from its task: the leading verb and first words, no values, digits or politeness', () => {
    expect(jobName("What's the weather in Paris?", learned('', 'Paris'))).toBe('weather');
    expect(jobName('Refund order 8812 for alice@example.com', learned('', '8812', 'alice@example.com'))).toBe('refund_order');
    expect(jobName('Please roll back payments on staging', learned('', 'payments', 'staging'))).toBe('roll_back');
    expect(jobName('Show me the refund status of order 77', learned('', '77'))).toBe('show_refund_status');
    // A phrase the task was cut into is no value: its words still say what the task is.
    expect(jobName('Find the account of ana@example.com', learned('', 'ana@example.com', 'account of ana@example.com'))).toBe('find_account');
    expect(jobName('do it again for 42', learned('', '42'))).toBeUndefined();
    // A word a call says too is a value the calls use, unless nothing else names the job.
    const kubectl = (cmd: string) => ({ inputs_schema: {}, nodes: [{ id: 'a', op: 'bash', params: { cmd }, guards: {} }] });
    expect(jobName('Deploy ledger to staging', kubectl('kubectl apply -f deploy/ledger.yaml -n staging'))).toBe('deploy');
    expect(jobName('weather in Paris', kubectl('curl https://weather.example/?q=Paris'))).toBe('weather');
    // A name written capitalised inside the sentence is a value of this task; without a verb, words the calls hold fill a name of one word.
    expect(jobName('Draft a reply to Marcus about the hiring plan', learned(''))).toBe('draft_reply_hiring');
    expect(jobName('Weather for the Berlin trip on Thursday', learned(''))).toBe('weather_trip');
    const sql = (text: string) => ({ inputs_schema: {}, nodes: [{ id: 'a', op: 'sql_query', params: { sql: text }, guards: {} }] });
    expect(jobName('How many rows are in invoices?', sql('SELECT COUNT(*) AS rows FROM invoices'))).toBe('many_rows');
    expect(jobName('How many rows are in Invoices?', { ...sql('SELECT 1'), nodes: [] })).toBe('many_rows');
  });

  it('tells jobs apart by what their calls say once the values the tasks state are left out', () => {
    expect(callOverlap(deploy('payments', 'staging'), deploy('search', 'production', 'all set, see above'))).toBeGreaterThanOrEqual(SAME_CALLS);
    expect(sameJob(deploy('payments', 'staging'), deploy('search', 'production'))).toBe(true);
    expect(callOverlap(deploy('payments', 'staging'), rollback('payments', 'staging'))).toBeLessThan(SAME_CALLS);
    expect(sameJob(deploy('payments', 'staging'), rollback('search', 'canary'))).toBe(false);
    // Wholly other words for the same calls are the same job ("Is billing healthy?", "Check the status of billing").
    const status = (task: string, service: string) => job(task, { url: `https://status.example/api/${service}` }, { url: 'https://metrics.example/uptime' }, { cmd: 'echo ok' });
    expect(sameJob(status(`Is ${'billing'} healthy?`, 'billing'), status('Check the status of search', 'search'))).toBe(true);
  });

  it('reads a code in capitals as a value, even one spelling a stop word', () => {
    const rate = (task: string, country: string) =>
      job(task, { url: `https://api.shop.example/v2/shipping_zones?country=${country}` }, { url: 'https://api.shop.example/v2/rates/standard', body: { price: 5 } }, { cmd: 'echo ok' });
    expect(sameJob(rate('Set AT standard shipping to 7.20 EUR', 'AT'), rate('Update the standard shipping rate for Germany (DE) to 4.90', 'DE'))).toBe(true);
  });

  it('never takes one call with another classed action for the same job', () => {
    const workers = (verb: string) => job(`${verb} the billing workers`, { url: 'https://ops.example/workers/billing' }, { url: 'https://ops.example/workers', body: { action: verb.toLowerCase() } }, { cmd: 'echo ok' });
    expect(callOverlap(workers('Restart'), workers('Stop'))).toBeGreaterThanOrEqual(SAME_CALLS);
    expect(sameJob(workers('Restart'), workers('Stop'))).toBe(false);
    expect(sameJob(workers('Restart'), workers('Bounce'))).toBe(true);
  });
});

describe('jobs through tools named for what they do', () => {
  /** A follow-up task for a rep: contact and rep looked up, then the task created; ops named for what they do. */
  const followUp = (task: string, rep: string, title: string, due: string, extra: Record<string, string> = {}) =>
    jobOf({
      examples: [task],
      nodes: [
        { id: 'contact', op: 'crm_find_contact', params: { query: '{{inputs.query}}' }, guards: {} },
        { id: 'rep', op: 'crm_find_user', params: { name: rep }, guards: {} },
        { id: 'task', op: 'task_create', params: { assignee_id: '{{nodes.rep.output.user_id}}', title, due_date: due, priority: 'normal', ...extra }, guards: {} },
      ],
      edges: [],
    });

  it('are one job whatever values the agent resolved itself', () => {
    const monday = followUp('Create a follow-up task for Ali to call Priya Raman back on Monday', 'Ali Khan', 'Call back {{nodes.contact.output.name}}', '2026-11-09');
    const report = followUp('Task for Jamie Smith: follow up with Ben Carter on the SOC2 report', '{{inputs.name}}', 'Follow up with {{nodes.contact.output.name}} on SOC2', '{{inputs.due_date}}');
    expect(sameJob(monday, report)).toBe(true);
    // Other args are another call: a task with a reminder is not the same job.
    expect(callOverlap(monday, followUp('Remind Ali to call Priya', 'Ali Khan', 'Call', '2026-11-09', { remind_at: '09:00' }))).toBeLessThan(1);
  });
});

describe('jobs through one API', () => {
  const api = 'https://api.shop.example/v1';
  const auth = { Authorization: 'Bearer sk_live_agent' };
  /** An order looked up, then refunded or its charge captured, then a note added: as an agent calls one payments API. */
  const payment = (task: string, order: string, charge: string, capture: boolean) =>
    planFromEpisode(
      {
        timeline: [{ t: 0, event_kind: 'user_message', summary: task }],
        tool_graph: [
          { id: 'get', tool: 'http_request', args: { method: 'GET', url: `${api}/orders/${order}`, headers: auth }, result: { body: { id: order, charge_id: charge, amount: 4200 } }, depends_on: [] },
          capture
            ? { id: 'act', tool: 'http_request', args: { method: 'POST', url: `${api}/charges/${charge}/capture`, headers: auth, body: { amount: 4200 } }, depends_on: ['get'] }
            : { id: 'act', tool: 'http_request', args: { method: 'POST', url: `${api}/refunds`, headers: auth, body: { charge, amount: 4200, reason: 'requested_by_customer' } }, depends_on: ['get'] },
          { id: 'note', tool: 'http_request', args: { method: 'POST', url: `${api}/orders/${order}/notes`, headers: auth, body: { text: `${capture ? 'Captured' : 'Refunded'} ${charge}` } }, depends_on: ['act'] },
        ],
        outcome: 'success',
      } as unknown as EpisodicPayload,
      'p',
      '',
    );

  it('takes a call to another address for another job, however alike the calls around it', () => {
    const refund = jobOf(payment('Please refund order 558812, the item arrived damaged', '558812', 'ch_3NxA91', false));
    const twin = jobOf(payment('Customer wants their money back for order 612977', '612977', 'ch_3NzC33', false));
    const capture = jobOf(payment('Capture the payment for order 558813', '558813', 'ch_3QaE55', true));
    expect(sameJob(refund, twin)).toBe(true);
    expect(callOverlap(refund, capture)).toBeGreaterThanOrEqual(SAME_CALLS);
    expect(sameJob(refund, capture)).toBe(false);
  });

  it('reads the verb a task starts with as what a call does where its address has it, not as a value', () => {
    const charge = (task: string, id: string, action: string) =>
      jobOf(
        planFromEpisode(
          {
            timeline: [{ t: 0, event_kind: 'user_message', summary: task }],
            tool_graph: ['GET', 'POST', 'POST'].map((method, i) => ({
              id: `c${i}`,
              tool: 'http_request',
              args: { method, url: i === 1 ? `${api}/charges/${id}/${action}` : `${api}/charges/${id}` },
              depends_on: i ? [`c${i - 1}`] : [],
            })),
            outcome: 'success',
          } as unknown as EpisodicPayload,
          'p',
          '',
        ),
      );
    const capture = charge('Capture the authorized payment ch_5Pz11Ka', 'ch_5Pz11Ka', 'capture');
    expect(sameJob(capture, charge('please capture ch_8Hc40Mn', 'ch_8Hc40Mn', 'capture'))).toBe(true);
    expect(sameJob(capture, charge('cancel the pending charge ch_6Ff84Hv', 'ch_6Ff84Hv', 'cancel'))).toBe(false);
  });
});

describe('job assignment', () => {
  /** A chat-log episode of three generic calls: to `path` with the task's value, a fixed one, and an echo of the value. */
  const episode = (task: string, value: string, path: string): EpisodicPayload =>
    ({
      kind: 'episodic',
      timeline: [
        { t: 0, event_kind: 'user_message', summary: task },
        { t: 1, event_kind: 'tool_call' },
      ],
      tool_graph: [
        { id: 'a', tool: 'http_request', args: { url: `https://api.example.com/${path}/${value}` }, depends_on: [] },
        { id: 'b', tool: 'http_request', args: { url: `https://api.example.com/${path}/latest` }, depends_on: ['a'] },
        { id: 'c', tool: 'bash', args: { cmd: `echo ${value}` }, depends_on: ['b'] },
      ],
      outcome: 'success',
    }) as unknown as EpisodicPayload;
  const plan = (task: string, value: string, path = 'forecast') => planFromEpisode(episode(task, value, path), 'p', '');
  const candidate = (p: PlanGraphPayload, envelope = 'low\u0000') => ({ plan: p, envelope, toolsIntent: 'http_request_bash' });

  it('names plans of chat-log episodes from their task, and twins doing one job take the first name', () => {
    const weather = plan("What's the weather in Paris?", 'Paris');
    const berlin = plan('Weather for Berlin tomorrow', 'Berlin');
    const refund = plan('Refund order 8812 please', '8812', 'refunds');
    expect([weather.intent, berlin.intent, refund.intent]).toEqual(['weather', 'weather_tomorrow', 'refund_order']);
    const assigned = assignJobs([candidate(weather), candidate(refund), candidate(berlin)], new Map());
    expect(assigned.map((p) => p.intent)).toEqual(['weather', 'refund_order', 'weather']);
  });

  it('joins a stored plan of the job, but never one another envelope may see', () => {
    const berlin = plan('Weather for Berlin tomorrow', 'Berlin');
    const stored = { intent: 'check_weather', envelope: 'low\u0000', job: jobOf(plan('Check the weather in Rome', 'Rome')) };
    const pools = () => new Map([[shapeKey(berlin), [{ ...stored }]]]);
    expect(assignJobs([candidate(berlin)], pools())[0]!.intent).toBe('check_weather');
    expect(assignJobs([candidate(berlin, 'high\u0000')], pools())[0]!.intent).toBe('weather_tomorrow');
    // The same words, other calls: another job.
    const elsewhere = plan('Weather for Berlin tomorrow', 'Berlin', 'climate-archive');
    expect(assignJobs([candidate(elsewhere)], pools())[0]!.intent).toBe('weather_tomorrow');
  });
});
