import { describe, expect, it } from 'vitest';
import { describeValueConflicts, MAX_VALUE_CONFLICTS, valueConflicts, valueKind } from '../../src/domain/fixed-values';
import { holdReason } from '../../src/domain/holds';

/** A learned report plan: the host varies (an input), the recipient was the same in both episodes (fixed). */
const reportPlan = {
  intent: 'restart the billing workers and report',
  examples: ['restart the billing workers on w-7 and report', 'restart the billing workers on w-3 and report'],
  inputs_schema: { type: 'object', properties: { host: { type: 'string', examples: ['w-7', 'w-3'] } }, required: ['host'] },
  nodes: [
    { id: 'restart', params: { host: '{{inputs.host}}', action: 'restart' } },
    { id: 'report', params: { to: 'team@example.com', cc: ['ops@example.com'], subject: 'restarted {{inputs.host}}' } },
  ],
};

describe('a value the plan keeps fixed', () => {
  it('holds a task naming another value of the same kind that no input takes', () => {
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9 and report to eng-all@example.com')).toEqual([
      { task: 'eng-all@example.com', node: 'report', param: 'to', plan: 'team@example.com' },
      { task: 'eng-all@example.com', node: 'report', param: 'cc[0]', plan: 'ops@example.com' },
    ]);
  });

  it('lets the fixed values through, in any case, and any fixed value the task also names', () => {
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9 and report to Team@Example.com')).toEqual([]);
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9, report to team@example.com, cc eng@example.com')).toEqual([
      { task: 'eng@example.com', node: 'report', param: 'cc[0]', plan: 'ops@example.com' },
    ]);
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9 and report')).toEqual([]);
  });

  it('counts an address only named as a destination, not one mentioned in passing', () => {
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9 and report; requested by bob.smith@example.com')).toEqual([]);
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9 and report, see https://status.example.com/incidents/7')).toEqual([]);
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-9 and tell bob.smith@example.com').map((c) => c.task)).toEqual(['bob.smith@example.com', 'bob.smith@example.com']);
    // After the param's own name: "from" names the sender of a plan that fixes `from`.
    const sender = { ...reportPlan, nodes: [{ id: 'reply', params: { from: 'support@example.com' } }] };
    expect(valueConflicts(sender, 'reply on w-9 from billing@example.com')).toEqual([{ task: 'billing@example.com', node: 'reply', param: 'from', plan: 'support@example.com' }]);
    expect(valueConflicts(sender, 'reply on w-9, asked by billing@example.com')).toEqual([]);
  });

  it('never reads the plan\'s own verb as a fixed value: synonyms are the action gate\'s to judge', () => {
    const purge = { intent: 'purge the cdn cache for zone shop-apac', inputs_schema: {}, nodes: [{ id: 'p', params: { action: 'purge', zone: 'shop-apac' } }] };
    expect(valueConflicts(purge, 'please flush the cdn cache for zone shop-apac')).toEqual([]);
    expect(valueConflicts(purge, 'purge the cdn cache for zone shop-emea')).toEqual([{ task: 'shop-emea', node: 'p', param: 'zone', plan: 'shop-apac' }]);
  });

  it('reads no filler word as a value: "as usual" keeps the plan\'s format', () => {
    const exportPlan = { intent: 'export the sales report as csv and upload it', inputs_schema: {}, nodes: [{ id: 'e', params: { format: 'csv' } }] };
    for (const filler of ['usual', 'discussed', 'before']) expect(valueConflicts(exportPlan, `export the sales report as ${filler} and upload it`)).toEqual([]);
    expect(valueConflicts(exportPlan, 'export the sales report as pdf and upload it')).toEqual([{ task: 'pdf', node: 'e', param: 'format', plan: 'csv' }]);
  });

  it('leaves values an input takes to the input: read off the task, or of an input example\'s kind', () => {
    expect(valueConflicts(reportPlan, 'restart the billing workers on w-12 and report')).toEqual([]);
    const byUrl = {
      ...reportPlan,
      inputs_schema: { type: 'object', properties: { page: { type: 'string', examples: ['https://status.example.com/billing'] } } },
      nodes: [...reportPlan.nodes, { id: 'fetch', params: { url: 'https://api.example.com/v1/health' } }],
    };
    expect(valueConflicts(byUrl, 'check https://status.example.com/payments and report')).toEqual([]);
  });

  it('holds a task naming a value shaped as one inside a longer fixed param, unless the task names that one or an input takes the shape', () => {
    const sales = {
      intent: 'sales_report',
      examples: ['Email the weekly sales report for EMEA to finance', 'Email the weekly sales report for APAC to finance'],
      inputs_schema: { type: 'object', properties: { region: { type: 'string', examples: ['EMEA', 'APAC'] } }, required: ['region'] },
      nodes: [
        { id: 'query', params: { sql: "SELECT sum(total) FROM sales WHERE region = '{{inputs.region}}' AND week = '2025-W18'", url: 'https://bi.example/v1.2/run' } },
        { id: 'mail', params: { to: 'finance', subject: 'Sales {{inputs.region}}' } },
      ],
    };
    expect(valueConflicts(sales, 'Email the weekly sales report for APAC to finance for week 2025-W20')).toEqual([
      { task: '2025-W20', node: 'query', param: 'sql', plan: '2025-W18' },
    ]);
    expect(valueConflicts(sales, 'Email the weekly sales report for APAC to finance for week 2025-W18')).toEqual([]);
    expect(valueConflicts(sales, 'Email the weekly sales report for APAC to finance')).toEqual([]);
    // Values of another shape, or in a URL, are not that value.
    expect(valueConflicts(sales, 'Email the weekly sales report for APAC to finance, ticket INC-3071, api v1.3')).toEqual([]);
    const weekly = { ...sales, inputs_schema: { ...sales.inputs_schema, properties: { ...sales.inputs_schema.properties, week: { type: 'string', examples: ['2025-W17'] } } } };
    expect(valueConflicts(weekly, 'Email the weekly sales report for APAC to finance for week 2025-W20')).toEqual([]);
  });

  it('never holds a plan with a string input that could take anything', () => {
    const open = { ...reportPlan, inputs_schema: { type: 'object', properties: { note: { type: 'string' } } } };
    expect(valueConflicts(open, 'restart the billing workers and report to eng-all@example.com')).toEqual([]);
  });

  it('compares telling kinds only: addresses and identifiers with digits, not plain words or numbers', () => {
    expect(valueKind('team@example.com')).toBe('e-mail');
    expect(valueKind('https://api.example.com/v1')).toBe(valueKind('http://x.org'));
    expect(valueKind('eu-west-1')).toBe(valueKind('us-east-2'));
    expect(valueKind('T-102')).toBe('a-9');
    expect(valueKind('sup-10500')).toBe(valueKind('SUP-10102'));
    expect(valueKind('#ops-alerts')).toBe('channel');
    expect(valueKind('#77341')).toBeUndefined();
    expect(valueKind('billing')).toBeUndefined();
    expect(valueKind('100')).toBeUndefined();
    expect(valueKind('v2')).toBeUndefined();
    expect(valueKind('acme/web-app')).toBe(valueKind('initech/portal'));
    expect(valueKind('and/or')).toBeUndefined();
    const plan = { ...reportPlan, nodes: [{ id: 'scan', params: { region: 'eu-west-1', limit: '100', mode: 'fast' } }] };
    expect(valueConflicts(plan, 'scan w-1 in us-east-2, top 50, mode as usual')).toEqual([{ task: 'us-east-2', node: 'scan', param: 'region', plan: 'eu-west-1' }]);
  });

  it('compares members of closed classes: formats, currencies, languages, environments', () => {
    const report = {
      ...reportPlan,
      nodes: [{ id: 'render', params: { format: 'csv', currency: 'USD', language: 'en', environment: 'production' } }],
    };
    const held = (task: string) => valueConflicts(report, task).map((c) => `${c.param}:${c.task}`);
    expect(held('report on w-9 as a PDF, in EUR')).toEqual(['format:PDF', 'currency:EUR']);
    expect(held('report on w-9 in Spanish')).toEqual(['language:Spanish']);
    // Another spelling of the plan's own value, and a code as common as "it", name nothing else.
    expect(held('report on w-9 as CSV in English against prod, it is urgent')).toEqual([]);
    // An environment names where the job runs only after a word saying so, not in "the dev team".
    expect(held('report on w-9 to staging')).toEqual(['environment:staging']);
    expect(held('report on w-9 and tell the dev team')).toEqual([]);
  });

  it('reads the word beside a fixed param\'s name: "in the staging namespace", "tier 3", "90-day retention"', () => {
    const scale = {
      intent: 'scale a deployment to a number of replicas',
      inputs_schema: { type: 'object', required: ['deployment'], properties: { deployment: { type: 'string', examples: ['checkout-api', 'cart-api'] } } },
      nodes: [{ id: 'scale', op: 'kube_scale', params: { deployment: '{{inputs.deployment}}', namespace: 'payments', tier: 'tier-2', retention_days: 30, strategy: 'rolling' } }],
    };
    const held = (task: string) => valueConflicts(scale, task).map((c) => `${c.param}:${c.task}`);
    expect(held('scale checkout-api in the risk namespace')).toEqual(['namespace:risk']);
    expect(held('scale checkout-api, namespace risk')).toEqual(['namespace:risk']);
    expect(held('scale checkout-api at tier 3 with 90-day retention')).toEqual(['tier:3', 'retention_days:90-day']);
    expect(held('scale checkout-api using a blue-green strategy')).toEqual(['strategy:blue-green']);
    // The plan's own values in other spellings, and words the plan's own wording holds or that say nothing.
    expect(held('scale checkout-api in the payments namespace at tier 2, 30-day retention, rolling strategy')).toEqual([]);
    expect(held('scale checkout-api with our usual deployment strategy, then update the strategy doc')).toEqual([]);
    expect(held('scale checkout-api; check the namespace first')).toEqual([]);
    // A word of the plan's own wording, whole or in parts, says nothing; nor does the plan's own text asked again.
    const room = { intent: 'book a meeting room loop-8093f1107f', inputs_schema: {}, nodes: [{ id: 'find', params: { room: 'any' } }] };
    expect(valueConflicts(room, 'book a meeting room loop-8093f1107f')).toEqual([]);
    expect(valueConflicts(room, 'please book a meeting room loop-8093f1107f')).toEqual([]);
    expect(valueConflicts(room, 'book a meeting room 42')).toEqual([{ task: '42', node: 'find', param: 'room', plan: 'any' }]);
  });

  it('holds a period the plan is worded for where the task names another', () => {
    const weekly = {
      intent: 'weekly_sales_report',
      description: 'Build the weekly sales report for EMEA and post it to #sales',
      examples: ['Build the weekly sales report for EMEA and post it to #sales', 'Build the weekly sales report for APAC and post it to #sales'],
      inputs_schema: { type: 'object', required: ['region'], properties: { region: { type: 'string', examples: ['EMEA', 'APAC'] } } },
      nodes: [{ id: 'query', params: { region: '{{inputs.region}}', since: '2025-03-10' } }],
    };
    expect(valueConflicts(weekly, 'Build the monthly sales report for EMEA and post it to #sales')).toEqual([{ task: 'monthly', node: '', param: '', plan: 'weekly' }]);
    expect(describeValueConflicts(valueConflicts(weekly, 'Build the quarterly sales report for LATAM'))).toBe('the task names "quarterly" where the best match is worded for "weekly", and the plan takes no input for it');
    // The same period in other words, or the plan's period named beside another, is the plan's job.
    expect(valueConflicts(weekly, 'Build the sales report for LATAM, weekly as always')).toEqual([]);
    expect(valueConflicts(weekly, 'Build the weekly sales report for LATAM and compare it with the monthly totals')).toEqual([]);
    expect(valueConflicts(weekly, 'Build the sales report for LATAM')).toEqual([]);
    // A plan taking the period as an input does any period.
    const any = { ...weekly, inputs_schema: { type: 'object', required: ['period'], properties: { period: { type: 'string', examples: ['weekly', 'monthly'] } } } };
    expect(valueConflicts(any, 'Build the quarterly sales report for EMEA')).toEqual([]);
  });

  it('reads no value in an aside', () => {
    const route = {
      intent: 'route a support ticket to the right queue',
      inputs_schema: { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string', examples: ['T-9001'] } } },
      nodes: [{ id: 'route', params: { ticket: '{{inputs.ticket}}', channel: '#support' } }],
    };
    expect(valueConflicts(route, 'Route support ticket T-9120 (raised in #billing) to the right queue')).toEqual([]);
    expect(valueConflicts(route, 'Route support ticket T-9120 to the right queue and post it in #billing')).toEqual([{ task: '#billing', node: 'route', param: 'channel', plan: '#support' }]);
  });

  it('holds an address the task sends to of a kind the plan has nowhere', () => {
    const post = {
      intent: 'weekly_sales_report',
      description: 'Build the weekly sales report for EMEA and post it to #sales',
      inputs_schema: { type: 'object', required: ['region', 'channel'], properties: { region: { type: 'string', examples: ['EMEA'] }, channel: { type: 'string', examples: ['#sales'] } } },
      nodes: [{ id: 'post', params: { region: '{{inputs.region}}', channel: '{{inputs.channel}}', text: 'Weekly sales' } }],
    };
    expect(valueConflicts(post, 'Email the weekly sales report for EMEA to cfo@corp.example')).toEqual([{ task: 'cfo@corp.example', node: '', param: '', plan: '' }]);
    expect(describeValueConflicts(valueConflicts(post, 'Email the weekly sales report for EMEA to cfo@corp.example'))).toMatch(/^the task names "cfo@corp.example" where the best match has no such address to send to/);
    // Mentioned in passing, or where the plan has an address of that kind somewhere (whole or in part), it says nothing.
    expect(valueConflicts(post, 'Post the weekly sales report for EMEA, requested by cfo@corp.example')).toEqual([]);
    expect(valueConflicts(post, 'Post the weekly sales report for EMEA to #sales; questions go to cfo@corp.example')).toEqual([]);
    expect(valueConflicts(post, 'Build the weekly sales report for EMEA and send it to cfo@corp.example')).toHaveLength(1);
    const mailing = { ...post, nodes: [{ id: 'post', params: { region: '{{inputs.region}}', to: '{{inputs.to_mailbox}}@corp.example' } }] };
    expect(valueConflicts(mailing, 'Email the weekly sales report for EMEA to cfo@corp.example')).toEqual([]);
  });

  it('reads a duration in its unit: "a 2 hour timeout" is not 1800 s, "30 minutes" is', () => {
    const restart = {
      intent: 'restart a service and wait for it',
      inputs_schema: { type: 'object', required: ['service'], properties: { service: { type: 'string', examples: ['billing-api', 'cart-api'] } } },
      nodes: [{ id: 'restart', params: { service: '{{inputs.service}}', timeout_s: 1800, retentionDays: 30, ttl: 3600 } }],
    };
    const held = (task: string) => valueConflicts(restart, task).map((c) => `${c.param}:${c.task}`);
    expect(held('restart billing-api with a 2 hour timeout')).toEqual(['timeout_s:2 hour']);
    expect(held('restart billing-api, timeout of 10 minutes')).toEqual(['timeout_s:10 minutes']);
    expect(held('restart billing-api with a 1-year retention')).toEqual(['retentionDays:1-year']);
    expect(held('restart billing-api with a ttl of 2 hours')).toEqual(['ttl:2 hours']);
    // The plan's own values in other units.
    expect(held('restart billing-api with a 30 minute timeout, 30-day retention')).toEqual([]);
    expect(held('restart billing-api, timeout of 1800 seconds, ttl of 1 hour')).toEqual([]);
    expect(held('restart billing-api with a ttl of 60 minutes')).toEqual([]);
    // The plan's number in another unit is another value; thousands separators group digits.
    expect(held('restart billing-api with a timeout of 1800 minutes')).toEqual(['timeout_s:1800 minutes']);
    expect(held('restart billing-api with a timeout of 1,800 seconds, a 1,800-second ttl')).toEqual(['ttl:1,800-second']);
    // The name set to a value, or written as a key.
    expect(held('restart billing-api with the timeout set to 3600')).toEqual(['timeout_s:3600']);
    expect(held('restart billing-api, timeout_s=900')).toEqual(['timeout_s:900']);
  });

  it('reads two-word names, numbers after a preposition, and no word the name only qualifies', () => {
    const sync = {
      intent: 'sync a table into the warehouse',
      inputs_schema: { type: 'object', required: ['table'], properties: { table: { type: 'string', examples: ['orders_v2', 'users_v7'] } } },
      nodes: [{ id: 'sync', params: { table: '{{inputs.table}}', cms_space: 'corporate-blog', due_days: 30, mailingList: 'subscribers' } }],
    };
    const held = (task: string) => valueConflicts(sync, task).map((c) => `${c.param}:${c.task}`);
    expect(held('sync orders_v3 into the handbook CMS space instead')).toEqual(['cms_space:handbook']);
    expect(held('sync orders_v3, due in 60 days')).toEqual(['due_days:60 days']);
    expect(held('sync orders_v3 to the beta mailing list')).toEqual(['mailingList:beta']);
    expect(held('sync orders_v3 and update the audience list docs')).toEqual([]);
    expect(held('sync orders_v3, due in 30 days')).toEqual([]);
  });

  it('reads signs, plurals, locales and cloud regions as their class; a value set aside is not asked for', () => {
    const plan = {
      ...reportPlan,
      inputs_schema: { type: 'object', required: ['group'], properties: { group: { type: 'string', examples: ['store-berlin-01', 'store-paris-02'] } } },
      nodes: [{ id: 'job', params: { group: '{{inputs.group}}', currency: 'EUR', locale: 'en-US', format: 'csv', region: 'eu-west-1', compression: 'zstd' } }],
    };
    const held = (task: string) => valueConflicts(plan, task).map((c) => `${c.param}:${c.task}`);
    expect(held('run for store-rome-03: refund $40')).toEqual(['currency:$40']);
    expect(held('run for store-rome-03 as PDFs, in French')).toEqual(['format:PDFs', 'locale:French']);
    // A region is no group name, though both are shaped `a-a-9`; the place a region is called by counts after "in".
    expect(held('run for store-rome-03 in us-east-1')).toEqual(['region:us-east-1']);
    expect(held('run for store-rome-03 in Frankfurt')).toEqual(['region:Frankfurt']);
    expect(held('run for store-rome-03 in the Ireland region, €12 refund')).toEqual([]);
    expect(held('run for store-rome-03, gzip it instead of zstd')).toEqual(['compression:gzip']);
    expect(held('run for store-rome-03, zstd as usual')).toEqual([]);
  });

  it('reads another value where the plan\'s phrasings state a fixed one, whatever its kind', () => {
    const learned = {
      intent: 'ask deploy service 82 for https://git.example/acme/web-18 on branch hotfix',
      examples: ['ask deploy service 82 for https://git.example/acme/web-18 on branch hotfix', 'ask deploy service 82 for https://git.example/acme/api-3 on branch main'],
      inputs_schema: {
        type: 'object',
        required: ['url', 'branch'],
        properties: { url: { type: 'string', examples: ['https://git.example/acme/web-18', 'https://git.example/acme/api-3'] }, branch: { type: 'string', examples: ['hotfix', 'main'] } },
      },
      nodes: [{ id: 'ask', params: { service: 82, url: '{{inputs.url}}', branch: '{{inputs.branch}}' } }],
    };
    expect(valueConflicts(learned, 'ask deploy service 900160 for https://git.example/initech/portal-857 on branch feature-82')).toEqual([
      { task: '900160', node: 'ask', param: 'service', plan: '82' },
    ]);
    // The plan's own value, and new values of its inputs, run.
    expect(valueConflicts(learned, 'ask deploy service 82 for https://git.example/initech/portal-857 on branch feature-82')).toEqual([]);
    // A fixed word stated in the phrasings: "pick the phone" is not the plan's "pick the email".
    const pick = { intent: 'pick the email of the customer', inputs_schema: {}, nodes: [{ id: 'p', params: { field: 'email' } }] };
    expect(valueConflicts(pick, 'pick the phone of the customer')).toEqual([{ task: 'phone', node: 'p', param: 'field', plan: 'email' }]);
    expect(valueConflicts(pick, 'pick the email of the customer')).toEqual([]);
    expect(valueConflicts(pick, 'pick the email of the new customer')).toEqual([]);
    // A part of the fixed value, or a plain word where it is a version, is not another value.
    const rollout = { intent: 'roll out firmware 4.2.1 to a group and log it in the rollouts-2024 sheet', inputs_schema: {}, nodes: [{ id: 'r', params: { firmware: '4.2.1', sheet: 'rollouts-2024' } }] };
    expect(valueConflicts(rollout, 'roll out the firmware update to a group and log it in the rollouts sheet')).toEqual([]);
    expect(valueConflicts(rollout, 'roll out firmware 4.3.0 to a group')).toEqual([{ task: '4.3.0', node: 'r', param: 'firmware', plan: '4.2.1' }]);
  });

  it('holds a number the task gives for something the plan does but has nowhere to take', () => {
    const refund = {
      intent: 'give_full_refund',
      examples: ['Give ch_Ab12Cd3E a full refund, the parcel never arrived'],
      inputs_schema: { type: 'object', properties: { charge: { type: 'string', examples: ['ch_Ab12Cd3E'] }, note: { type: 'string', examples: ['the parcel never arrived'] } } },
      nodes: [
        { id: 'get', params: { url: 'https://pay.example/v1/charges/{{inputs.charge}}' } },
        { id: 'refund', params: { url: 'https://pay.example/v1/refunds', body: { charge: '{{nodes.get.output.id}}', amount: '{{nodes.get.output.amount}}' } } },
      ],
    };
    expect(valueConflicts(refund, 'Give ch_Ww40Jj8N a partial refund of 1500; parcel got lost in transit')).toEqual([{ task: '1500', node: '', param: '', plan: '' }]);
    expect(valueConflicts(refund, 'Refund ch_Ww40Jj8N in full, the customer waited 14 days')).toEqual([]);
    const reasoned = { ...refund, nodes: [refund.nodes[0]!, { id: 'refund', params: { ...refund.nodes[1]!.params, reason: 'requested_by_customer' } }] };
    expect(valueConflicts(reasoned, 'Give ch_Ww40Jj8N a full refund with reason fraudulent; parcel got lost in transit')).toEqual([
      { task: 'fraudulent', node: 'refund', param: 'reason', plan: 'requested_by_customer' },
    ]);
    const rollback = {
      intent: 'revert',
      examples: ['orders-svc is broken in production, revert it to revision 7'],
      inputs_schema: { type: 'object', properties: { service: { type: 'string', examples: ['orders-svc'] } } },
      nodes: [{ id: 'undo', params: { cmd: 'kubectl -n apps-prd rollout undo deployment/{{inputs.service}} --to-revision=7 --replicas=3' } }],
    };
    expect(valueConflicts(rollback, 'billing-api is broken too, revert it to revision 9')).toEqual([{ task: '9', node: '', param: '', plan: '' }]);
    expect(valueConflicts(rollback, 'revert billing-api to revision 7 with 4 replicas')).toEqual([{ task: '4', node: '', param: '', plan: '' }]);
    // A number of time, or one an input takes, is no such number.
    expect(valueConflicts(rollback, 'revert billing-api within 10 minutes')).toEqual([]);
    const numbered = { ...rollback, inputs_schema: { type: 'object', properties: { ...rollback.inputs_schema.properties, revision: { type: 'integer', examples: [7] } } } };
    expect(valueConflicts(numbered, 'revert billing-api to revision 9')).toEqual([]);
    expect(holdReason({ value_conflict: valueConflicts(refund, 'partial refund of 1500 on ch_Ww40Jj8N') })).toBe('the task names 1500, and the plan takes no input for it');
  });

  it('lists at most MAX_VALUE_CONFLICTS of a big plan that repeats a param in every node', () => {
    const nodes = Array.from({ length: 500 }, (_, i) => ({ id: `n${i}`, params: { namespace: 'payments', format: 'csv' } }));
    const conflicts = valueConflicts({ ...reportPlan, nodes }, 'restart the billing workers on w-9 in the risk namespace as a PDF');
    expect(conflicts).toHaveLength(MAX_VALUE_CONFLICTS);
    expect(new Set(conflicts.map((c) => `${c.node}/${c.param}`)).size).toBe(MAX_VALUE_CONFLICTS);
  });

  it('is said in words, and is a reason to hold the pick', () => {
    const conflicts = valueConflicts(reportPlan, 'restart the billing workers on w-9 and report to eng-all@example.com').slice(0, 1);
    const said = 'the task names "eng-all@example.com" where the best match always uses "team@example.com" (node report, param to), and the plan takes no input for it';
    expect(describeValueConflicts(conflicts)).toBe(said);
    expect(holdReason({ value_conflict: conflicts })).toBe(said);
    expect(holdReason({})).toBeUndefined();
  });
});
