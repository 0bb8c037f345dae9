/**
 * `npm run bench [-- NAME…]`: starts a private Temporal dev server and Postgres database, runs
 * the scenarios (all, or the named ones) and writes bench/results/latest.json and BENCHMARKS.md.
 * `npm run bench -- --report` only re-renders BENCHMARKS.md from latest.json.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../src/config';
import { startBenchEnv } from './lib/environment';
import { machineInfo } from './lib/machine';
import { mergeResults, readResults, renderMarkdown, withVerdicts, writeResults, type ScenarioRecord } from './lib/report';
import { SCENARIOS } from './scenarios/index';

const JSON_PATH = resolve(import.meta.dirname, 'results/latest.json');
const MARKDOWN_PATH = resolve(import.meta.dirname, '../BENCHMARKS.md');

const started = Date.now();
const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line.trimEnd()}`);

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.includes('--report')) {
    const results = readResults(JSON_PATH);
    if (!results) {
      console.error(`no results at ${JSON_PATH}: run the bench first`);
      return 2;
    }
    writeFileSync(MARKDOWN_PATH, renderMarkdown(results, SCENARIOS));
    log(`wrote ${MARKDOWN_PATH}`);
    return 0;
  }
  const names = args;
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const selected = names.length > 0 ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;

  const env = await startBenchEnv(loadConfig(), log);
  const records: ScenarioRecord[] = [];
  try {
    const machine = await machineInfo(env);
    log(`machine: ${JSON.stringify(machine)}`);
    for (const scenario of selected) {
      log(`${scenario.name}: ${scenario.title}`);
      const t0 = Date.now();
      const record: ScenarioRecord = { name: scenario.name, title: scenario.title, method: scenario.method, date: new Date().toISOString(), duration_s: 0, figures: [], notes: [] };
      try {
        const result = await scenario.run(env, (line) => log(`${scenario.name}: ${line}`));
        record.figures = withVerdicts(result.figures);
        record.notes = result.notes;
      } catch (err) {
        record.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
        log(`${scenario.name} failed: ${record.error}`);
      }
      record.duration_s = (Date.now() - t0) / 1000;
      for (const f of record.figures) log(`${scenario.name}: ${f.label} = ${f.value}${f.unit ? ` ${f.unit}` : ''}${f.met === undefined ? '' : f.met ? ' (target met)' : ' (TARGET MISSED)'}`);
      records.push(record);
    }
    const previous = names.length > 0 ? (readResults(JSON_PATH)?.scenarios ?? []) : [];
    writeResults(JSON_PATH, MARKDOWN_PATH, {
      date: new Date(started).toISOString(),
      machine,
      total_duration_s: (Date.now() - started) / 1000,
      scenarios: mergeResults(SCENARIOS, previous, records),
    }, SCENARIOS);
    log(`wrote ${JSON_PATH} and ${MARKDOWN_PATH}`);
  } finally {
    await env.close();
  }
  return records.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
