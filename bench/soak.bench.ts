// `npm run soak`: soak and fault injection against the real server process (issue 11).
//
// SOAK_USERS (default 50) users run list, detail (when GET /api/application/get/{id} exists) and
// write requests back to back (SOAK_THINK_MS mean pause, default 0) for SOAK_SECONDS (default 60)
// against `node --import tsx server/main.ts` on a fresh PGlite directory, .data/soak. At a third of
// the run the server is SIGKILLed and restarted on the same directory and port, at two thirds it is
// SIGTERMed and restarted. Every write the server acknowledged (2xx/303) is recorded with what it
// wrote; after the run the server is SIGKILLed once more (nothing flushed by a clean close), started
// again, and every acknowledged write is read back. Prints requests/s, p50/p99 per kind, errors by
// kind while up and while down, restart times, lock-file takeovers and exit codes, acknowledged and
// missing writes; exits 1 if any acknowledged write is missing. The load average is printed too: on
// a shared two-core machine the latencies say as much about the neighbours as about the server.
//
// SOAK_DATABASE=postgres (npm run soak:postgres) runs bench/soak-postgres.ts instead: two instances on
// one PostgreSQL, an instance SIGKILLed and PostgreSQL restarted under load.
// Both soaks take the people, their requests and the read-back from bench/soak-workload.ts, and
// start servers through bench/server-instances.ts.
//
// SOAK_SLOWEST=n prints the n slowest answered requests with their start time.
// SOAK_DEBUG_REPORT=1 with NODE_OPTIONS="--report-on-signal --report-signal=SIGUSR2" makes a server
// that ignores SIGTERM for 30 s write a diagnostic report (stacks, open handles) before its SIGKILL.
import http from 'node:http';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, percentile } from './support.ts';
import { signInOverHttp } from './http-sign-in.ts';
import { now, sleep, spawnInstance, stopInstance, waitUntilAnswering, type Instance } from './server-instances.ts';
import {
  acknowledged,
  demoAdmin,
  describeFailures,
  fmt,
  loadAverage,
  personKinds,
  peopleBesideFaults,
  personLoop,
  readBack,
  seededPeople,
  sendRequest,
  sharedDemoAccounts,
  timedRequests,
  tokenCache,
  writeLimitsLifted,
  type Created,
  type Person,
  type Sample,
} from './soak-workload.ts';
import { killInstances, soakPostgres } from './soak-postgres.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const userCount = Number(process.env.SOAK_USERS ?? 50);
const thinkMs = Number(process.env.SOAK_THINK_MS ?? 0);
const dataDir = fileURLToPath(new URL('../.data/soak', import.meta.url));
const lockPath = `${dataDir}.lock`;
/** Budgets: list p99 at 50 connections on the demo data; acknowledged writes lost: none. */
const listP99Budget = 150;
/** Requests that start this soon after a restart's first answer are "just restarted" (cold caches). */
const settleMs = 5_000;
/** The SIGTERM comes no sooner than this after the SIGKILLed server is back. */
const minUpMs = 5_000;

/* ---------- the server process ---------- */

/** The server process running now, stopped if the script fails. */
let liveServer: Instance | undefined;

async function startServer(port: number): Promise<Instance> {
  const instance = spawnInstance({
    name: 'server',
    port,
    env: { DATA_DIR: dataDir },
    defaults: writeLimitsLifted,
    // SOAK_SERVER_NODE_ARGS: extra node options for the server only (e.g. --cpu-prof, which NODE_OPTIONS refuses).
    nodeArgs: process.env.SOAK_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
  });
  liveServer = instance;
  if (process.env.SOAK_DEBUG_REPORT) console.log(`server pid ${instance.pid}`);
  return waitUntilAnswering(instance, '/api/tenant/validate');
}

const readLock = () => (existsSync(lockPath) ? readFileSync(lockPath, 'utf8').trim() : undefined);

const agent = new http.Agent({ keepAlive: true, maxSockets: userCount + 16 });

const samples: Sample[] = [];
const created: Created[] = [];

/** Fault windows: from the signal until the restarted server first answered. */
const windows: { from: number; to: number }[] = [];
let currentRun = 1;

