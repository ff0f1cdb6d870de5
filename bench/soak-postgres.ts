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
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, percentile } from './support.ts';
import { signInOverHttp, type Transport } from './http-sign-in.ts';

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

/** As in the PGlite soak: fifty people share one address, which real people never do. */
const rateLimits = { RATE_LIMIT_WRITES_PER_ADDRESS: '1000000', RATE_LIMIT_WRITES_PER_ACCOUNT: '1000000' };

const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '-');
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

/* ---------- instances ---------- */

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}
interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  readyAt: number;
  exited: Promise<Exit>;
  /** Set before the soak itself signals the process: any other exit misses a budget. */
  signalled: boolean;
  output(): string;
  errorLines: string[];
}

/** Processes that exited without the soak signalling them. */
const unexpectedExits: string[] = [];
const everyProcess: Instance[] = [];

function spawnInstance(name: string, port: number, databaseUrl: string): Instance {
  const spawnedAt = now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...rateLimits, ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', DATABASE_URL: databaseUrl },
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
  const instance: Instance = {
    name,
    port,
    child,
    pid: child.pid ?? 0,
    spawnedAt,
    readyAt: Number.NaN,
    exited: new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: now() }))),
    signalled: false,
    output: () => output,
    errorLines,
  };
  void instance.exited.then((exit) => {
    if (!instance.signalled)
      unexpectedExits.push(
        `${name} pid ${instance.pid} exited (${exit.signal ?? `code ${exit.code}`}) unasked at ${new Date().toISOString()}; its last output:\n${output.trim().split('\n').slice(-40).join('\n')}`,
      );
  });
  everyProcess.push(instance);
  return instance;
}

/** Resolves once the instance's readiness answers 200. */
async function ready(instance: Instance): Promise<Instance> {
  const deadline = instance.spawnedAt + 180_000;
  while (now() < deadline) {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null)
      throw new Error(`${instance.name} exited before it was ready:\n${instance.output()}`);
    const answer = await sendTo(instance.port, 'GET', '/api/health/ready').catch(() => undefined);
    if (answer?.status === 200) {
      instance.readyAt = now();
      return instance;
    }
    await sleep(20);
  }
  instance.signalled = true;
  instance.child.kill('SIGKILL');
  throw new Error(`${instance.name} was not ready within 180 s`);
}

/* ---------- HTTP behind one host name ---------- */

const agent = new http.Agent({ keepAlive: true, maxSockets: userCount + 16 });
/** The one host name the people use; the tenant is the demo (127.0.0.1), the port is only a name. */
let frontHost = '127.0.0.1';

interface Answer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

function sendTo(
  port: number,
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers, host: frontHost };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const request = http.request({ host: '127.0.0.1', port, method, path, agent, headers, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), headers: response.headers }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    request.on('error', reject);
    request.end(options.body);
  });
}

function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code === 'string') return code;
    if (error instanceof Error) return error.message.slice(0, 80);
  }
  return String(error).slice(0, 80);
}

const instances: Instance[] = [];
const failovers: { at: number; from: string; method: string; cause: string }[] = [];

/**
 * As a load balancer: to the home instance, and to the other when the home one refuses the
 * connection (nothing was sent) or, for a GET, breaks it (a GET may be repeated; a POST may have
 * been written, so its failure is the client's to see).
 */
