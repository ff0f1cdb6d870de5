// `SOAK_DATABASE=postgres npm run soak` (or `npm run soak:postgres`): the soak on PostgreSQL with two
// instances (issue 40 point 2), under the throwaway cluster of scripts/with-postgres.sh
// (TEST_DATABASE_URL, TEST_POSTGRES_CTL).
//
// A fresh database on the cluster; two server processes (`node --import tsx server/main.ts`, same
// DATABASE_URL, different ports) started at the same moment. SOAK_USERS (default 50) people, each
// with a home instance (person i: instance i mod 2), send every request "behind one host name": the
// Host header is the same front name whichever instance answers, as behind a load balancer, so a
// token from one instance is used on the other. A request whose instance refuses the connection (or,
// for a GET, resets it) is sent again to the other instance, as a load balancer does (nginx's
// proxy_next_upstream: a POST whose connection broke after it was sent is not repeated, its answer is
// lost); those failovers are counted. Pace: SOAK_THINK_MS (default 1000 here) mean pause, for
// SOAK_SECONDS (default 90 here).
//
// At a third of the run instance A is SIGKILLed and restarted on its port. At two thirds (no sooner
// than 5 s after A is back) PostgreSQL itself is stopped (fast shutdown), kept down SOAK_PG_DOWN_MS
// (default 5000), and started again, while both instances run. Then every acknowledged write is read
// back. Budgets (exit 1 if one is missed): list p99 and each write kind's p99 (create, save, cancel)
// ≤ 150 ms outside the 5 s after each fault; 0 acknowledged writes lost; no instance exits unless the
// soak killed it; during the outage every request is answered at once, success or 503 with
// retry-after, none slower than 10 s; both instances ready (GET /api/health/ready 200) and serving a
// list within 10 s of the cluster's start returning.
// The people, their mix of requests and the read-back are the PGlite soak's (bench/soak-workload.ts).
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { execFile } from 'node:child_process';
import { freePort, percentile } from './support.ts';
import { signInOverHttp, type Transport } from './http-sign-in.ts';
import { cpuSeconds, freshDatabase, now, sleep, spawnInstance, stopInstance, waitUntilAnswering, type Instance } from './server-instances.ts';
import {
  acknowledged,
  codeOf,
  demoAdmin,
  describeFailures,
  fmt,
  loadAverage,
  peopleBesideFaults,
  personLoop,
  readBack,
  seededPeople,
  sendRequest,
  timedRequests,
  tokenCache,
  writeLimitsLifted,
  type Answer,
  type Created,
  type Person,
  type RequestOptions,
  type Routed,
  type Sample,
} from './soak-workload.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 90);
const userCount = Number(process.env.SOAK_USERS ?? 50);
const thinkMs = Number(process.env.SOAK_THINK_MS ?? 1000);
const pgDownMs = Number(process.env.SOAK_PG_DOWN_MS ?? 5000);

/** Budgets (issue 40 point 2). */
const p99Budget = 150;
const outageAnswerBudget = 10_000;
const backBudget = 10_000;
/** Requests that start this soon after a fault's end still count as the fault's (cold caches, reconnects). */
const settleMs = 5_000;
const minUpMs = 5_000;

/* ---------- instances ---------- */

/** Processes that exited without the soak signalling them. */
const unexpectedExits: string[] = [];
const everyProcess: Instance[] = [];

function startInstance(name: string, port: number, databaseUrl: string): Instance {
  const instance = spawnInstance({ name, port, env: { DATABASE_URL: databaseUrl }, defaults: writeLimitsLifted });
  void instance.exited.then((exit) => {
    if (!instance.signalled)
      unexpectedExits.push(
        `${name} pid ${instance.pid} exited (${exit.signal ?? `code ${exit.code}`}) unasked at ${new Date().toISOString()}; its last output:\n${instance.output().trim().split('\n').slice(-40).join('\n')}`,
      );
  });
  everyProcess.push(instance);
  return instance;
}

/* ---------- HTTP behind one host name ---------- */

