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
//
// SOAK_SLOWEST=n prints the n slowest answered requests with their start time.
// SOAK_DEBUG_REPORT=1 with NODE_OPTIONS="--report-on-signal --report-signal=SIGUSR2" makes a server
// that ignores SIGTERM for 30 s write a diagnostic report (stacks, open handles) before its SIGKILL.
import http from 'node:http';
import { loadavg } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, percentile } from './support.ts';
import { signInOverHttp } from './http-sign-in.ts';
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

/**
 * The write limits count per address and per account: here 50 users share one address and three
 * accounts, which real users never do, so they are lifted unless set (sign-in limits stay as they
 * are: the soak signs in once per account and again only on a 401).
 */
const rateLimits = { RATE_LIMIT_WRITES_PER_ADDRESS: '1000000', RATE_LIMIT_WRITES_PER_ACCOUNT: '1000000' };

const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '-');

/* ---------- the server process ---------- */

interface ServerRun {
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  readyAt: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** The last of what the server wrote (stdout: its log; stderr: failures). */
  output(): string;
  /** Log lines at level error or above (pino level >= 50) seen so far. */
  errorLines: string[];
}

/** The server process running now, stopped if the script fails. */
let liveServer: ServerRun | undefined;

async function startServer(port: number): Promise<ServerRun> {
  const spawnedAt = now();
  // SOAK_SERVER_NODE_ARGS: extra node options for the server only (e.g. --cpu-prof, which NODE_OPTIONS refuses).
  const extraArgs = process.env.SOAK_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extraArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      ...rateLimits,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const errorLines: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-8000);
    for (const line of text.split('\n')) {
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level && Number(level) >= 50) errorLines.push(line.slice(0, 500));
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: now() })),
  );
  if (process.env.SOAK_DEBUG_REPORT) console.log(`server pid ${child.pid}`);
  const deadline = spawnedAt + 180_000;
  while (now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/tenant/validate`);
      await response.arrayBuffer();
      if (response.ok) {
        liveServer = {
          child,
          pid: child.pid ?? 0,
          spawnedAt,
          readyAt: now(),
          exited,
          output: () => output,
          errorLines,
        };
        return liveServer;
      }
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  child.kill('SIGKILL');
  throw new Error('Server did not start within 180 s');
}

const readLock = () => (existsSync(lockPath) ? readFileSync(lockPath, 'utf8').trim() : undefined);

/* ---------- HTTP ---------- */

const agent = new http.Agent({ keepAlive: true, maxSockets: userCount + 16 });

interface Answer {
  status: number;
  body: Buffer;
  location?: string;
}

function send(
  port: number,
  method: string,
  path: string,
  options: { token?: string; body?: string; type?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) {
      headers['content-type'] = options.type ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const request = http.request(
      { host: '127.0.0.1', port, method, path, agent, headers, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks),
            location: response.headers.location,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    request.on('error', reject);
    request.end(options.body);
  });
}

/* ---------- what happened ---------- */

type Kind = 'list' | 'detail' | 'write';
interface Sample {
  kind: Kind;
  /** list/my, list/all, create, save, cancel, detail */
  op: string;
  start: number;
  end: number;
  /** HTTP status, or 0 when the request failed without one. */
  status: number;
  /** The failure: the status as text, or the socket error's code. */
  error?: string;
}
const samples: Sample[] = [];

interface Created {
  id: number;
  guid: string;
  token: string;
  /** The server run (1, 2, 3) that acknowledged the create. */
  run: number;
  saves: { value: string; acked: boolean; run: number }[];
  cancel?: { acked: boolean; run: number };
}
const created: Created[] = [];

/** Fault windows: from the signal until the restarted server first answered. */
const windows: { from: number; to: number }[] = [];
let currentRun = 1;

/* ---------- users ---------- */

interface User {
  email: string;
  lists: readonly string[];
  cancel: boolean;
  detail: boolean;
}

/** The three kinds of people (and the demo accounts they used to share). */
const users: readonly User[] = [
  {
    email: 'admin@demo.test',
    lists: ['/api/application/list/all', '/api/application/list'],
    cancel: true,
    detail: true,
  },
  {
    email: 'manager@demo.test',
    lists: ['/api/application/list/all', '/api/application/list'],
    cancel: true,
    detail: true,
  },
  { email: 'staff@demo.test', lists: ['/api/application/list'], cancel: false, detail: false },
];
const demoAdmin = users[0] as User;
/** Two in five people are administrators, two managers, one staff. */
const kindOf = (index: number) => (index % 5 < 2 ? 0 : index % 5 < 4 ? 1 : 2);
const seededRoles = ['Admin Staff (Full Access)', 'Application Manager', 'Staff'];

/**
 * Each simulated person signs in as a seeded account of their own with their kind's role, as fifty
 * people would: what a person just wrote decides what their next list pages are read from
 * (docs/decisions/001), and fifty loops sharing three accounts would each count as the writer of
 * everything. SOAK_SHARED_ACCOUNTS=1 shares the three demo accounts instead (the soak before issue 33).
 */
async function peopleFor(port: number, origin: string): Promise<User[]> {
  const shared = Array.from({ length: userCount }, (_, index) => users[kindOf(index)] as User);
  if (process.env.SOAK_SHARED_ACCOUNTS === '1') return shared;
  const pools: string[][] = [[], [], []];
  for (let pageNo = 1; pageNo <= 4; pageNo++) {
    const answer = await send(port, 'GET', `/api/users/list?PageNo=${pageNo}&RowsPerPage=100&SearchQuery=staff.demo.test`, { token: await tokenFor(origin, demoAdmin) });
    if (answer.status !== 200) throw new Error(`users list answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as { Users: { Email: string; RoleName: string; Status: string; HasApplicationAccess: boolean }[] };
    // An administrator without application access lists nothing (issue 39 point 1): not one of these people.
    for (const person of body.Users)
      if (person.Status === 'Active' && (person.HasApplicationAccess || person.RoleName !== seededRoles[0])) pools[seededRoles.indexOf(person.RoleName)]?.push(person.Email);
  }
  return shared.map((user, index) => {
    const pool = pools[kindOf(index)] ?? [];
    const email = pool[Math.floor(index / 5) * 2 + (index % 5) % 2];
    if (!email) throw new Error(`not enough active seeded ${seededRoles[kindOf(index)]} accounts for ${userCount} people`);
    return { ...user, email };
  });
}

