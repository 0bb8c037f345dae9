/**
 * Scenario: an agent that logs only chat turns and tool calls (`user_message`, `tool_call`) and
 * does a dozen jobs through three generic shapes (three `http_request` calls, three `bash`
 * commands, two requests and a command). Its episodes are consolidated; the plans learned are
 * checked against the job each episode did, beside the rule before plans were named from their
 * task (one plan per tools and edges); then new tasks in the agent's words are retrieved.
 */
import { sql } from 'drizzle-orm';
import { runConsolidationOnce } from '../../src/consolidation/run-once';
import type { NewEpisode, TrustContext } from '../../src/domain/records';
import { createEmbedder } from '../../src/embeddings/embedder';
import { createRetriever } from '../../src/retrieval/retrieve';
import { createEpisodeStore } from '../../src/store/episodes';
import { seededRandom } from '../../src/prng';
import type { BenchEnv } from '../lib/environment';
import type { Scenario } from '../lib/scenario';
import { round } from '../lib/stats';

const EPISODES_PER_JOB = 30;
const QUERIES = 240;

type Shape = 'http' | 'bash' | 'mixed';
type Values = Record<string, string>;

/** A job: how the agent's user words it, the values it varies, and the three calls it makes. */
interface Job {
  name: string;
  shape: Shape;
  templates: string[];
  values: (pick: <T>(items: readonly T[]) => T, n: () => number) => Values;
  calls: (v: Values) => [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
}

const CITIES = ['Paris', 'Berlin', 'Lima', 'Osaka', 'Nairobi', 'Toronto', 'Madrid', 'Hanoi'];
const SERVICES = ['payments', 'checkout', 'search', 'billing', 'ledger', 'gateway'];
const ENVS = ['staging', 'production', 'canary'];
const REPOS = ['acme/api', 'acme/web', 'globex/cli', 'initech/portal'];
const CHANNELS = ['#ops', '#support', '#releases', '#oncall'];
const TOOLS: Record<Shape, [string, string, string]> = { http: ['http_request', 'http_request', 'http_request'], bash: ['bash', 'bash', 'bash'], mixed: ['http_request', 'http_request', 'bash'] };

const JOBS: Job[] = [
  {
    name: 'weather', shape: 'http',
    templates: ["What's the weather in {city}?", 'weather for {city} please', 'Check the weather forecast for {city}', 'How is the weather in {city} today?'],
    values: (pick) => ({ city: pick(CITIES) }),
    calls: (v) => [{ method: 'GET', url: `https://geo.example/search?q=${v.city}` }, { method: 'GET', url: 'https://weather.example/v1/forecast' }, { method: 'POST', url: 'https://chat.example/reply', body: { text: `Weather for ${v.city}` } }],
  },
  {
    name: 'refund', shape: 'http',
    templates: ['Refund order {order}', 'Please refund order {order}, it arrived broken', 'Issue a refund for order {order}', 'Refund the customer for order {order}'],
    values: (_, n) => ({ order: String(10_000 + n()) }),
    calls: (v) => [{ method: 'GET', url: `https://shop.example/orders/${v.order}` }, { method: 'POST', url: 'https://pay.example/refunds', body: { order: v.order } }, { method: 'POST', url: 'https://mail.example/send', body: { template: 'refund' } }],
  },
  {
    name: 'issue', shape: 'http',
    templates: ['Open an issue in {repo} about {topic}', 'Create a GitHub issue on {repo}: {topic}', 'File a bug in {repo} for {topic}', 'Open a ticket in {repo}: {topic}'],
    values: (pick) => ({ repo: pick(REPOS), topic: pick(['the login timeout', 'a broken export', 'slow search', 'a typo on the pricing page']) }),
    calls: (v) => [{ method: 'GET', url: `https://git.example/repos/${v.repo}` }, { method: 'POST', url: `https://git.example/repos/${v.repo}/issues`, body: { title: v.topic } }, { method: 'POST', url: 'https://chat.example/reply', body: { text: 'issue opened' } }],
  },
  {
    name: 'customer', shape: 'http',
    templates: ['Look up customer {email}', 'Find the account of {email}', 'Show me the customer record for {email}', 'Who is {email}? Look them up'],
    values: (pick, n) => ({ email: `${pick(['ana', 'bo', 'chen', 'dev', 'eli'])}${n() % 90}@example.com` }),
    calls: (v) => [{ method: 'GET', url: `https://crm.example/search?email=${v.email}` }, { method: 'GET', url: 'https://crm.example/accounts/latest' }, { method: 'POST', url: 'https://chat.example/reply', body: { text: `account of ${v.email}` } }],
  },
  {
    name: 'deploy', shape: 'bash',
    templates: ['Deploy {service} to {env}', 'Please deploy {service} on {env}', 'Ship {service} to {env}', 'Roll out {service} to {env}'],
    values: (pick) => ({ service: pick(SERVICES), env: pick(ENVS) }),
    calls: (v) => [{ cmd: `make build SERVICE=${v.service}` }, { cmd: `kubectl apply -f deploy/${v.service}.yaml -n ${v.env}` }, { cmd: `kubectl rollout status deploy/${v.service} -n ${v.env}` }],
  },
  {
    name: 'rollback', shape: 'bash',
    templates: ['Roll back {service} on {env}', 'Revert {service} in {env} to the previous release', 'Please roll back {service} in {env}', 'Undo the last deploy of {service} on {env}'],
    values: (pick) => ({ service: pick(SERVICES), env: pick(ENVS) }),
    calls: (v) => [{ cmd: `kubectl rollout history deploy/${v.service} -n ${v.env}` }, { cmd: `kubectl rollout undo deploy/${v.service} -n ${v.env}` }, { cmd: `kubectl rollout status deploy/${v.service} -n ${v.env}` }],
  },
  {
    name: 'restart', shape: 'bash',
    templates: ['Restart the {service} workers', 'Please restart {service} workers on {env}', 'Bounce the {service} workers in {env}', 'Restart {service} in {env}'],
    values: (pick) => ({ service: pick(SERVICES), env: pick(ENVS) }),
    calls: (v) => [{ cmd: `kubectl get pods -l app=${v.service} -n ${v.env}` }, { cmd: `kubectl rollout restart deploy/${v.service}-worker -n ${v.env}` }, { cmd: `kubectl rollout status deploy/${v.service}-worker -n ${v.env}` }],
  },
  {
    name: 'backup', shape: 'bash',
    templates: ['Back up the {db} database', 'Take a backup of {db}', 'Snapshot the {db} database before the migration', 'Make a backup of the {db} db'],
    values: (pick) => ({ db: pick(['orders', 'users', 'ledger', 'events']) }),
    calls: (v) => [{ cmd: `pg_dump -Fc ${v.db} -f /backups/${v.db}.dump` }, { cmd: `aws s3 cp /backups/${v.db}.dump s3://backups/${v.db}/` }, { cmd: `rm /backups/${v.db}.dump` }],
  },
  {
    name: 'announce', shape: 'mixed',
    templates: ['Announce the {service} release in {channel}', 'Post the {service} release notes to {channel}', 'Tell {channel} that {service} shipped', 'Send the {service} changelog to {channel}'],
    values: (pick) => ({ service: pick(SERVICES), channel: pick(CHANNELS) }),
    calls: (v) => [{ method: 'GET', url: `https://git.example/repos/acme/${v.service}/releases/latest` }, { method: 'POST', url: 'https://chat.example/post', body: { channel: v.channel } }, { cmd: `echo announced ${v.service}` }],
  },
  {
    name: 'report', shape: 'mixed',
    templates: ['Export the sales report for {month}', 'Build the {month} sales report as CSV', 'Sales numbers for {month}, as a CSV file please', 'Give me the sales report of {month}'],
    values: (pick) => ({ month: pick(['2025-01', '2025-02', '2025-03', '2025-04', '2025-05']) }),
    calls: (v) => [{ method: 'POST', url: 'https://bi.example/query', body: { sql: `SELECT * FROM sales WHERE month = '${v.month}'` } }, { method: 'GET', url: 'https://bi.example/results/latest.csv' }, { cmd: `mv latest.csv reports/sales-${v.month}.csv` }],
  },
  {
    name: 'status', shape: 'mixed',
    templates: ['Check the status of {service}', 'Is {service} healthy?', 'Health check {service} in {env}', 'Show the uptime of {service} in {env}'],
    values: (pick) => ({ service: pick(SERVICES), env: pick(ENVS) }),
    calls: (v) => [{ method: 'GET', url: `https://status.example/api/${v.service}?env=${v.env}` }, { method: 'GET', url: 'https://metrics.example/uptime' }, { cmd: `echo ${v.service} ok` }],
  },
  {
    name: 'invite', shape: 'mixed',
    templates: ['Invite {email} to the {team} team', 'Add {email} to team {team}', 'Give {email} access to the {team} team', 'Onboard {email} into {team}'],
    values: (pick, n) => ({ email: `${pick(['fay', 'gus', 'hal', 'ivy'])}${n() % 90}@example.com`, team: pick(['platform', 'data', 'mobile']) }),
    calls: (v) => [{ method: 'GET', url: `https://idp.example/teams/${v.team}` }, { method: 'POST', url: `https://idp.example/teams/${v.team}/members`, body: { email: v.email } }, { cmd: `echo invited ${v.email}` }],
  },
];

/** Notes an agent adds to its last call, differently worded each time. */
const NOTES = ['done', 'all set, see details above', 'finished as requested', 'here you go', 'completed without errors', 'ok'];

const fill = (template: string, v: Values) => template.replace(/\{(\w+)\}/g, (_, key: string) => v[key]!);

/** One chat-log episode of a job, tagged with the job so the check knows what it did. */
function episodeOf(job: Job, random: () => number, i: number): NewEpisode {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const v = job.values(pick, () => Math.floor(random() * 90_000));
  const t0 = Date.UTC(2025, 5, 1) + i * 60_000;
  const calls = job.calls(v);
  return {
    sensitivity: 'low', confidence: 0.5, salience: 0, scope: '', tags: [`job:${job.name}`],
    payload: {
      kind: 'episodic',
      timeline: [
        { t: t0, event_kind: 'user_message', summary: fill(pick(job.templates), v) },
        ...calls.map((_, n) => ({ t: t0 + 1_000 * (n + 1), event_kind: 'tool_call' })),
        { t: t0 + 5_000, event_kind: 'assistant_message', summary: 'Done.' },
      ],
      tool_graph: calls.map((args, n) => ({
        id: `call_${n + 1}`,
        tool: TOOLS[job.shape][n]!,
        // Agents word their notes differently each time: the last call carries one.
        args: n === calls.length - 1 ? { ...args, note: pick(NOTES) } : args,
        depends_on: n === 0 ? [] : [`call_${n}`],
      })),
      outcome: 'success',
    },
  };
}

/** Each learned plan's episodes by job. */
async function jobsByPlan(db: BenchEnv['db']): Promise<Map<string, Map<string, number>>> {
  const rows = await db.execute<{ plan: string; job: string; episodes: number }>(sql`
    SELECT c.record_id AS plan, r.tags[1] AS job, count(*)::int AS episodes
      FROM consolidated_sources c JOIN memory_records r ON r.id = c.episode_id
     WHERE c.kind = 'plan' AND r.tags[1] LIKE 'job:%' GROUP BY 1, 2`);
  const plans = new Map<string, Map<string, number>>();
  for (const row of rows.rows) plans.set(row.plan, new Map([...(plans.get(row.plan) ?? []), [row.job.slice(4), row.episodes]]));
  return plans;
}

/** Plans learned, plans mixing jobs, episodes in a plan of another job (not its plan's main one), plans per job. */
function purity(plans: Iterable<Map<string, number>>) {
  let count = 0, mixed = 0, stray = 0, total = 0;
  const plansOfJob = new Map<string, number>();
  for (const jobs of plans) {
    count++;
    if (jobs.size > 1) mixed++;
    const sizes = [...jobs.values()];
    total += sizes.reduce((a, b) => a + b, 0);
    stray += sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes);
    for (const job of jobs.keys()) plansOfJob.set(job, (plansOfJob.get(job) ?? 0) + 1);
  }
  return { count, mixed, strayShare: round(stray / total, 3), plansPerJob: round([...plansOfJob.values()].reduce((a, b) => a + b, 0) / plansOfJob.size, 2) };
}