const agent = new http.Agent({ keepAlive: true, maxSockets: userCount + 16 });
/** The one host name the people use; the tenant is the demo (127.0.0.1), the port is only a name. */
let frontHost = '127.0.0.1';

const sendTo = (port: number, method: string, path: string, options: RequestOptions = {}): Promise<Answer> => sendRequest(agent, port, method, path, options, frontHost);

const instances: Instance[] = [];
const failovers: { at: number; from: string; method: string; cause: string }[] = [];

/**
 * As a load balancer: to the home instance, and to the other when the home one refuses the
 * connection (nothing was sent) or, for a GET, breaks it (a GET may be repeated; a POST may have
 * been written, so its failure is the client's to see).
 */
async function route(home: number, method: string, path: string, options: RequestOptions = {}): Promise<Routed> {
  const first = instances[home] as Instance;
  try {
    return { answer: await sendTo(first.port, method, path, options), instance: home, failedOver: false };
  } catch (error) {
    const cause = codeOf(error);
    if (cause !== 'ECONNREFUSED' && !(method === 'GET' && cause === 'ECONNRESET')) throw error;
    failovers.push({ at: now(), from: first.name, method, cause });
    const other = 1 - home;
    return { answer: await sendTo((instances[other] as Instance).port, method, path, options), instance: other, failedOver: true };
  }
}

/** The sign-in's fetch, through the same load balancer. */
const transportFor =
  (home: number): Transport =>
  async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const { answer } = await route(home, init.method ?? 'GET', url.pathname + url.search, {
      headers,
      // The sign-in sends a string or URLSearchParams; a Response reads either as fetch would.
      body: init.body === undefined || init.body === null ? undefined : await new Response(init.body).text(),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(answer.headers))
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(key, item);
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: responseHeaders });
  };

/* ---------- people ---------- */

const samples: Sample[] = [];
const created: Created[] = [];
const tokens = tokenCache((person, home) => signInOverHttp(`http://${frontHost}`, person.email, undefined, transportFor(home)));

/** `$TEST_POSTGRES_CTL stop|start`, timed. */
function ctl(action: 'stop' | 'start'): Promise<number> {
  const control = process.env.TEST_POSTGRES_CTL;
  if (!control) throw new Error('TEST_POSTGRES_CTL is not set: run under scripts/with-postgres.sh');
  const started = now();
  return new Promise((resolve, reject) =>
    execFile(control, [action], (error, _stdout, stderr) => (error ? reject(new Error(`${action}: ${error.message} ${stderr}`)) : resolve(now() - started))),
  );
}