async function route(
  home: number,
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ answer: Answer; instance: number; failedOver: boolean }> {
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

type Kind = 'list' | 'detail' | 'write';
interface Sample {
  kind: Kind;
  op: string;
  start: number;
  end: number;
  status: number;
  error?: string;
  instance: number;
  failedOver: boolean;
  retryAfter: boolean;
}
const samples: Sample[] = [];

interface Created {
  id: number;
  guid: string;
  token: string;
  saves: { value: string; acked: boolean }[];
  cancel?: { acked: boolean };
}
const created: Created[] = [];

interface User {
  email: string;
  lists: readonly string[];
  cancel: boolean;
  detail: boolean;
}
/** The three kinds of people, as in the PGlite soak: two in five administrators, two managers, one staff. */
const kinds: readonly User[] = [
  { email: 'admin@demo.test', lists: ['/api/application/list/all', '/api/application/list'], cancel: true, detail: true },
  { email: 'manager@demo.test', lists: ['/api/application/list/all', '/api/application/list'], cancel: true, detail: true },
  { email: 'staff@demo.test', lists: ['/api/application/list'], cancel: false, detail: false },
];
const demoAdmin = kinds[0] as User;
const kindOf = (index: number) => (index % 5 < 2 ? 0 : index % 5 < 4 ? 1 : 2);
const seededRoles = ['Admin Staff (Full Access)', 'Application Manager', 'Staff'];

const tokens = new Map<string, Promise<string>>();
let signIns = 0;
function tokenFor(user: User, home: number, stale?: string): Promise<string> {
  const current = tokens.get(user.email);
  if (current && stale === undefined) return current;
  const fresh = (async () => {
    if (current && stale !== undefined && (await current.catch(() => undefined)) !== stale) return current;
    signIns++;
    return signInOverHttp(`http://${frontHost}`, user.email, undefined, transportFor(home));
  })();
  tokens.set(user.email, fresh);
  fresh.catch(() => {
    if (tokens.get(user.email) === fresh) tokens.delete(user.email);
  });
  return fresh;
}

/** Each person signs in as a seeded account of their own with their kind's role (as the PGlite soak). */
async function people(): Promise<User[]> {
  const pools: string[][] = [[], [], []];
  for (let pageNo = 1; pageNo <= 4; pageNo++) {
    const { answer } = await route(0, 'GET', `/api/users/list?PageNo=${pageNo}&RowsPerPage=100&SearchQuery=staff.demo.test`, {
      token: await tokenFor(demoAdmin, 0),
    });
    if (answer.status !== 200) throw new Error(`users list answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as {
      Users: { Email: string; RoleName: string; Status: string; HasApplicationAccess: boolean }[];
    };
    // An administrator without application access holds none of the application claims (issue 39
    // point 1): every list and write would be a 403, so they are not among the people.
    for (const person of body.Users)
      if (person.Status === 'Active' && (person.HasApplicationAccess || person.RoleName !== seededRoles[0]))
        pools[seededRoles.indexOf(person.RoleName)]?.push(person.Email);
  }
  return Array.from({ length: userCount }, (_, index) => {
    const email = pools[kindOf(index)]?.[Math.floor(index / 5) * 2 + ((index % 5) % 2)];
    if (!email) throw new Error(`not enough active seeded ${seededRoles[kindOf(index)]} accounts for ${userCount} people`);
    return { ...(kinds[kindOf(index)] as User), email };
  });
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
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl || !process.env.TEST_POSTGRES_CTL)
    throw new Error('SOAK_DATABASE=postgres runs under scripts/with-postgres.sh (npm run soak:postgres)');
  const databaseName = `soak_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;

  frontHost = `127.0.0.1:${await freePort()}`;
  const ports = [await freePort(), await freePort()];
  console.log(
    `Soak on PostgreSQL: ${userCount} people for ${seconds} s (think ${thinkMs} ms) behind one host name (${frontHost}) over two instances on ports ${ports.join(' and ')}; fresh database ${databaseName}`,
  );
  console.log(`load average (1 / 5 / 15 min) before: ${load()}`);

  // Both at the same moment, on the empty database: the advisory lock has one migrate and seed.
  const spawned = [spawnInstance('A', ports[0] as number, databaseUrl.toString()), spawnInstance('B', ports[1] as number, databaseUrl.toString())];
  instances.push(...spawned);
  await Promise.all(spawned.map(ready));
  for (const instance of spawned)
    console.log(`first start of ${instance.name} (migrations and seed under the lock, or waiting on it): ${fmt(instance.readyAt - instance.spawnedAt)}, pid ${instance.pid}`);

  const everyone = await people();
  for (const [index, person] of everyone.entries()) await tokenFor(person, index % 2);
  console.log(`people: ${new Set(everyone.map((person) => person.email)).size} accounts for ${everyone.length} simulated people, half at home on each instance`);

  const ids: number[] = [];
  for (let pageNo = 1; pageNo <= 10; pageNo++) {
    const { answer } = await route(pageNo % 2, 'GET', `/api/application/list/all?pageNo=${pageNo}`, { token: await tokenFor(demoAdmin, 0) });
    if (answer.status !== 200) throw new Error(`list/all answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as { Applications: { ApplicationID: number }[] };
    ids.push(...body.Applications.map((row) => row.ApplicationID));
  }
  const probe = await route(1, 'GET', `/api/application/get/${ids[0]}`, { token: await tokenFor(demoAdmin, 0) });
  const detail = probe.answer.status === 200;
  console.log(`detail: GET /api/application/get/{id} ${detail ? 'in the mix' : `answered ${probe.answer.status}; skipped`}`);

  const startedAt = now();
  const endAt = startedAt + seconds * 1000;
  /** The load goes on until both faults are over and 10 s past (a restart can outlast the run on a busy machine). */
  let loadUntil = Number.POSITIVE_INFINITY;
  let stopping = false;

  async function timed(kind: Kind, op: string, user: User, home: number, method: string, path: string, body?: { text: string; type?: string }, bearer = true) {
    for (let attempt = 0; attempt < 2; attempt++) {
      let token = '';
      if (bearer) {
        try {
          token = await tokenFor(user, home);
        } catch (error) {
          const at = now();
          samples.push({ kind, op, start: at, end: at, status: 0, error: `sign-in: ${codeOf(error)}`, instance: home, failedOver: false, retryAfter: false });
          await sleep(100);
          return undefined;
        }
      }
      const start = now();
      try {
        const { answer, instance, failedOver } = await route(home, method, path, {
          token: bearer ? token : undefined,
          body: body?.text,
          headers: body ? { 'content-type': body.type ?? 'application/json' } : {},
        });
        const ok = answer.status >= 200 && answer.status < 400;
        const sample: Sample = {
          kind,
          op,
          start,
          end: now(),
          status: answer.status,
          instance,
          failedOver,
          retryAfter: answer.headers['retry-after'] !== undefined,
          ...(ok ? {} : { error: String(answer.status) }),
        };
        samples.push(sample);
        if (answer.status === 401 && bearer && attempt === 0) {
          await tokenFor(user, home, token).catch(() => undefined);
          continue;
        }
        if (!ok) await sleep(20);
        return ok ? { ...answer, sample } : undefined;
      } catch (error) {
        samples.push({ kind, op, start, end: now(), status: 0, error: codeOf(error), instance: home, failedOver: false, retryAfter: false });
        await sleep(100);
        return undefined;
      }
    }
    return undefined;
  }

  /** The PGlite soak's mix: a fifth writes (create, save in the form, cancel), the rest lists and details. */
  async function userLoop(index: number) {
    const user = everyone[index] as User;
    const home = index % 2;
    const mine: Created[] = [];
    let writeNo = 0;
    if (thinkMs > 0) await sleep(thinkMs * Math.random());
    while (!stopping && now() < loadUntil) {
      const roll = Math.random();
      if (roll < 0.2) {
        const open = mine.filter((app) => !app.cancel);
        const cancellable = open.filter((app) => app.saves.length === 0);
        const choice = Math.random();
        const wants = choice < 0.4 || open.length === 0 ? 'create' : choice < 0.85 || !user.cancel ? 'save' : 'cancel';
        if (wants === 'create' || (wants === 'cancel' && cancellable.length === 0)) {
          const answer = await timed('write', 'create', user, home, 'POST', '/api/application/new', { text: '{}' });
          if (answer) {
            const body = JSON.parse(answer.body.toString('utf8')) as { Message: string; Url: string };
            const url = new URL(body.Url);
            const app: Created = {
              id: Number(/Application (\d+) created/.exec(body.Message)?.[1]),
              guid: url.pathname.split('/').pop() ?? '',
              token: url.searchParams.get('token') ?? '',
              saves: [],
            };
            created.push(app);
            mine.push(app);
          }
        } else if (wants === 'save') {
          const app = pick(open);
          const value = `soak-${index}-${++writeNo}`;
          const save = { value, acked: false };
          app.saves.push(save);
          const form = new URLSearchParams({ token: app.token, AccountName: value, ClientName: `Client ${value}`, PrimaryEmail: '' }).toString();
          const answer = await timed('write', 'save', user, home, 'POST', `/external/application-form/${app.guid}`, { text: form, type: 'application/x-www-form-urlencoded' }, false);
          if (answer?.status === 303) save.acked = true;
        } else {
          const app = pick(cancellable);
          app.cancel = { acked: false };
          const answer = await timed('write', 'cancel', user, home, 'POST', '/api/application/cancel', {
            text: JSON.stringify({ ApplicationCancellations: [{ ApplicationGuid: app.guid }] }),
          });
          if (answer) {
            const body = JSON.parse(answer.body.toString('utf8')) as { Results: { Success: boolean }[] };
            if (body.Results[0]?.Success) app.cancel = { acked: true };
            else answer.sample.error = 'Success false';
          }
        }
      } else if (detail && user.detail && roll < 0.4) {
        await timed('detail', 'detail', user, home, 'GET', `/api/application/get/${pick(ids)}`);
      } else {
        const list = pick(user.lists);
        const params = new URLSearchParams({ ...pick(listParams), pageNo: String(1 + Math.floor(Math.random() * 20)) });
        await timed('list', list.endsWith('/all') ? 'list/all' : 'list/my', user, home, 'GET', `${list}?${params}`);
      }
      if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
    }
  }

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
    const fresh = spawnInstance(victim.name, victim.port, databaseUrl.toString());
    instances[index] = fresh;
    await ready(fresh);
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
    const token = await tokenFor(demoAdmin, 0);
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
  const cpuTicks = new Map<number, { name: string; ticks: number }>();
  const loadSamples: { at: number; load: number }[] = [];
  const sample = () => {
    for (const instance of everyProcess) {
      try {
        const fields = readFileSync(`/proc/${instance.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        // utime and stime: fields 14 and 15 of the file, 12 and 13 after the command's name.
        cpuTicks.set(instance.pid, { name: instance.name, ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        // exited: its last reading stands
      }
    }
    loadSamples.push({ at: now(), load: loadavg()[0] ?? Number.NaN });
  };
  sample();
  const sampler = setInterval(sample, 1000);
  const benchCpuBefore = process.cpuUsage();
  const cpuAtStart = new Map([...cpuTicks].map(([pid, item]) => [pid, item.ticks]));

  const controller = (async () => {
    await sleep(Math.max(0, startedAt + (seconds * 1000) / 3 - now()));
    await killInstance(0);
    const restartAt = Math.max(startedAt + (seconds * 2000) / 3, (instances[0] as Instance).readyAt + minUpMs);
    await sleep(Math.max(0, restartAt - now()));
    await restartPostgres();
    loadUntil = Math.max(endAt, now() + 10_000);
    if (loadUntil > endAt) console.log(`load goes on to ${((loadUntil - startedAt) / 1000).toFixed(1)} s: 10 s after the last fault`);
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
  clearInterval(sampler);
  const benchCpu = process.cpuUsage(benchCpuBefore);

  /* ---------- read back every acknowledged write, through both instances ---------- */
  const missing: string[] = [];
  const queue = [...created];
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let app = queue.shift(); app; app = queue.shift()) {
        const { answer } = await route(worker % 2, 'GET', `/external/application-form/${app.guid}?token=${encodeURIComponent(app.token)}`);
        const html = answer.body.toString('utf8');
        if (answer.status !== 200 || !html.includes(`<h1>Application ${app.id}</h1>`)) {
          missing.push(`create of application ${app.id}: form page answered ${answer.status}`);
          continue;
        }
        const status = /<dt>Status<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];
        if (app.cancel?.acked && status !== 'Cancelled') missing.push(`cancel of application ${app.id}: status ${status}`);
        const lastAcked = app.saves.map((save) => save.acked).lastIndexOf(true);
        if (lastAcked >= 0) {
          const accountName = /id="AccountName" name="AccountName" value="([^"]*)"/.exec(html)?.[1];
          // The last acknowledged value, or one sent after it whose answer was lost.
          if (!app.saves.slice(lastAcked).some((save) => save.value === accountName))
            missing.push(`save of application ${app.id}: AccountName ${accountName}, expected ${app.saves[lastAcked]?.value}`);
        }
      }
    }),
  );

  /* ---------- report ---------- */
  const duration = (loadEnd - startedAt) / 1000;
  const ms = (sample: Sample) => sample.end - sample.start;
  const inFault = (sample: Sample) => windows.some((window) => sample.end >= window.from && sample.start <= window.to + settleMs);
  const ok = samples.filter((sample) => !sample.error);
  console.log(
    `\nload: ${samples.length.toLocaleString('en-AU')} requests in ${duration.toFixed(1)} s; ${ok.length.toLocaleString('en-AU')} answered without error (${(ok.length / duration).toFixed(1)}/s); ` +
      `by instance that answered: A ${samples.filter((s) => s.instance === 0).length}, B ${samples.filter((s) => s.instance === 1).length}; ${signIns} sign-ins`,
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

  const describe = (list: Sample[]) => {
    const byCause = new Map<string, number>();
    for (const sample of list) {
      const cause = `${sample.op} ${sample.error}${sample.status === 503 ? (sample.retryAfter ? ' with retry-after' : ' WITHOUT retry-after') : ''}`;
      byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
    }
    return [...byCause].sort((a, b) => b[1] - a[1]).map(([cause, count]) => `${cause} ×${count}`).join(', ') || 'none';
  };
  const failed = samples.filter((sample) => sample.error);
  const faultErrors = failed.filter(inFault);
  console.log(`\nerrors outside the faults: ${failed.length - faultErrors.length}: ${describe(failed.filter((sample) => !inFault(sample)))}`);
  console.log(`errors during the faults (and their 5 s after): ${faultErrors.length}: ${describe(faultErrors)}`);
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
  const ticksPerSecond = 100;
  const cpuBy = new Map<string, number>();
  for (const [pid, item] of cpuTicks) cpuBy.set(item.name, (cpuBy.get(item.name) ?? 0) + (item.ticks - (cpuAtStart.get(pid) ?? 0)) / ticksPerSecond);
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
    `PostgreSQL outage: ${during.length} requests started during it: ${with503} answered 503 with retry-after, ${succeeded} succeeded, ${otherwise.length} otherwise${otherwise.length ? ` (${describe(otherwise)})` : ''}; ` +
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

  const acked = {
    create: created.length,
    save: created.reduce((sum, app) => sum + app.saves.filter((save) => save.acked).length, 0),
    cancel: created.filter((app) => app.cancel?.acked).length,
  };
  const unacked = (op: string) => samples.filter((sample) => sample.op === op && sample.error).length;
  console.log(
    `\nacknowledged writes: ${acked.create + acked.save + acked.cancel} (create ${acked.create}, save ${acked.save}, cancel ${acked.cancel}); not acknowledged: create ${unacked('create')}, save ${unacked('save')}, cancel ${unacked('cancel')}`,
  );
  console.log(`acknowledged writes missing when read back: ${missing.length} (budget 0) ${missing.length === 0 ? 'OK' : 'OVER'}`);
  for (const line of missing.slice(0, 20)) console.log(`  ${line}`);
  budgets.push({ name: 'acknowledged writes missing', value: missing.length, budget: 0, unit: '' });
  console.log(`load average (1 / 5 / 15 min) after: ${load()}`);

  // A clean stop of both: each drains and exits 0.
  agent.destroy();
  const stops = await Promise.all(
    instances.map(async (instance) => {
      instance.signalled = true;
      instance.child.kill('SIGTERM');
      const exit = await Promise.race([instance.exited, sleep(30_000).then(() => undefined)]);
      if (!exit) instance.child.kill('SIGKILL');
      return `${instance.name} ${exit ? (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`) : 'did not stop within 30 s, SIGKILLed'}`;
    }),
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