/** Each active plan's name and its episodes by job, largest plan first. */
async function planNames(db: BenchEnv['db'], plans: Map<string, Map<string, number>>): Promise<string[]> {
  const rows = (await db.execute<{ id: string; label: string }>(sql`SELECT id, label FROM memory_records WHERE type = 'plan_graph' AND status = 'active'`)).rows;
  const size = (id: string) => [...(plans.get(id)?.values() ?? [])].reduce((a, b) => a + b, 0);
  return rows
    .sort((a, b) => size(b.id) - size(a.id) || a.label.localeCompare(b.label))
    .map((r) => `${r.label}: ${[...(plans.get(r.id) ?? [])].map(([job, n]) => `${job} ${n}`).join(', ')}`);
}

/** The main job of a plan: the one most of its episodes did. */
const mainJob = (jobs: Map<string, number> | undefined) => (jobs ? [...jobs].sort((a, b) => b[1] - a[1])[0]![0] : undefined);

export const learnedJobs: Scenario = {
  name: 'learned-jobs',
  title: `Jobs of a chat-log agent through generic tools (${JOBS.length} jobs, ${(JOBS.length * EPISODES_PER_JOB).toLocaleString('en-US')} episodes)`,
  method:
    `An agent logging only \`user_message\`, \`tool_call\` and \`assistant_message\` events does ${JOBS.length} jobs (weather, refund, deploy, roll back, ` +
    'backup, …) through three shapes of generic tools: three `http_request` calls, three `bash` commands, or two requests and a command, ' +
    `four jobs per shape. ${EPISODES_PER_JOB} episodes per job, each worded by one of the job's four phrasings with new values, are consolidated ` +
    'with generalisation on. **Now**: the plans learned, checked against the job each episode did. **Before**: the rule until this change, ' +
    'one plan per tools and edges (the plans were named after their tools), computed from the same episodes. A stray episode is one in a ' +
    `plan whose main job is another. Then ${QUERIES} new tasks (a job's phrasing, new values) are retrieved: right when the first plan's main job is the task's.`,
  analysis:
    'Named after its tools, every plan of such an agent was one per shape: a weather lookup and a refund made the same three requests, ' +
    'so they were one plan whose examples mixed both jobs and whose every disagreeing arg became an input. Named from the task, an episode ' +
    'joins a plan of its shape only when its calls go to the same addresses and hold the same args but for the values its tasks state ' +
    '(docs/consolidation.md#one-plan-per-job). A job whose calls vary in a value the task never states (a namespace the agent picked ' +
    'itself, as `restart` and `status` do here) becomes more than one plan: that is the price of never merging two jobs, and each of its ' +
    'plans still runs the job.',
  async run(env, log) {
    await env.db.execute(sql`TRUNCATE memory_records, memory_relations, audit_log, consolidated_sources, plan_stats, plan_runs, consolidation_passes CASCADE`);
    const random = seededRandom(31);
    const order = JOBS.flatMap((job) => Array.from({ length: EPISODES_PER_JOB }, () => job));
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const episodes = order.map((job, i) => episodeOf(job, random, i));
    await createEpisodeStore(env.db, createEmbedder(env.config)).insertMany(episodes);
    const counts = await env.withWorker((taskQueue) => runConsolidationOnce(env.client, { ...env.config, TEMPORAL_TASK_QUEUE: taskQueue }));
    log(`consolidated ${episodes.length} episodes: ${counts.created} plans`);
    const plans = await jobsByPlan(env.db);
    const now = purity(plans.values());
    const before = purity(
      (['http', 'bash', 'mixed'] as const).map((shape) => new Map(JOBS.filter((j) => j.shape === shape).map((j) => [j.name, EPISODES_PER_JOB]))),
    );

    const retriever = createRetriever({ db: env.db, embedder: createEmbedder(env.config), threshold: env.config.SELECTION_THRESHOLD, mode: env.config.SELECTION_MODE });
    const trust: TrustContext = { max_sensitivity: 'low', authenticated: true, scopes: [] };
    let right = 0, autoRuns = 0, wrongAutoRuns = 0;
    const wrong: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const job = JOBS[i % JOBS.length]!;
      const task = (episodeOf(job, random, i).payload.timeline[0] as { summary: string }).summary;
      const result = await retriever.retrieve({ task_descriptor: task, trust, limit: 10 });
      const found = mainJob(plans.get(result.candidates[0]?.record.id ?? ''));
      if (found === job.name) right++;
      if (!result.selection.needs_more) {
        autoRuns++;
        if (found !== job.name) {
          wrongAutoRuns++;
          wrong.push(`"${task}" ran a plan of ${found}`);
        }
      }
    }
    log(`now ${JSON.stringify(now)}, before ${JSON.stringify(before)}; retrieval right ${right}, auto-runs ${autoRuns}, wrong ${wrongAutoRuns}`);
    const share = (n: number) => round(n / QUERIES, 3);
    return {
      figures: [
        { label: 'plans learned, now / before (jobs: 12)', value: `${now.count} / ${before.count}` },
        { label: 'plans mixing jobs, now / before', value: `${now.mixed} / ${before.mixed}` },
        { label: 'stray episodes (in a plan of another job): now', value: now.strayShare, target: { op: '<=', value: 0.02 } },
        { label: 'stray episodes: before', value: before.strayShare },
        { label: 'plans per job: now / before', value: `${now.plansPerJob} / ${before.plansPerJob}` },
        { label: 'new tasks: first plan of the right job', value: share(right) },
        { label: 'new tasks: auto-run rate', value: share(autoRuns) },
        { label: 'new tasks: wrong auto-runs', value: share(wrongAutoRuns), target: { op: '<=', value: 0.02 } },
      ],
      notes: [
        `Plans learned (name: episodes by job): ${(await planNames(env.db, plans)).join('; ')}.`,
        ...wrong.slice(0, 5).map((w) => `wrong auto-run: ${w}`),
      ],
    };
  },
};