export async function soakPostgres(): Promise<number> {
  const databaseUrl = await freshDatabase('soak', 'SOAK_DATABASE=postgres, npm run soak:postgres');
  const databaseName = databaseUrl.pathname.slice(1);

  frontHost = `127.0.0.1:${await freePort()}`;
  const ports = [await freePort(), await freePort()];
  console.log(
    `Soak on PostgreSQL: ${userCount} people for ${seconds} s (think ${thinkMs} ms) behind one host name (${frontHost}) over two instances on ports ${ports.join(' and ')}; fresh database ${databaseName}`,
  );
  console.log(`load average (1 / 5 / 15 min) before: ${loadAverage()}`);

  // Both at the same moment, on the empty database: the advisory lock has one migrate and seed.
  const spawned = [startInstance('A', ports[0] as number, databaseUrl.toString()), startInstance('B', ports[1] as number, databaseUrl.toString())];
  instances.push(...spawned);
  await Promise.all(spawned.map((instance) => waitUntilAnswering(instance)));
  for (const instance of spawned)
    console.log(`first start of ${instance.name} (migrations and seed under the lock, or waiting on it): ${fmt(instance.readyAt - instance.spawnedAt)}, pid ${instance.pid}`);

  const adminToken = () => tokens.tokenFor(demoAdmin, 0);
  const everyone = await seededPeople(userCount, async (path) => (await route(0, 'GET', path, { token: await adminToken() })).answer);
  for (const [index, person] of everyone.entries()) await tokens.tokenFor(person, index % 2);
  console.log(`people: ${new Set(everyone.map((person) => person.email)).size} accounts for ${everyone.length} simulated people, half at home on each instance`);

  const ids: number[] = [];
  for (let pageNo = 1; pageNo <= 10; pageNo++) {
    const { answer } = await route(pageNo % 2, 'GET', `/api/application/list/all?pageNo=${pageNo}`, { token: await adminToken() });
    if (answer.status !== 200) throw new Error(`list/all answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as { Applications: { ApplicationID: number }[] };
    ids.push(...body.Applications.map((row) => row.ApplicationID));
  }
  const probe = await route(1, 'GET', `/api/application/get/${ids[0]}`, { token: await adminToken() });
  const detail = probe.answer.status === 200;
  console.log(`detail: GET /api/application/get/{id} ${detail ? 'in the mix' : `answered ${probe.answer.status}; skipped`}`);

  const startedAt = now();
  const endAt = startedAt + seconds * 1000;
  /** The load goes on until both faults are over and 10 s past (a restart can outlast the run on a busy machine). */
  let loadUntil = Number.POSITIVE_INFINITY;
  const timed = timedRequests(samples, tokens, route);

  /* ---------- faults ---------- */

  /** From the fault until everything serves again; the budgets leave out these and the settleMs after. */
  const windows: { name: string; from: number; to: number }[] = [];
  const faultLines: string[] = [];
  const outage = { stopAt: Number.NaN, stoppedAt: Number.NaN, startAt: Number.NaN, startReturnedAt: Number.NaN, stopMs: Number.NaN, startMs: Number.NaN };
  const back: { name: string; readyMs: number; listMs: number }[] = [];

  async function killInstance(index: number) {
    const victim = instances[index] as Instance;
    const signalAt = now();
    victim.signalled = true;
    victim.child.kill('SIGKILL');
    const exit = await victim.exited;
    const fresh = startInstance(victim.name, victim.port, databaseUrl.toString());
    instances[index] = fresh;
    await waitUntilAnswering(fresh);
    windows.push({ name: `SIGKILL ${victim.name}`, from: signalAt, to: fresh.readyAt });
    faultLines.push(
      `SIGKILL of ${victim.name} at ${((signalAt - startedAt) / 1000).toFixed(1)} s: pid ${victim.pid} ${exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`} after ${fmt(exit.at - signalAt)}; ` +
        `restart (spawn → ready) ${fmt(fresh.readyAt - fresh.spawnedAt)}; ${victim.name} away ${fmt(fresh.readyAt - signalAt)}; new pid ${fresh.pid}`,
    );
  }

  /** Until the instance's readiness answers 200, and until a list through it (no failover) does. */
  async function serving(index: number, since: number) {
    const instance = instances[index] as Instance;
    let readyMs = Number.NaN;
    let listMs = Number.NaN;
    const token = await adminToken();
    while (now() - since < 60_000 && (Number.isNaN(readyMs) || Number.isNaN(listMs))) {
      if (Number.isNaN(readyMs)) {
        const answer = await sendTo(instance.port, 'GET', '/api/health/ready').catch(() => undefined);
        if (answer?.status === 200) readyMs = now() - since;
      }
      if (Number.isNaN(listMs)) {
        const answer = await sendTo(instance.port, 'GET', '/api/application/list/all?pageNo=1', { token }).catch(() => undefined);
        if (answer?.status === 200) listMs = now() - since;
      }
      await sleep(25);
    }
    back.push({ name: instance.name, readyMs, listMs });
    return now();
  }

  async function restartPostgres() {
    outage.stopAt = now();
    outage.stopMs = await ctl('stop');
    outage.stoppedAt = now();
    await sleep(Math.max(0, outage.stoppedAt + pgDownMs - now()));
    outage.startAt = now();
    outage.startMs = await ctl('start');
    outage.startReturnedAt = now();
    const servingAt = await Promise.all([serving(0, outage.startReturnedAt), serving(1, outage.startReturnedAt)]);
    windows.push({ name: 'PostgreSQL restart', from: outage.stopAt, to: Math.max(...servingAt) });
    faultLines.push(
      `PostgreSQL restart at ${((outage.stopAt - startedAt) / 1000).toFixed(1)} s: fast shutdown took ${fmt(outage.stopMs)}, down ${fmt(outage.startAt - outage.stoppedAt)}, start took ${fmt(outage.startMs)}; ` +
        `no connection from the stop until the start returned: ${fmt(outage.startReturnedAt - outage.stopAt)}`,
    );
  }

  // Every second: each instance's CPU time so far (a killed process keeps its last reading) and the
  // machine's load, to tell the server's own cost from its neighbours' on a shared machine.
  const cpuTime = new Map<number, { name: string; seconds: number }>();
  const loadSamples: { at: number; load: number }[] = [];
  const sample = () => {
    for (const instance of everyProcess) {
      try {
        cpuTime.set(instance.pid, { name: instance.name, seconds: cpuSeconds(instance.pid) });
      } catch {
        // exited: its last reading stands
      }
    }
    loadSamples.push({ at: now(), load: loadavg()[0] ?? Number.NaN });
  };
  sample();
  const sampler = setInterval(sample, 1000);
  const benchCpuBefore = process.cpuUsage();
  const cpuAtStart = new Map([...cpuTime].map(([pid, item]) => [pid, item.seconds]));

  const controller = (async () => {
    await sleep(Math.max(0, startedAt + (seconds * 1000) / 3 - now()));
    await killInstance(0);
    const restartAt = Math.max(startedAt + (seconds * 2000) / 3, (instances[0] as Instance).readyAt + minUpMs);
    await sleep(Math.max(0, restartAt - now()));
    await restartPostgres();
    loadUntil = Math.max(endAt, now() + 10_000);
    if (loadUntil > endAt) console.log(`load goes on to ${((loadUntil - startedAt) / 1000).toFixed(1)} s: 10 s after the last fault`);
  })();
  await peopleBesideFaults(controller, (stopped) =>
    Array.from({ length: userCount }, (_, index) =>
      personLoop({
        index,
        person: everyone[index] as Person,
        home: index % 2,
        timed,
        created,
        ids,
        detail,
        thinkMs,
        running: () => !stopped() && now() < loadUntil,
      }),
    ),
  );
  const loadEnd = now();
  clearInterval(sampler);
  const benchCpu = process.cpuUsage(benchCpuBefore);

  /* ---------- read back every acknowledged write, through both instances ---------- */
  const missing = await readBack(created, async (app, worker) => (await route(worker % 2, 'GET', `/external/application-form/${app.guid}?token=${encodeURIComponent(app.token)}`)).answer);

  /* ---------- report ---------- */
  const duration = (loadEnd - startedAt) / 1000;
  const ms = (sample: Sample) => sample.end - sample.start;
  const inFault = (sample: Sample) => windows.some((window) => sample.end >= window.from && sample.start <= window.to + settleMs);
  const ok = samples.filter((sample) => !sample.error);
  console.log(
    `\nload: ${samples.length.toLocaleString('en-AU')} requests in ${duration.toFixed(1)} s; ${ok.length.toLocaleString('en-AU')} answered without error (${(ok.length / duration).toFixed(1)}/s); ` +
      `by instance that answered: A ${samples.filter((s) => s.instance === 0).length}, B ${samples.filter((s) => s.instance === 1).length}; ${tokens.signIns()} sign-ins`,
  );
  console.log('kind         | ok requests | p50 | p99 | max | p99 outside the 5 s after each fault (budget)');
  const budgets: { name: string; value: number; budget: number; unit: string }[] = [];
  const row = (name: string, matches: (sample: Sample) => boolean, budgeted: boolean) => {
    const all = ok.filter(matches).map(ms);
    const outside = ok.filter((sample) => matches(sample) && !inFault(sample)).map(ms);
    if (all.length === 0) return console.log(`${name.padEnd(12)} | 0 | - | - | - | -`);
    const p99 = percentile(outside, 99);
    console.log(
      `${name.padEnd(12)} | ${all.length.toLocaleString('en-AU')} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ${fmt(Math.max(...all))} | ${fmt(p99)} (${outside.length} requests)` +
        (budgeted ? ` (budget ${p99Budget} ms) ${p99 <= p99Budget ? 'OK' : 'OVER'}` : ''),
    );
    if (budgeted) budgets.push({ name: `${name} p99 outside faults`, value: p99, budget: p99Budget, unit: 'ms' });
  };
  row('list', (sample) => sample.kind === 'list', true);
  row('detail', (sample) => sample.kind === 'detail', false);
  for (const op of ['create', 'save', 'cancel']) row(`write ${op}`, (sample) => sample.op === op, true);

  const failed = samples.filter((sample) => sample.error);
  const faultErrors = failed.filter(inFault);
  console.log(`\nerrors outside the faults: ${failed.length - faultErrors.length}: ${describeFailures(failed.filter((sample) => !inFault(sample)))}`);
  console.log(`errors during the faults (and their 5 s after): ${faultErrors.length}: ${describeFailures(faultErrors)}`);
  for (const window of windows)
    console.log(
      `  ${window.name}: ${failovers.filter((item) => item.at >= window.from && item.at <= window.to + settleMs).length} failovers, ` +
        `${samples.filter((s) => s.failedOver && s.start >= window.from && s.start <= window.to + settleMs).length} requests answered by the other instance`,
    );
  const byCause = new Map<string, number>();
  for (const item of failovers) byCause.set(`${item.from} ${item.method} ${item.cause}`, (byCause.get(`${item.from} ${item.method} ${item.cause}`) ?? 0) + 1);
  console.log(`failovers (the home instance refused or, for a GET, broke the connection; sent to the other): ${failovers.length}: ${[...byCause].map(([cause, count]) => `${cause} ×${count}`).join(', ') || 'none'}`);

  // p99 by 10 s of the run beside the machine's load then: a tail that follows the load is the neighbours'.
  console.log('\nby 10 s: start | requests ok | list p50 | list p99 | writes p99 | 1-min load average (mean)');
  for (let from = 0; from < duration; from += 10) {
    const inSlice = ok.filter((sample) => sample.start - startedAt >= from * 1000 && sample.start - startedAt < (from + 10) * 1000);
    const loads = loadSamples.filter((item) => item.at - startedAt >= from * 1000 && item.at - startedAt < (from + 10) * 1000).map((item) => item.load);
    console.log(
      `  ${String(from).padStart(3)} s | ${String(inSlice.length).padStart(4)} | ${fmt(percentile(inSlice.filter((x) => x.kind === 'list').map(ms), 50))} | ${fmt(percentile(inSlice.filter((x) => x.kind === 'list').map(ms), 99))} | ` +
        `${fmt(percentile(inSlice.filter((x) => x.kind === 'write').map(ms), 99))} | ${loads.length ? (loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1) : '-'}${windows.some((w) => w.from - startedAt < (from + 10) * 1000 && w.to + settleMs - startedAt >= from * 1000) ? '  (fault)' : ''}`,
    );
  }
  const cpuBy = new Map<string, number>();
  for (const [pid, item] of cpuTime) cpuBy.set(item.name, (cpuBy.get(item.name) ?? 0) + item.seconds - (cpuAtStart.get(pid) ?? 0));
  console.log(
    `CPU over the ${duration.toFixed(1)} s of load: ${[...cpuBy].map(([name, cpu]) => `instance ${name} ${cpu.toFixed(1)} s (${((100 * cpu) / duration).toFixed(0)}% of a core)`).join(', ')}, ` +
      `this soak's own process ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)} s; the machine has ${availableParallelism()} cores`,
  );

  console.log('\nfaults:');
  for (const line of faultLines) console.log(`  ${line}`);

  // The outage: requests that started between the stop and the cluster's start returning.
  const during = samples.filter((sample) => sample.start >= outage.stopAt && sample.start <= outage.startReturnedAt);
  const slowest = during.length ? Math.max(...during.map(ms)) : Number.NaN;
  const with503 = during.filter((sample) => sample.status === 503 && sample.retryAfter).length;
  const succeeded = during.filter((sample) => !sample.error).length;
  const otherwise = during.filter((sample) => sample.error && !(sample.status === 503 && sample.retryAfter));
  console.log(
    `PostgreSQL outage: ${during.length} requests started during it: ${with503} answered 503 with retry-after, ${succeeded} succeeded, ${otherwise.length} otherwise${otherwise.length ? ` (${describeFailures(otherwise)})` : ''}; ` +
      `503 answers p50 ${fmt(percentile(during.filter((s) => s.status === 503).map(ms), 50))}, p99 ${fmt(percentile(during.filter((s) => s.status === 503).map(ms), 99))}`,
  );
  console.log(`  slowest answer during the outage: ${fmt(slowest)} (budget ${outageAnswerBudget} ms) ${slowest <= outageAnswerBudget ? 'OK' : 'OVER'}`);
  budgets.push({ name: 'slowest answer during the outage', value: slowest, budget: outageAnswerBudget, unit: 'ms' });
  console.log(`  answers during the outage neither a success nor 503 with retry-after: ${otherwise.length} (budget 0) ${otherwise.length === 0 ? 'OK' : 'OVER'}`);
  budgets.push({ name: 'outage answers neither success nor 503 with retry-after', value: otherwise.length, budget: 0, unit: '' });
  for (const item of back) {
    console.log(
      `  ${item.name} after PostgreSQL's start returned: ready (GET /api/health/ready 200) in ${fmt(item.readyMs)}, a list answered 200 in ${fmt(item.listMs)} (budget ${backBudget} ms) ${Math.max(item.readyMs, item.listMs) <= backBudget ? 'OK' : 'OVER'}`,
    );
    budgets.push({ name: `${item.name} ready after PostgreSQL's return`, value: item.readyMs, budget: backBudget, unit: 'ms' });
    budgets.push({ name: `${item.name} serving a list after PostgreSQL's return`, value: item.listMs, budget: backBudget, unit: 'ms' });
  }

  const errorLines = everyProcess.flatMap((instance) => instance.errorLines.map((line) => `${instance.name} pid ${instance.pid}: ${line}`));
  console.log(`\nserver log lines at level error: ${errorLines.length}`);
  for (const line of errorLines.slice(0, 5)) console.log(`  ${line}`);
  console.log(`instance processes that exited unasked (budget 0): ${unexpectedExits.length} ${unexpectedExits.length === 0 ? 'OK' : 'OVER'}`);
  for (const line of unexpectedExits) console.log(`  ${line}`);
  budgets.push({ name: 'instances exited unasked', value: unexpectedExits.length, budget: 0, unit: '' });

  const acked = acknowledged(created);
  const unacked = (op: string) => samples.filter((sample) => sample.op === op && sample.error).length;
  console.log(
    `\nacknowledged writes: ${acked.create + acked.save + acked.cancel} (create ${acked.create}, save ${acked.save}, cancel ${acked.cancel}); not acknowledged: create ${unacked('create')}, save ${unacked('save')}, cancel ${unacked('cancel')}`,
  );
  console.log(`acknowledged writes missing when read back: ${missing.length} (budget 0) ${missing.length === 0 ? 'OK' : 'OVER'}`);
  for (const line of missing.slice(0, 20)) console.log(`  ${line}`);
  budgets.push({ name: 'acknowledged writes missing', value: missing.length, budget: 0, unit: '' });
  console.log(`load average (1 / 5 / 15 min) after: ${loadAverage()}`);

  // A clean stop of both: each drains and exits 0.
  agent.destroy();
  const stops = await Promise.all(
    instances.map(async (instance) => `${instance.name} ${await stopInstance(instance)}`),
  );
  console.log(`instances stopped (SIGTERM): ${stops.join(', ')}`);

  const over = budgets.filter((item) => !(item.value <= item.budget));
  console.log(over.length === 0 ? '\nevery budget met' : `\nbudgets missed: ${over.map((item) => `${item.name} ${item.value.toFixed(1)}${item.unit ? ` ${item.unit}` : ''} > ${item.budget}`).join('; ')}`);
  return over.length === 0 ? 0 : 1;
}

/** Stops every instance still running when the soak fails. */
export function killInstances() {
  for (const instance of everyProcess) {
    instance.signalled = true;
    if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGKILL');
  }
}