const tokens = new Map<string, Promise<string>>();
let signIns = 0;
function tokenFor(origin: string, user: User, stale?: string): Promise<string> {
  const current = tokens.get(user.email);
  if (current && stale === undefined) return current;
  // One sign-in per user at a time, however many of its loops saw the 401.
  const fresh = (async () => {
    if (current && stale !== undefined && (await current.catch(() => undefined)) !== stale) return current;
    signIns++;
    return signInOverHttp(origin, user.email);
  })();
  tokens.set(user.email, fresh);
  fresh.catch(() => {
    if (tokens.get(user.email) === fresh) tokens.delete(user.email);
  });
  return fresh;
}

const listParams: Record<string, string>[] = [
  {},
  { sortBy: 'AccountName', sortType: 'asc' },
  { sortBy: 'CreatedDate', sortType: 'asc' },
  { sortBy: 'InvestmentAmount', sortType: 'desc' },
  { sortBy: 'ClientName', sortType: 'desc' },
  { status: JSON.stringify(['Adviser edit', 'Complete']) },
  { q: 'smith' },
];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

async function main() {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(lockPath, { force: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;

  console.log(
    `Soak: ${userCount} users for ${seconds} s (think ${thinkMs} ms) on ${origin}, fresh ${dataDir}`,
  );
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ');
  console.log(`load average (1 / 5 / 15 min) before: ${load()}`);
  let server = await startServer(port);
  console.log(
    `first start (initdb + demo seed): ${fmt(server.readyAt - server.spawnedAt)}, pid ${server.pid}, lock names ${readLock()}`,
  );
  const runs = [server];

  for (const user of users) await tokenFor(origin, user);
  const people = await peopleFor(port, origin);
  for (const person of people) await tokenFor(origin, person);
  console.log(`people: ${new Set(people.map((person) => person.email)).size} accounts for ${people.length} simulated people`);

  // Application ids to read one by one, and whether the detail route exists (404 for every id: not yet).
  const ids: number[] = [];
  for (let pageNo = 1; pageNo <= 10; pageNo++) {
    const answer = await send(port, 'GET', `/api/application/list/all?pageNo=${pageNo}`, {
      token: await tokenFor(origin, demoAdmin),
    });
    if (answer.status !== 200) throw new Error(`list/all answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as {
      Applications: { ApplicationID: number; ApplicationGuid: string }[];
    };
    ids.push(...body.Applications.map((row) => row.ApplicationID));
  }
  const probes: number[] = [];
  for (const id of ids.slice(0, 5))
    probes.push(
      (await send(port, 'GET', `/api/application/get/${id}`, { token: await tokenFor(origin, demoAdmin) }))
        .status,
    );
  const detail = probes.some((status) => status === 200);
  console.log(
    detail
      ? `detail: GET /api/application/get/{id} present (probes ${probes.join(', ')}); in the mix`
      : `detail: GET /api/application/get/{id} absent (probes answered ${probes.join(', ')}); skipped`,
  );

  const startedAt = now();
  const endAt = startedAt + seconds * 1000;
  let stopping = false;

  /** One request, timed and recorded; the answer, or undefined when it failed. */
  async function timed(
    kind: Kind,
    op: string,
    user: User,
    method: string,
    path: (token: string) => string,
    body?: { text: string; type?: string },
    bearer = true,
  ) {
    for (let attempt = 0; attempt < 2; attempt++) {
      let token = '';
      if (bearer) {
        try {
          token = await tokenFor(origin, user);
        } catch (error) {
          // The sign-in itself failed (the server is down): a failed request of this kind.
          const at = now();
          samples.push({ kind, op, start: at, end: at, status: 0, error: `sign-in: ${codeOf(error)}` });
          await sleep(100);
          return undefined;
        }
      }
      const start = now();
      try {
        const answer = await send(port, method, path(token), {
          token: bearer ? token : undefined,
          body: body?.text,
          type: body?.type,
        });
        const end = now();
        const ok = answer.status >= 200 && answer.status < 400;
        const sample: Sample = {
          kind,
          op,
          start,
          end,
          status: answer.status,
          ...(ok ? {} : { error: String(answer.status) }),
        };
        samples.push(sample);
        if (answer.status === 401 && bearer && attempt === 0) {
          // Signed out (a restart that forgot the keys, an expired token): sign in again, once.
          await tokenFor(origin, user, token).catch(() => undefined);
          continue;
        }
        if (!ok) await sleep(20);
        // The sample goes with the answer: a caller may find the answer a failure after all.
        return ok ? { ...answer, sample } : undefined;
      } catch (error) {
        samples.push({ kind, op, start, end: now(), status: 0, error: codeOf(error) });
        // Refused while the server is down: back off instead of spinning.
        await sleep(100);
        return undefined;
      }
    }
    return undefined;
  }

  async function userLoop(index: number) {
    const user = people[index] as User;
    const mine: Created[] = [];
    let writeNo = 0;
    // At a person's pace, people do not all click in the same millisecond: each starts within one pause.
    if (thinkMs > 0) await sleep(thinkMs * Math.random());
    while (!stopping && now() < endAt) {
      const roll = Math.random();
      if (roll < 0.2) {
        // An application is either saved or cancelled, never both: a cancelled one's form page no
        // longer shows what was saved, and a save after the cancel is refused (409).
        const open = mine.filter((app) => !app.cancel);
        const cancellable = open.filter((app) => app.saves.length === 0);
        const choice = Math.random();
        const wants =
          choice < 0.4 || open.length === 0 ? 'create' : choice < 0.85 || !user.cancel ? 'save' : 'cancel';
        if (wants === 'create' || (wants === 'cancel' && cancellable.length === 0)) {
          const answer = await timed('write', 'create', user, 'POST', () => '/api/application/new', {
            text: '{}',
          });
          if (answer) {
            const body = JSON.parse(answer.body.toString('utf8')) as {
              Result: string;
              Message: string;
              Url: string;
            };
            const id = Number(/Application (\d+) created/.exec(body.Message)?.[1]);
            const url = new URL(body.Url);
            const guid = url.pathname.split('/').pop() ?? '';
            const app: Created = {
              id,
              guid,
              token: url.searchParams.get('token') ?? '',
              run: currentRun,
              saves: [],
            };
            created.push(app);
            mine.push(app);
          }
        } else if (wants === 'save') {
          const app = pick(open);
          const value = `soak-${index}-${++writeNo}`;
          const save = { value, acked: false, run: currentRun };
          app.saves.push(save);
          const form = new URLSearchParams({
            token: app.token,
            AccountName: value,
            ClientName: `Client ${value}`,
            PrimaryEmail: '',
          }).toString();
          const answer = await timed(
            'write',
            'save',
            user,
            'POST',
            () => `/external/application-form/${app.guid}`,
            { text: form, type: 'application/x-www-form-urlencoded' },
            false,
          );
          if (answer?.status === 303) Object.assign(save, { acked: true, run: currentRun });
        } else {
          const app = pick(cancellable);
          app.cancel = { acked: false, run: currentRun };
          const answer = await timed('write', 'cancel', user, 'POST', () => '/api/application/cancel', {
            text: JSON.stringify({ ApplicationCancellations: [{ ApplicationGuid: app.guid }] }),
          });
          if (answer) {
            const body = JSON.parse(answer.body.toString('utf8')) as {
              Results: { ApplicationGuid: string; Success: boolean }[];
            };
            if (body.Results[0]?.Success) app.cancel = { acked: true, run: currentRun };
            else answer.sample.error = 'Success false';
          }
        }
      } else if (detail && user.detail && roll < 0.4) {
        const id = pick(ids);
        await timed('detail', 'detail', user, 'GET', () => `/api/application/get/${id}`);
      } else {
        const list = pick(user.lists);
        const params = new URLSearchParams({
          ...pick(listParams),
          pageNo: String(1 + Math.floor(Math.random() * 20)),
        });
        await timed(
          'list',
          list.endsWith('/all') ? 'list/all' : 'list/my',
          user,
          'GET',
          () => `${list}?${params}`,
        );
      }
      if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
    }
  }

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
    const answer = await send(port, 'GET', '/api/admin/cachestats', { token: await tokenFor(origin, demoAdmin) }).catch(() => undefined);
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
  const loops = Array.from({ length: userCount }, (_, index) => userLoop(index));
  try {
    await controller;
  } catch (error) {
    stopping = true;
    await Promise.all(loops);
    throw error;
  }
  await Promise.all(loops);
  const loadEnd = now();

  // Final: SIGKILL with the load stopped (no clean close flushes anything), start again, read back.
  await fault('SIGKILL');
  const final = faults.pop();
  if (!final) throw new Error('no final restart');
  windows.pop();
  agent.destroy();

  const missing: string[] = [];
  const readBack = async (app: Created) => {
    const answer = await send(
      port,
      'GET',
      `/external/application-form/${app.guid}?token=${encodeURIComponent(app.token)}`,
    );
    const html = answer.body.toString('utf8');
    if (answer.status !== 200 || !html.includes(`<h1>Application ${app.id}</h1>`)) {
      missing.push(`create of application ${app.id} (run ${app.run}): form page answered ${answer.status}`);
      return;
    }
    const status = /<dt>Status<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];
    if (app.cancel?.acked && status !== 'Cancelled')
      missing.push(`cancel of application ${app.id} (run ${app.cancel.run}): status ${status}`);
    const lastAcked = app.saves.map((save) => save.acked).lastIndexOf(true);
    if (lastAcked >= 0) {
      const accountName = /id="AccountName" name="AccountName" value="([^"]*)"/.exec(html)?.[1];
      // The last acknowledged value, or one written after it whose answer was lost in a fault.
      const allowed = app.saves.slice(lastAcked).map((save) => save.value);
      const save = app.saves[lastAcked];
      if (!allowed.includes(accountName ?? ''))
        missing.push(
          `save of application ${app.id} (run ${save?.run}): AccountName ${accountName}, expected ${save?.value}`,
        );
    }
  };
  const queue = [...created];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let app = queue.shift(); app; app = queue.shift()) await readBack(app);
    }),
  );

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
      `${(ok.length / Math.max(1, duration - downSeconds)).toFixed(1)}/s over the ${(duration - downSeconds).toFixed(1)} s the server was up; ${signIns} sign-ins`,
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
  const describe = (list: Sample[]) => {
    const byCause = new Map<string, number>();
    for (const sample of list)
      byCause.set(`${sample.op} ${sample.error}`, (byCause.get(`${sample.op} ${sample.error}`) ?? 0) + 1);
    return (
      [...byCause]
        .sort((a, b) => b[1] - a[1])
        .map(([cause, count]) => `${cause} ×${count}`)
        .join(', ') || 'none'
    );
  };
  const down = failed.filter(inWindow);
  const up = failed.filter((sample) => !inWindow(sample));
  console.log(
    `\nerrors while up:   ${up.length} (list ${up.filter((s) => s.kind === 'list').length}, detail ${up.filter((s) => s.kind === 'detail').length}, write ${up.filter((s) => s.kind === 'write').length}): ${describe(up)}`,
  );
  console.log(
    `errors while down: ${down.length} (list ${down.filter((s) => s.kind === 'list').length}, detail ${down.filter((s) => s.kind === 'detail').length}, write ${down.filter((s) => s.kind === 'write').length}): ${describe(down)}`,
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

  const acked = {
    create: created.length,
    save: created.reduce((sum, app) => sum + app.saves.filter((save) => save.acked).length, 0),
    cancel: created.filter((app) => app.cancel?.acked).length,
  };
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

  console.log(`load average (1 / 5 / 15 min) after: ${load()}`);
  server.child.kill('SIGTERM');
  const last = await Promise.race([server.exited, sleep(30_000).then(() => undefined)]);
  if (!last) server.child.kill('SIGKILL');
  console.log(
    `server stopped: ${last ? (last.signal ? `killed by ${last.signal}` : `exit code ${last.code}`) : 'did not stop within 30 s, SIGKILLed'}`,
  );
  return missing.length === 0 ? 0 : 1;
}

function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code =
      (error as { code?: unknown; cause?: { code?: unknown } }).code ??
      (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code === 'string') return code;
    if (error instanceof Error) return error.message.slice(0, 80);
  }
  return String(error).slice(0, 80);
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
