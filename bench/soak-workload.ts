// What the two soaks share (`npm run soak`, bench/soak.bench.ts, on PGlite; `npm run soak:postgres`,
// bench/soak-postgres.ts, two instances on PostgreSQL): the simulated people and their accounts, the
// mix of requests each sends, how a request is timed and recorded, and how every acknowledged write
// is read back. The soaks differ in where a request goes (one server, or two behind one host name)
// and in the faults they inject.
import http from 'node:http';
import { loadavg } from 'node:os';
import { now, sleep } from './server-instances.ts';

export const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '-');
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

/**
 * The write limits count per address and per account: fifty simulated people share one address,
 * which real people never do, so they are lifted unless set (sign-in limits stay as they are: a
 * soak signs in once per account and again only on a 401).
 */
export const writeLimitsLifted = { RATE_LIMIT_WRITES_PER_ADDRESS: '1000000', RATE_LIMIT_WRITES_PER_ACCOUNT: '1000000' };

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** The failure's code (ECONNREFUSED, TIMEOUT…), or the start of its message. */
export function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code === 'string') return code;
    if (error instanceof Error) return error.message.slice(0, 80);
  }
  return String(error).slice(0, 80);
}

/* ---------- HTTP ---------- */

export interface Answer {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export interface RequestOptions {
  token?: string;
  body?: string;
  /** A body without a content-type here is sent as JSON. */
  headers?: Record<string, string>;
}

/** One request to 127.0.0.1:`port` on `agent`; `host` sets the Host header (one name for several instances). */
export function sendRequest(agent: http.Agent, port: number, method: string, path: string, options: RequestOptions = {}, host?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers, ...(host ? { host } : {}) };
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

/* ---------- what happened ---------- */

export type Kind = 'list' | 'detail' | 'write';

export interface Sample {
  kind: Kind;
  /** list/my, list/all, create, save, cancel, detail */
  op: string;
  start: number;
  end: number;
  /** HTTP status, or 0 when the request failed without one. */
  status: number;
  /** The failure: the status as text, or the socket error's code. */
  error?: string;
  /** The instance that answered (its index), and whether it was not the person's own. */
  instance: number;
  failedOver: boolean;
  /** A 503 said when to come back. */
  retryAfter: boolean;
}

/** An application a person created, and what they wrote to it. `run`: the server run that acknowledged it, where a soak counts runs. */
export interface Created {
  id: number;
  guid: string;
  token: string;
  run?: number;
  saves: { value: string; acked: boolean; run?: number }[];
  cancel?: { acked: boolean; run?: number };
}

/** Failures by operation and cause, most frequent first ("list/all 503 with retry-after ×12, …"). */
export function describeFailures(list: readonly Sample[]): string {
  const byCause = new Map<string, number>();
  for (const sample of list) {
    const cause = `${sample.op} ${sample.error}${sample.status === 503 ? (sample.retryAfter ? ' with retry-after' : ' WITHOUT retry-after') : ''}`;
    byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
  }
  return (
    [...byCause]
      .sort((a, b) => b[1] - a[1])
      .map(([cause, count]) => `${cause} ×${count}`)
      .join(', ') || 'none'
  );
}

/** The writes the server acknowledged, by kind. */
export function acknowledged(created: readonly Created[]) {
  return {
    create: created.length,
    save: created.reduce((sum, app) => sum + app.saves.filter((save) => save.acked).length, 0),
    cancel: created.filter((app) => app.cancel?.acked).length,
  };
}

/* ---------- people ---------- */

export interface Person {
  email: string;
  lists: readonly string[];
  cancel: boolean;
  detail: boolean;
}

/** The three kinds of people (and the demo accounts they used to share). */
export const personKinds: readonly Person[] = [
  { email: 'admin@demo.test', lists: ['/api/application/list/all', '/api/application/list'], cancel: true, detail: true },
  { email: 'manager@demo.test', lists: ['/api/application/list/all', '/api/application/list'], cancel: true, detail: true },
  { email: 'staff@demo.test', lists: ['/api/application/list'], cancel: false, detail: false },
];
export const demoAdmin = personKinds[0] as Person;
/** Two in five people are administrators, two managers, one staff. */
const kindOf = (index: number) => (index % 5 < 2 ? 0 : index % 5 < 4 ? 1 : 2);
const seededRoles = ['Admin Staff (Full Access)', 'Application Manager', 'Staff'];

/** `count` people sharing the three demo accounts by kind (SOAK_SHARED_ACCOUNTS=1: the soak before issue 33). */
export const sharedDemoAccounts = (count: number): Person[] => Array.from({ length: count }, (_, index) => personKinds[kindOf(index)] as Person);

/**
 * `count` people, each signed in as a seeded account of their own with their kind's role, as that
 * many people would be: what a person just wrote decides what their next list pages are read from
 * (docs/decisions/001), and fifty loops sharing three accounts would each count as the writer of
 * everything. `usersPage` reads a page of the users list (as the demo admin).
 */
export async function seededPeople(count: number, usersPage: (path: string) => Promise<Answer>): Promise<Person[]> {
  const pools: string[][] = [[], [], []];
  for (let pageNo = 1; pageNo <= 4; pageNo++) {
    const answer = await usersPage(`/api/users/list?PageNo=${pageNo}&RowsPerPage=100&SearchQuery=staff.demo.test`);
    if (answer.status !== 200) throw new Error(`users list answered ${answer.status}`);
    const body = JSON.parse(answer.body.toString('utf8')) as { Users: { Email: string; RoleName: string; Status: string; HasApplicationAccess: boolean }[] };
    // An administrator without application access holds none of the application claims (issue 39
    // point 1): every list and write would be a 403, so they are not among the people.
    for (const person of body.Users)
      if (person.Status === 'Active' && (person.HasApplicationAccess || person.RoleName !== seededRoles[0])) pools[seededRoles.indexOf(person.RoleName)]?.push(person.Email);
  }
  return sharedDemoAccounts(count).map((kind, index) => {
    const email = pools[kindOf(index)]?.[Math.floor(index / 5) * 2 + ((index % 5) % 2)];
    if (!email) throw new Error(`not enough active seeded ${seededRoles[kindOf(index)]} accounts for ${count} people`);
    return { ...kind, email };
  });
}

/**
 * Each person's access token, signed in once and again only when a request was refused with the
 * one given (`stale`): one sign-in per person at a time, however many requests saw the 401.
 * `signIn` gets the person's home instance, where a soak has several.
 */
export function tokenCache(signIn: (person: Person, home: number) => Promise<string>) {
  const tokens = new Map<string, Promise<string>>();
  let signIns = 0;
  return {
    tokenFor(person: Person, home = 0, stale?: string): Promise<string> {
      const current = tokens.get(person.email);
      if (current && stale === undefined) return current;
      const fresh = (async () => {
        if (current && stale !== undefined && (await current.catch(() => undefined)) !== stale) return current;
        signIns++;
        return signIn(person, home);
      })();
      tokens.set(person.email, fresh);
      fresh.catch(() => {
        if (tokens.get(person.email) === fresh) tokens.delete(person.email);
      });
      return fresh;
    },
    signIns: () => signIns,
  };
}
export type TokenCache = ReturnType<typeof tokenCache>;

/* ---------- the requests ---------- */

/** Where a request went: the answer, the instance that gave it, and whether that was not the person's home. */
export interface Routed {
  answer: Answer;
  instance: number;
  failedOver: boolean;
}

export type Timed = (
  kind: Kind,
  op: string,
  person: Person,
  home: number,
  method: string,
  path: string,
  body?: { text: string; type?: string },
  bearer?: boolean,
) => Promise<(Answer & { sample: Sample }) | undefined>;

/**
 * Sends requests through `send`, each timed and recorded in `samples`; resolves with the answer
 * (and its sample, which the caller may still mark a failure), or undefined when it failed. A 401
 * signs the person in again and sends once more (a restart that forgot the keys, an expired token);
 * a refused connection backs off 100 ms instead of spinning while the server is down.
 */
export function timedRequests(samples: Sample[], tokens: TokenCache, send: (home: number, method: string, path: string, options: RequestOptions) => Promise<Routed>): Timed {
  return async (kind, op, person, home, method, path, body, bearer = true) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      let token = '';
      if (bearer) {
        try {
          token = await tokens.tokenFor(person, home);
        } catch (error) {
          // The sign-in itself failed (the server is down): a failed request of this kind.
          const at = now();
          samples.push({ kind, op, start: at, end: at, status: 0, error: `sign-in: ${codeOf(error)}`, instance: home, failedOver: false, retryAfter: false });
          await sleep(100);
          return undefined;
        }
      }
      const start = now();
      try {
        const { answer, instance, failedOver } = await send(home, method, path, {
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
          await tokens.tokenFor(person, home, token).catch(() => undefined);
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
  };
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

export interface PersonLoop {
  index: number;
  person: Person;
  /** The instance the person's requests go to first. */
  home: number;
  timed: Timed;
  /** Every application created, for the read-back. */
  created: Created[];
  /** Applications whose detail is read, when `detail` (the route exists). */
  ids: readonly number[];
  detail: boolean;
  /** Mean pause between requests (0: back to back). */
  thinkMs: number;
  running: () => boolean;
  /** The server run a write lands in, recorded with it (the PGlite soak restarts its one server). */
  run?: () => number;
}

/**
 * One person until `running()` is false: a fifth of the requests write (create, save in the
 * application form, cancel), the rest read lists and, for those who may, details.
 */
export async function personLoop({ index, person, home, timed, created, ids, detail, thinkMs, running, run }: PersonLoop) {
  const mine: Created[] = [];
  let writeNo = 0;
  // At a person's pace, people do not all click in the same millisecond: each starts within one pause.
  if (thinkMs > 0) await sleep(thinkMs * Math.random());
  while (running()) {
    const roll = Math.random();
    if (roll < 0.2) {
      // An application is either saved or cancelled, never both: a cancelled one's form page no
      // longer shows what was saved, and a save after the cancel is refused (409).
      const open = mine.filter((app) => !app.cancel);
      const cancellable = open.filter((app) => app.saves.length === 0);
      const choice = Math.random();
      const wants = choice < 0.4 || open.length === 0 ? 'create' : choice < 0.85 || !person.cancel ? 'save' : 'cancel';
      if (wants === 'create' || (wants === 'cancel' && cancellable.length === 0)) {
        const answer = await timed('write', 'create', person, home, 'POST', '/api/application/new', { text: '{}' });
        if (answer) {
          const body = JSON.parse(answer.body.toString('utf8')) as { Message: string; Url: string };
          const url = new URL(body.Url);
          const app: Created = {
            id: Number(/Application (\d+) created/.exec(body.Message)?.[1]),
            guid: url.pathname.split('/').pop() ?? '',
            token: url.searchParams.get('token') ?? '',
            run: run?.(),
            saves: [],
          };
          created.push(app);
          mine.push(app);
        }
      } else if (wants === 'save') {
        const app = pick(open);
        const value = `soak-${index}-${++writeNo}`;
        const save = { value, acked: false, run: run?.() };
        app.saves.push(save);
        const form = new URLSearchParams({ token: app.token, AccountName: value, ClientName: `Client ${value}`, PrimaryEmail: '' }).toString();
        const answer = await timed('write', 'save', person, home, 'POST', `/external/application-form/${app.guid}`, { text: form, type: 'application/x-www-form-urlencoded' }, false);
        if (answer?.status === 303) Object.assign(save, { acked: true, run: run?.() });
      } else {
        const app = pick(cancellable);
        app.cancel = { acked: false, run: run?.() };
        const answer = await timed('write', 'cancel', person, home, 'POST', '/api/application/cancel', {
          text: JSON.stringify({ ApplicationCancellations: [{ ApplicationGuid: app.guid }] }),
        });
        if (answer) {
          const body = JSON.parse(answer.body.toString('utf8')) as { Results: { Success: boolean }[] };
          if (body.Results[0]?.Success) app.cancel = { acked: true, run: run?.() };
          else answer.sample.error = 'Success false';
        }
      }
    } else if (detail && person.detail && roll < 0.4) {
      await timed('detail', 'detail', person, home, 'GET', `/api/application/get/${pick(ids)}`);
    } else {
      const list = pick(person.lists);
      const params = new URLSearchParams({ ...pick(listParams), pageNo: String(1 + Math.floor(Math.random() * 20)) });
      await timed('list', list.endsWith('/all') ? 'list/all' : 'list/my', person, home, 'GET', `${list}?${params}`);
    }
    if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
  }
}

/**
 * Runs the people (`people(stopped)` starts their loops) beside the fault injection and resolves
 * when both are done; if the fault injection fails, the people stop, and then its error is thrown.
 */
export async function peopleBesideFaults(faults: Promise<void>, people: (stopped: () => boolean) => Promise<void>[]): Promise<void> {
  let stopping = false;
  const loops = people(() => stopping);
  try {
    await faults;
  } catch (error) {
    stopping = true;
    await Promise.all(loops);
    throw error;
  }
  await Promise.all(loops);
}

/* ---------- read back ---------- */

const inRun = (run: number | undefined) => (run === undefined ? '' : ` (run ${run})`);

/** What the application's form page (`answer`) lacks of the writes acknowledged for it: one line each. */
export function missingWrites(app: Created, answer: Answer): string[] {
  const html = answer.body.toString('utf8');
  if (answer.status !== 200 || !html.includes(`<h1>Application ${app.id}</h1>`)) return [`create of application ${app.id}${inRun(app.run)}: form page answered ${answer.status}`];
  const missing: string[] = [];
  const status = /<dt>Status<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];
  if (app.cancel?.acked && status !== 'Cancelled') missing.push(`cancel of application ${app.id}${inRun(app.cancel.run)}: status ${status}`);
  const lastAcked = app.saves.map((save) => save.acked).lastIndexOf(true);
  if (lastAcked >= 0) {
    const accountName = /id="AccountName" name="AccountName" value="([^"]*)"/.exec(html)?.[1];
    const save = app.saves[lastAcked];
    // The last acknowledged value, or one sent after it whose answer was lost in a fault.
    if (!app.saves.slice(lastAcked).some((later) => later.value === accountName))
      missing.push(`save of application ${app.id}${inRun(save?.run)}: AccountName ${accountName}, expected ${save?.value}`);
  }
  return missing;
}

/** Reads every created application's form page back, 8 at a time (`formPage(app, worker)`); the writes missing. */
export async function readBack(created: readonly Created[], formPage: (app: Created, worker: number) => Promise<Answer>): Promise<string[]> {
  const missing: string[] = [];
  const queue = [...created];
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let app = queue.shift(); app; app = queue.shift()) missing.push(...missingWrites(app, await formPage(app, worker)));
    }),
  );
  return missing;
}
