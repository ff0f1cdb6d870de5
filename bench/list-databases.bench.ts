// `npm run bench:list-databases` (issue 40 point 4): the list bench and the export of the million rows
// on PGlite and on PostgreSQL in one run, side by side against the budgets: list p95 at 20
// back-to-back clients ≤ 50 ms, the slowest cold deep page ≤ 500 ms, the export ≤ 3 s.
//
// Runs under scripts/with-postgres.sh (TEST_DATABASE_URL): each database in a process of its own
// (bench/list.bench.ts's server and clients, as `npm run bench` runs them), PGlite on .data/bench,
// then PostgreSQL on the cluster's `postgres` database; each seeds its million rows on first use.
// The npm script keeps the cluster in .data/bench-postgres (WITH_POSTGRES_DATA) so that is done once.
// Each figure is printed with the 1-minute load average when it was taken: the machine is shared.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBenchServer } from './common.ts';
import { listBudget, runListBench } from './list.bench.ts';
import { runExportBench } from './export.bench.ts';
import { sqlRunner } from '../server/db/sql-runner.ts';

/** Issue 40 point 4's export budget (PostgreSQL's own COPY of the rows takes about 1.6 s). */
const exportBudgetSeconds = 3;

/** What one database's run reports to the parent. */
interface Summary {
  database: string;
  settings: string;
  listP95: number;
  listP95Load: number;
  worstScenarioP95: number;
  deepMax: number;
  deepLoad: number;
  exportSeconds: number;
  exportLoad: number;
}

const load1 = () => Number(loadavg()[0]?.toFixed(1));

/** The planner and memory settings the figures were taken with. */
async function settingsOf(handle: Awaited<ReturnType<typeof startBenchServer>>['handle']): Promise<string> {
  const names = ['shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost', 'jit', 'max_parallel_workers_per_gather'];
  const rows = await sqlRunner(handle.db).textRows(
    `select name, setting || coalesce(unit, '') from pg_settings where name = any($1::text[]) order by name`,
    [`{${names.join(',')}}`],
  );
  return rows.map(([name, value]) => `${name}=${value}`).join(' ');
}

async function runOne(summaryFile: string) {
  const server = await startBenchServer();
  try {
    const settings = await settingsOf(server.handle);
    console.log(`settings: ${settings}`);
    const list = await runListBench(server);
    const exported = await runExportBench(server);
    const exportLoad = load1();
    const summary: Summary = {
      database: server.handle.kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      settings,
      listP95: list.overall.p95,
      listP95Load: list.overallLoad,
      worstScenarioP95: list.worstP95,
      deepMax: list.deepMax,
      deepLoad: list.deepLoad,
      exportSeconds: exported.seconds,
      exportLoad,
    };
    await writeFile(summaryFile, JSON.stringify(summary));
  } finally {
    await server.close();
  }
}

/** This script again in a process of its own, on one database. */
function runChild(summaryFile: string, databaseUrl: string | undefined): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_SUMMARY_FILE: summaryFile };
  if (databaseUrl) env.BENCH_DATABASE_URL = databaseUrl;
  else delete env.BENCH_DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { env, stdio: 'inherit' });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench on ${databaseUrl ? 'PostgreSQL' : 'PGlite'} exited ${code}`)))),
  );
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const verdict = (value: number, budget: number) => (value <= budget ? 'within' : 'OVER');

async function runBoth() {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('Run under scripts/with-postgres.sh (npm run bench:list-databases): TEST_DATABASE_URL is not set.');
  const dir = await mkdtemp(join(tmpdir(), 'list-databases-'));
  try {
    const summaries: Summary[] = [];
    for (const [name, url] of [['pglite', undefined], ['postgres', databaseUrl]] as const) {
      console.log(`\n===== ${name === 'pglite' ? 'PGlite' : 'PostgreSQL'} =====`);
      const file = join(dir, `${name}.json`);
      await runChild(file, url);
      summaries.push(JSON.parse(await readFile(file, 'utf8')) as Summary);
    }
    const [lite, postgres] = summaries;
    if (!lite || !postgres) return;
    const row = (label: string, value: (summary: Summary) => string, budget: string) =>
      console.log(`${label} | ${value(lite)} | ${value(postgres)} | ${budget}`);
    console.log('\n===== side by side (1-minute load average in brackets) =====');
    console.log('figure | PGlite | PostgreSQL | budget');
    row('list p95, 20 back-to-back clients', (s) => `${ms(s.listP95)} (${s.listP95Load})`, `≤ ${listBudget.p95} ms`);
    row('worst scenario p95', (s) => ms(s.worstScenarioP95), '');
    row('slowest cold deep page', (s) => `${ms(s.deepMax)} (${s.deepLoad})`, `≤ ${listBudget.max} ms`);
    row('export of the million rows', (s) => `${s.exportSeconds.toFixed(2)} s (${s.exportLoad})`, `≤ ${exportBudgetSeconds} s`);
    for (const summary of summaries) console.log(`${summary.database} settings: ${summary.settings}`);
    for (const summary of summaries) {
      console.log(
        `${summary.database}: list p95 ${verdict(summary.listP95, listBudget.p95)}, deep pages ${verdict(summary.deepMax, listBudget.max)}, ` +
          `export ${verdict(summary.exportSeconds, exportBudgetSeconds)}`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const summaryFile = process.env.BENCH_SUMMARY_FILE;
if (summaryFile) await runOne(summaryFile);
else await runBoth();
