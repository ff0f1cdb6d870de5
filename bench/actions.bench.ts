import { sqlRunner } from '../server/db/sql-runner.ts';
import type { BenchServer } from './common.ts';
import { concurrency } from './common.ts';
import { createLoad, type Load, type LoadRequest } from './list.bench.ts';
import { percentile, report } from './support.ts';

/**
 * Issue 13 budget: each action's round trip p95 ≤ 50 ms with `concurrency` (20) clients on the
 * bench database (assign, label save, e-mail change, unlock). Each client sends one action after
 * another on random applications the action applies to, BENCH_ACTION_REQUESTS each; every
 * answer must be a 200 (a refusal measured as a success would flatter the figure).
 */

/** Requests each client sends, one after another, per action. */
const actionRequests = Number(process.env.BENCH_ACTION_REQUESTS ?? 200);
/** Untimed requests each client sends first, per action. */
const warmupRequests = Number(process.env.BENCH_ACTION_WARMUP ?? 50);
const sample = 20_000;

interface Target {
  id: number;
  guid: string;
}

interface Action {
  name: string;
  /** Applications the action applies to (a random sample, read before measuring). */
  where: string;
  /** One application per request, never twice (an unlock needs a locked application each time). */
  once?: boolean;
  /** Untimed preparation of the applications to act on. */
  prepare?: () => Promise<void>;
  request(target: Target, n: number): { path: string; body: unknown };
}

async function targets(server: BenchServer, where: string, stride: number): Promise<Target[]> {
  // A stride over the ids instead of order by random(): one index walk, no sort of a million rows.
  const rows = await sqlRunner(server.handle.db).textRows(
    `select id::text, guid::text from applications where tenant_id = 'demo' and ${where} and id % $1 = 0 order by id limit ${sample}`,
    [stride],
  );
  return rows.map(([id, guid]) => ({ id: Number(id), guid: guid ?? '' }));
}

async function measure(server: BenchServer, load: Load, token: string, action: Action, total: number) {
  // The applications of a once-only action were sampled when they were prepared.
  const pool = await targets(server, action.where, action.once ? 1 : Math.max(1, Math.floor(total / (sample * 4))));
  if (pool.length < concurrency) throw new Error(`${action.name}: only ${pool.length} applications to act on`);
  let next = 0;
  let sent = 0;
  const pick = () => (action.once ? pool[next++ % pool.length]! : pool[Math.floor(Math.random() * pool.length)]!);
  const requestFor = (): LoadRequest => {
    const { path, body } = action.request(pick(), sent++);
    return { url: `${server.baseUrl}${path}`, token, host: server.host, method: 'POST', body };
  };
  const clients = (count: number, perClient: number) => Array.from({ length: count }, () => Array.from({ length: perClient }, requestFor));
  // Untimed first, at full load: a server that has just started reads every index page an action
  // writes from disk; the budget is for one that is running (the first thousand actions after a
  // start measured 15-30 % slower at p95).
  await load.run(clients(concurrency, warmupRequests));
  const started = performance.now();
  const results = (await load.run(clients(concurrency, actionRequests))).flat();
  const seconds = (performance.now() - started) / 1000;
  const statuses: Record<number, number> = {};
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  const latencies = results.map((result) => result.ms);
  console.log(
    `${action.name}: ${latencies.length} requests in ${seconds.toFixed(1)} s with ${concurrency} clients over ${pool.length} applications; ` +
      `statuses ${JSON.stringify(statuses)}; p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  if (action.once && next > pool.length) console.log(`  (${action.name} went round its ${pool.length} applications: later requests met them unlocked)`);
  const refused = results.find((result) => result.status !== 200);
  if (refused) throw new Error(`${action.name}: a request was refused: ${refused.status} ${refused.refusal ?? ''}`);
  report(`${action.name} p95 (${concurrency} clients)`, percentile(latencies, 95), 50, 'ms');
}

export async function runActionsBench(server: BenchServer): Promise<void> {
  const runner = sqlRunner(server.handle.db);
  const [count] = await runner.textRows(`select count(*)::text from applications where tenant_id = 'demo'`, []);
  console.log(`actions on ${Number(count?.[0]).toLocaleString('en-AU')} applications of tenant demo`);
  const token = await server.token('admin@demo.test');
  const assignees = (await runner.textRows(`select id::text, first_name || ' ' || last_name from users where tenant_id = 'demo' and email in ('admin@demo.test', 'manager@demo.test', 'staff@demo.test')`, [])).map(
    ([id]) => id ?? '',
  );
  const labels = (await runner.textRows(`select name from application_labels where tenant_id = 'demo' and kind = 'label' order by name limit 4`, [])).map(([name]) => name ?? '');
  if (assignees.length === 0 || labels.length === 0) throw new Error('bench database lacks users or labels');
  const live = `status not in ('Cancelled', 'Depersonalised')`;

  // Locked applications to unlock: a sample of live ones locked now (as an applicant's failed
  // sign-ins would), each remembering its status so that the unlock returns it there. Done just
  // before the unlocks and followed by a checkpoint: the 20,000 rows it rewrites would otherwise
  // leave their dirty pages to be written out during the measured requests.
  const lockSample = async () => {
    await runner.textRows(
      `update applications set previous_status = status, status = 'Locked'
        where id in (select id from applications where tenant_id = 'demo' and ${live} and status <> 'Locked' and id % $1 = 1 order by id limit ${sample})`,
      [Math.max(2, Math.floor(Number(count?.[0]) / (sample * 2)))],
    );
    await runner.textRows('checkpoint', []);
  };

  const actions: Action[] = [
    {
      name: 'POST /api/application/assign/{id}',
      where: live,
      request: (target, n) => ({ path: `/api/application/assign/${target.id}`, body: { GlobalUserId: n % 4 === 3 ? null : assignees[n % assignees.length] } }),
    },
    {
      name: 'POST /api/label/save',
      where: live,
      request: (target, n) => ({ path: '/api/label/save', body: { ApplicationId: target.guid, Label: n % 5 === 4 ? '' : labels[n % labels.length] } }),
    },
    {
      name: 'POST /api/application/changeprimaryemail/{id}',
      where: `${live} and date_completed is null`,
      request: (target, n) => ({ path: `/api/application/changeprimaryemail/${target.id}`, body: { PrimaryEmail: `bench.${target.id}.${n}@example.org` } }),
    },
    {
      name: 'POST /api/application/unlockapplication/{id}',
      // Applications locked for the bench (untimed, see below), each unlocked once, back to its status.
      where: `status = 'Locked' and previous_status not in ('', 'Locked')`,
      once: true,
      prepare: lockSample,
      request: (target) => ({ path: `/api/application/unlockapplication/${target.id}`, body: undefined }),
    },
  ];
  // The clients run in the load process (bench/load-worker.mjs), as in the list and detail benches:
  // their HTTP and JSON work must not share the event loop of the server under test.
  const load = createLoad();
  try {
    for (const action of actions) {
      await action.prepare?.();
      await measure(server, load, token, action, Number(count?.[0]));
    }
  } finally {
    load.close();
  }
}

/** `npm run bench:actions`: the server in this process on the bench database (BENCH_DATA_DIR, BENCH_APPLICATIONS). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { startBenchServer } = await import('./common.ts');
  // Every request comes from one address and one account: the abuse limits (tested on their own) would answer 429.
  const server = await startBenchServer({ RATE_LIMIT_WRITES_PER_ADDRESS: '100000000', RATE_LIMIT_WRITES_PER_ACCOUNT: '100000000' });
  try {
    await runActionsBench(server);
  } finally {
    await server.close();
  }
}