async function main() {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(lockPath, { force: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const send = (path: string, options = {}) => sendRequest(agent, port, 'GET', path, options);
  const tokens = tokenCache((person) => signInOverHttp(origin, person.email));
  const adminToken = () => tokens.tokenFor(demoAdmin);

  console.log(`Soak: ${userCount} users for ${seconds} s (think ${thinkMs} ms) on ${origin}, fresh ${dataDir}`);
  console.log(`load average (1 / 5 / 15 min) before: ${loadAverage()}`);
  let server = await startServer(port);
  console.log(`first start (initdb + demo seed): ${fmt(server.readyAt - server.spawnedAt)}, pid ${server.pid}, lock names ${readLock()}`);
  const runs = [server];

  for (const kind of personKinds) await tokens.tokenFor(kind);
  const people: Person[] =
    process.env.SOAK_SHARED_ACCOUNTS === '1' ? sharedDemoAccounts(userCount) : await seededPeople(userCount, async (path) => send(path, { token: await adminToken() }));
  for (const person of people) await tokens.tokenFor(person);
  console.log(`people: ${new Set(people.map((person) => person.email)).size} accounts for ${people.length} simulated people`);

  // Application ids to read one by one, and whether the detail route exists (404 for every id: not yet).
  const ids: number[] = [];
  for (let pageNo = 1; pageNo <= 10; pageNo++) {
    const answer = await send(`/api/application/list/all?pageNo=${pageNo}`, { token: await adminToken() });
    if (answer.status !== 200) throw new Error(`list/all answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as { Applications: { ApplicationID: number }[] };
    ids.push(...body.Applications.map((row) => row.ApplicationID));
  }
  const probes: number[] = [];
  for (const id of ids.slice(0, 5)) probes.push((await send(`/api/application/get/${id}`, { token: await adminToken() })).status);
  const detail = probes.some((status) => status === 200);
  console.log(
    detail
      ? `detail: GET /api/application/get/{id} present (probes ${probes.join(', ')}); in the mix`
      : `detail: GET /api/application/get/{id} absent (probes answered ${probes.join(', ')}); skipped`,
  );

  const startedAt = now();
  const endAt = startedAt + seconds * 1000;
  // One server: every request goes to it, and it is the one that answered.
  const timed = timedRequests(samples, tokens, async (_home, method, path, options) => ({
    answer: await sendRequest(agent, port, method, path, options),
    instance: 0,
    failedOver: false,
  }));

  interface Fault {
    signal: 'SIGKILL' | 'SIGTERM';
    pid: number;
    signalAt: number;
    exit: { code: number | null; signal: NodeJS.Signals | null; at: number };
    lockAfterExit: string | undefined;
    lockAfterRestart: string | undefined;
    restartMs: number;
    readyAt: number;
    newPid: number;
    output: string;
  }
  const faults: Fault[] = [];

  /** What the list engine of the server about to be stopped did (pages kept under writes, reads again, snapshot pages). */
  async function printListCaches() {
    const answer = await send('/api/admin/cachestats', { token: await adminToken() }).catch(() => undefined);
    if (answer?.status === 200) console.log(`list caches of pid ${server.pid}: ${answer.body.toString('utf8')}`);
  }

  async function fault(signal: 'SIGKILL' | 'SIGTERM') {
    await printListCaches();
    const victim = server;
    const signalAt = now();
    victim.child.kill(signal);
    const exit = await Promise.race([victim.exited, sleep(30_000).then(() => undefined)]);
    if (!exit) {
      console.log(`${signal}: pid ${victim.pid} still running after 30 s; SIGKILL`);
      if (process.env.SOAK_DEBUG_REPORT) {
        victim.child.kill('SIGUSR2');
        await sleep(3000);
      }
      victim.child.kill('SIGKILL');
    }
    const exited = exit ?? (await victim.exited);
    const lockAfterExit = readLock();
    currentRun++;
    server = await startServer(port);
    runs.push(server);
    windows.push({ from: signalAt, to: server.readyAt });
    faults.push({
      signal,
      pid: victim.pid,
      signalAt,
      exit: exited,
      lockAfterExit,
      lockAfterRestart: readLock(),
      restartMs: server.readyAt - server.spawnedAt,
      readyAt: server.readyAt,
      newPid: server.pid,
      output: victim.output(),
    });
  }

  const controller = (async () => {
    await sleep(Math.max(0, startedAt + (seconds * 1000) / 3 - now()));
    await fault('SIGKILL');
    // At two thirds, but not before the restarted server has served for a while (restarts are slow
    // on a busy machine).
    const termAt = Math.max(startedAt + (seconds * 2000) / 3, server.readyAt + minUpMs);
    if (termAt > startedAt + (seconds * 2000) / 3)
      console.log(
        `SIGTERM put off to ${((termAt - startedAt) / 1000).toFixed(1)} s: ${minUpMs / 1000} s after the restart`,
      );
    await sleep(Math.max(0, termAt - now()));
    await fault('SIGTERM');
  })();
  await peopleBesideFaults(controller, (stopped) =>
    Array.from({ length: userCount }, (_, index) =>
      personLoop({
        index,
        person: people[index] as Person,
        home: 0,
        timed,
        created,
        ids,
        detail,
        thinkMs,
        running: () => !stopped() && now() < endAt,
        run: () => currentRun,
      }),
    ),
  );
  const loadEnd = now();

  // Final: SIGKILL with the load stopped (no clean close flushes anything), start again, read back.
  await fault('SIGKILL');
  const final = faults.pop();
  if (!final) throw new Error('no final restart');
  windows.pop();
  agent.destroy();

  const missing = await readBack(created, (app) => send(`/external/application-form/${app.guid}?token=${encodeURIComponent(app.token)}`));

  /* ---------- report ---------- */
  const duration = (loadEnd - startedAt) / 1000;
  const inWindow = (sample: Sample) =>
    windows.some((window) => sample.end >= window.from && sample.start <= window.to);
  // The first start counts as a start: fifty people sending their first request in the same
  // millisecond to a server with nothing cached is the bench's doing, not a person's pace.
  const restarting = (sample: Sample) =>
    windows.some((window) => sample.start >= window.from && sample.start <= window.to + settleMs);
  const settling = (sample: Sample) => sample.start <= startedAt + settleMs || restarting(sample);
  const ok = samples.filter((sample) => !sample.error);
  const downSeconds =
    windows.reduce((sum, window) => sum + Math.max(0, Math.min(window.to, loadEnd) - window.from), 0) / 1000;
  console.log(
    `\nload: ${samples.length.toLocaleString('en-AU')} requests in ${duration.toFixed(1)} s (${(samples.length / duration).toFixed(0)}/s, refused ones while down included); ` +
      `${ok.length.toLocaleString('en-AU')} answered without error = ${(ok.length / duration).toFixed(1)}/s over the run, ` +
      `${(ok.length / Math.max(1, duration - downSeconds)).toFixed(1)}/s over the ${(duration - downSeconds).toFixed(1)} s the server was up; ${tokens.signIns()} sign-ins`,
  );
  if (process.env.SOAK_SLOWEST) {
    // SOAK_SLOWEST=n: the n slowest answered requests, with when they started (to tell a stall from a tail).
    const slowest = ok.filter((sample) => !settling(sample)).sort((a, b) => b.end - b.start - (a.end - a.start));
    for (const sample of slowest.slice(0, Number(process.env.SOAK_SLOWEST)))
      console.log(`slow: ${sample.op} ${(sample.end - sample.start).toFixed(1)} ms, started at ${((sample.start - startedAt) / 1000).toFixed(2)} s`);
  }
  console.log('kind   | ok requests | p50 | p99 | max | p99 excluding 5 s after each restart | and after the first start');
  const p99s: Record<string, number> = {};
  for (const kind of ['list', 'detail', 'write'] as const) {
    const all = ok.filter((sample) => sample.kind === kind).map((sample) => sample.end - sample.start);
    const restarted = ok.filter((sample) => sample.kind === kind && !restarting(sample)).map((sample) => sample.end - sample.start);
    const steady = ok
      .filter((sample) => sample.kind === kind && !settling(sample))
      .map((sample) => sample.end - sample.start);
    p99s[kind] = percentile(all, 99);
    p99s[`${kind}-steady`] = percentile(steady, 99);
    if (all.length === 0) {
      console.log(
        `${kind.padEnd(6)} | 0 | - | - | - | -${kind === 'detail' && !detail ? ' (route absent)' : ''}`,
      );
      continue;
    }
    console.log(
      `${kind.padEnd(6)} | ${all.length.toLocaleString('en-AU')} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ${fmt(Math.max(...all))} | ${fmt(percentile(restarted, 99))} | ${fmt(percentile(steady, 99))}`,
    );
  }
  for (const op of ['create', 'save', 'cancel']) {
    const all = ok.filter((sample) => sample.op === op).map((sample) => sample.end - sample.start);
    const restarted = ok.filter((sample) => sample.op === op && !restarting(sample)).map((sample) => sample.end - sample.start);
    const steady = ok.filter((sample) => sample.op === op && !settling(sample)).map((sample) => sample.end - sample.start);
    if (all.length)
      console.log(
        `  write ${op.padEnd(6)} | ${all.length.toLocaleString('en-AU')} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ${fmt(Math.max(...all))} | ${fmt(percentile(restarted, 99))} | ${fmt(percentile(steady, 99))}`,
      );
  }

  const failed = samples.filter((sample) => sample.error);
  const down = failed.filter(inWindow);
  const up = failed.filter((sample) => !inWindow(sample));
  console.log(
    `\nerrors while up:   ${up.length} (list ${up.filter((s) => s.kind === 'list').length}, detail ${up.filter((s) => s.kind === 'detail').length}, write ${up.filter((s) => s.kind === 'write').length}): ${describeFailures(up)}`,
  );
  console.log(
    `errors while down: ${down.length} (list ${down.filter((s) => s.kind === 'list').length}, detail ${down.filter((s) => s.kind === 'detail').length}, write ${down.filter((s) => s.kind === 'write').length}): ${describeFailures(down)}`,
  );
  const serverErrors = runs.flatMap((run, index) =>
    run.errorLines.map((line) => `run ${index + 1}: ${line}`),
  );
  console.log(`server log lines at level error: ${serverErrors.length}`);
  for (const line of serverErrors.slice(0, 5)) console.log(`  ${line}`);

  console.log('\nfaults:');
  for (const item of [...faults, final]) {
    const at = ((item.signalAt - startedAt) / 1000).toFixed(1);
    const how = item.exit.signal ? `killed by ${item.exit.signal}` : `exit code ${item.exit.code}`;
    const staleTaken =
      item.lockAfterExit === undefined
        ? 'no lock left behind'
        : item.lockAfterExit === String(item.pid)
          ? `stale lock (pid ${item.pid}) left behind, ${item.lockAfterRestart === String(item.newPid) ? 'taken over by the restart' : `NOT taken over (lock names ${item.lockAfterRestart})`}`
          : `lock names ${item.lockAfterExit}`;
    console.log(
      `  ${item === final ? 'final ' : ''}${item.signal} at ${at} s: pid ${item.pid} ${how} after ${fmt(item.exit.at - item.signalAt)}; ` +
        `restart (spawn → first answer) ${fmt(item.restartMs)}; down ${fmt(item.readyAt - item.signalAt)}; ${staleTaken}; new pid ${item.newPid}`,
    );
    if (item.signal === 'SIGTERM' && (item.exit.code ?? 0) !== 0) {
      const last = item.output
        .trim()
        .split('\n')
        .filter((line) => line.trim())
        .slice(-3)
        .join(' | ');
      console.log(`    its last output: ${last.slice(0, 600)}`);
    }
  }

  const acked = acknowledged(created);
  // Not acknowledged: refused while down, failed, or the answer lost in a fault (then it may or may
  // not have been written; the read-back accepts either).
  const unacked = (op: string) => samples.filter((sample) => sample.op === op && sample.error).length;
  const byRun = [1, 2, 3].map(
    (run) =>
      created.filter((app) => app.run === run).length +
      created.reduce(
        (sum, app) => sum + app.saves.filter((save) => save.acked && save.run === run).length,
        0,
      ) +
      created.filter((app) => app.cancel?.acked && app.cancel.run === run).length,
  );
  console.log(
    `\nacknowledged writes: ${acked.create + acked.save + acked.cancel} (create ${acked.create}, save ${acked.save}, cancel ${acked.cancel}; ` +
      `by server run: before SIGKILL ${byRun[0]}, between ${byRun[1]}, after SIGTERM ${byRun[2]}); not acknowledged: create ${unacked('create')}, save ${unacked('save')}, cancel ${unacked('cancel')}`,
  );
  console.log(
    `acknowledged writes missing after restart: ${missing.length} (budget 0) ${missing.length === 0 ? 'OK' : 'OVER'}`,
  );
  for (const line of missing.slice(0, 20)) console.log(`  ${line}`);
  const listP99 = p99s.list ?? Number.NaN;
  console.log(
    `list p99 at ${userCount} connections: ${fmt(listP99)} (budget ${listP99Budget} ms, ratio ${(listP99 / listP99Budget).toFixed(2)} ${listP99 <= listP99Budget ? 'OK' : 'OVER'}); excluding 5 s after each start ${fmt(p99s['list-steady'] ?? Number.NaN)}`,
  );

  console.log(`load average (1 / 5 / 15 min) after: ${loadAverage()}`);
  console.log(`server stopped: ${await stopInstance(server)}`);
  return missing.length === 0 ? 0 : 1;
}

let exitCode = 2;
try {
  // SOAK_DATABASE=postgres: two instances on the cluster of scripts/with-postgres.sh (bench/soak-postgres.ts).
  exitCode = process.env.SOAK_DATABASE === 'postgres' ? await soakPostgres() : await main();
} catch (error) {
  console.error(error);
  liveServer?.child.kill('SIGKILL');
  killInstances();
}
process.exit(exitCode);
