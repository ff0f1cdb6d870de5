import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { and, asc, desc, eq, like, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { accessTokenFor, hosts, startTestServer, type TestServer } from './harness.ts';
import { fastifyRoutes } from './fuzz/routes.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationComments,
  applicationDocuments,
  applicationOwners,
  applicationRequirements,
  applications,
} from '../../server/db/schema.ts';
import { removedComment } from '../../server/db/depersonalise-store.ts';
import { depersonalisedLinkMessage, depersonalisedWriteMessage } from '../../src/domain/application-write-rule.ts';

/**
 * Issue 38 point 2: the write rule holds inside each write's own transaction. For every kind of
 * write to an application (every write route that names one, found in the route catalogue), the
 * write and a depersonalise of the same application are sent together, several rounds each, and
 * afterwards either the write was refused or it committed before the erasure and was scrubbed:
 * never a depersonalised application holding what the write brought (a name, an address, a file),
 * an activity entry after "Application depersonalised", a comment that is not the removed one, a
 * document, or stored bytes.
 */

const rounds = Number(process.env.RACE_ROUNDS ?? 4);
/** What a write brings that is personal: searched for in everything the application keeps. */
const markerName = 'Quenby Marchetti';
const markerEmail = 'quenby.marchetti@example.org';

let server: TestServer;
let admin: string;

const unreachedLimits = Object.fromEntries(['RATE_LIMIT_WRITES_PER_ADDRESS', 'RATE_LIMIT_WRITES_PER_ACCOUNT'].map((name) => [name, '100000000']));

interface Target {
  id: number;
  guid: string;
  /** The primary applicant, who has an identity requirement. */
  individual: string;
}

let pool: Target[] = [];

beforeAll(async () => {
  server = await startTestServer(unreachedLimits);
  admin = await accessTokenFor(server, 'admin@demo.test');
  pool = await server.db
    .select({ id: applications.id, guid: applications.guid, individual: applicationApplicants.id })
    .from(applications)
    .innerJoin(applicationApplicants, and(eq(applicationApplicants.applicationId, applications.id), eq(applicationApplicants.position, 0)))
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
        sql`${applications.primaryEmail} <> ''`,
        sql`exists (select 1 from application_requirements r where r.entity_guid = ${applicationApplicants.id})`,
      ),
    )
    .orderBy(asc(applications.id))
    .limit(400);
}, 120_000);
afterAll(() => server.close());

const headers = () => ({ host: hosts.demo, authorization: `Bearer ${admin}` });
const post = (url: string, payload?: object) => server.app.inject({ method: 'POST', url, headers: headers(), ...(payload ? { payload } : {}) });
const depersonalise = (target: Target) => server.app.inject({ method: 'PUT', url: `/api/application/depersonalise/${target.guid}`, headers: headers() });

/** The state a write needs (AM §6), set on the row before the round. */
async function prepare(target: Target, state: Partial<typeof applications.$inferInsert>) {
  await server.db.update(applications).set(state).where(eq(applications.id, target.id));
}
const incomplete = { status: 'Primary edit', dateCompleted: null, applicationModeCode: 'Pin' };
const complete = { status: 'Complete', dateCompleted: new Date(), applicationModeCode: 'Pin' };

function multipart(fileName: string, bytes: Buffer) {
  const boundary = '----race-boundary';
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${fileName}"\r\ncontent-type: application/pdf\r\n\r\n`);
  return { payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}
// 2 MB, as in the issue: a PDF header and filler.
const uploadBytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2 * 1024 * 1024 - 9, 0x20)]);

interface WriteKind {
  /** The route, as the catalogue names it. */
  route: string;
  /** Sets the application up so that the write succeeds alone; answers anything the write needs. */
  setUp?: (target: Target) => Promise<Record<string, string>>;
  write: (target: Target, given: Record<string, string>) => Promise<LightMyRequestResponse>;
  /** Whether the answer is the write refused (default: 409 with the rule's message or the action's own state message). */
  refused?: (response: LightMyRequestResponse) => boolean;
  /** The 409 messages that say the application is closed (default: the rule's). */
  closedMessages?: readonly string[];
}

/** The resume-link actions' own state rule, which a depersonalised status fails too. */
const resumeLinkClosed = 'A resume link cannot be sent while the status is Depersonalised.';

const kinds: WriteKind[] = [
  { route: 'POST /api/application/assign/:id', setUp: async (t) => (await prepare(t, incomplete), {}), write: (t) => post(`/api/application/assign/${t.id}`, { GlobalUserId: null }) },
  { route: 'POST /api/label/save', setUp: async (t) => (await prepare(t, incomplete), {}), write: (t) => post('/api/label/save', { ApplicationId: t.guid, Label: '' }) },
  {
    route: 'POST /api/application/updateowner/:id',
    setUp: async (t) => {
      await prepare(t, incomplete);
      const [owner] = await server.db.select({ id: applicationOwners.id }).from(applicationOwners).where(eq(applicationOwners.tenantId, 'demo')).limit(1);
      return { owner: owner!.id };
    },
    write: (t, given) => post(`/api/application/updateowner/${t.id}`, { NewOwnerId: given.owner }),
  },
  {
    route: 'POST /api/application/changeprimaryemail/:id',
    setUp: async (t) => (await prepare(t, incomplete), {}),
    write: (t) => post(`/api/application/changeprimaryemail/${t.id}`, { PrimaryEmail: markerEmail }),
  },
  {
    route: 'POST /api/application/changesigningmode/:id/:mode',
    setUp: async (t) => (await prepare(t, { ...incomplete, status: 'Adviser edit' }), {}),
    write: (t) => post(`/api/application/changesigningmode/${t.id}/PrintandSign`),
    closedMessages: [depersonalisedWriteMessage, 'The signing mode can only be changed in status Adviser edit.'],
  },
  {
    route: 'POST /api/application/unlockapplication/:id',
    setUp: async (t) => (await prepare(t, { ...incomplete, status: 'Locked', previousStatus: 'Primary edit' }), {}),
    write: (t) => post(`/api/application/unlockapplication/${t.id}`),
    closedMessages: [depersonalisedWriteMessage, 'Only a locked application can be unlocked.'],
  },
  {
    route: 'POST /api/applicant/labformmfaunlock',
    setUp: async (t) => {
      await prepare(t, incomplete);
      await server.db.update(applicationApplicants).set({ isMfaLocked: true }).where(eq(applicationApplicants.id, t.individual));
      return {};
    },
    write: (t) => post('/api/applicant/labformmfaunlock', { ApplicationId: t.guid, IndividualId: t.individual, InstanceName: 'demo' }),
    // Depersonalise clears the lock with the rest: an unlock after it finds nothing locked.
    closedMessages: [depersonalisedWriteMessage, 'This applicant is not locked.'],
  },
  {
    route: 'POST /api/application/requestedit/:guid',
    setUp: async (t) => (await prepare(t, complete), {}),
    write: (t) => post(`/api/application/requestedit/${t.guid}`, { ConfirmationAccepted: true }),
  },
  {
    route: 'PUT /api/application/depersonalise/:guid',
    setUp: async (t) => (await prepare(t, incomplete), {}),
    write: (t) => depersonalise(t),
    closedMessages: [depersonalisedWriteMessage, 'This application has already been depersonalised.'],
  },
  { route: 'POST /api/application/reload/:id', write: (t) => post(`/api/application/reload/${t.id}`) },
  { route: 'POST /api/comment/:id', write: (t) => post(`/api/comment/${t.id}`, { Comment: `Spoke to ${markerName} (${markerEmail})` }) },
  {
    route: 'POST /api/application/emailresumelink/:id',
    setUp: async (t) => (await prepare(t, incomplete), {}),
    write: (t) => post(`/api/application/emailresumelink/${t.id}`, { PersonalisedMessage: `Dear ${markerName}` }),
    closedMessages: [depersonalisedWriteMessage, resumeLinkClosed],
  },
  {
    route: 'POST /api/application/resendindividualresumelinkemail/:id',
    setUp: async (t) => (await prepare(t, incomplete), {}),
    write: (t) => post(`/api/application/resendindividualresumelinkemail/${t.id}`, { IndividualId: t.individual, PersonalisedMessage: `Dear ${markerName}` }),
    closedMessages: [depersonalisedWriteMessage, resumeLinkClosed],
  },
  {
    route: 'POST /api/application/resendcompletionemail/:id',
    setUp: async (t) => (await prepare(t, complete), {}),
    write: (t) => post(`/api/application/resendcompletionemail/${t.id}`, { PersonalisedMessage: `Dear ${markerName}` }),
  },
  {
    route: 'POST /api/document/upload/:id',
    write: (t) => {
      const body = multipart(`${markerName} passport.pdf`, uploadBytes);
      return server.app.inject({ method: 'POST', url: `/api/document/upload/${t.id}`, headers: { ...headers(), 'content-type': body.contentType }, payload: body.payload });
    },
  },
  {
    route: 'POST /api/application/cancel',
    setUp: async (t) => (await prepare(t, incomplete), {}),
    write: (t) => post('/api/application/cancel', { ApplicationCancellations: [{ ApplicationGuid: t.guid }] }),
    // Refused before the handler (409), or in the bulk answer: the application it could not cancel fails in it.
    refused: (response) =>
      response.statusCode === 409
        ? response.json<{ message: string }>().message === depersonalisedWriteMessage
        : response.statusCode === 200 && response.json<{ Results: { Success: boolean }[] }>().Results[0]?.Success === false,
  },
  {
    route: 'POST /api/application/triggerapi',
    setUp: async (t) => (await prepare(t, complete), {}),
    write: (t) => post('/api/application/triggerapi', { ApplicationGuid: t.guid, ApiName: 'CoreBanking' }),
    closedMessages: [depersonalisedWriteMessage],
  },
  {
    route: 'POST /api/Reverification/verify/:applicationGuid',
    setUp: async (t) => {
      await prepare(t, incomplete);
      await server.db
        .update(applicationRequirements)
        .set({ result: 1, resultText: 'Not verified', eligibleForSanctionsVerification: true })
        .where(eq(applicationRequirements.entityGuid, t.individual));
      await server.db.update(applicationApplicants).set({ firstName: 'Quenby', lastName: 'Marchetti' }).where(eq(applicationApplicants.id, t.individual));
      return {};
    },
    write: (t) => post(`/api/Reverification/verify/${t.guid}`, { IndividualId: t.individual, Mode: 'SanctionsOnly' }),
  },
  {
    route: 'POST /external/application-form/:guid',
    setUp: async (t) => {
      await prepare(t, incomplete);
      const opened = await post(`/api/application/requestedit/${t.guid}`, { ConfirmationAccepted: true });
      expect(opened.statusCode, opened.body).toBe(200);
      return { token: new URL(opened.json<{ Url: string }>().Url).searchParams.get('token') ?? '' };
    },
    write: (t, given) =>
      server.app.inject({
        method: 'POST',
        url: `/external/application-form/${t.guid}`,
        headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: given.token!, AccountName: markerName, ClientName: markerName, PrimaryEmail: markerEmail }).toString(),
      }),
    closedMessages: [depersonalisedLinkMessage],
  },
];

/** Every file under the documents directory: the upload's bytes must not outlive the race. */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(server.filesDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => `${entry.parentPath}/${entry.name}`).sort();
}

/** The tables that hold an application's data, each row read whole as text. */
const keptTables = [
  'application_applicants',
  'application_comments',
  'application_activity',
  'application_documents',
  'application_requirements',
  'application_outstanding_documents',
  'application_ips',
  'outbox',
];

async function personalTraces(target: Target): Promise<string[]> {
  const found: string[] = [];
  for (const needle of [markerName, markerEmail, 'Quenby', 'Marchetti']) {
    const [own] = await server.db.select({ n: sql<number>`count(*)::int` }).from(applications).where(and(eq(applications.id, target.id), sql`${applications}::text ilike ${`%${needle}%`}`));
    if (own!.n > 0) found.push(`applications: ${needle}`);
    for (const table of keptTables) {
      const rows = await server.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} t where t.application_id = ${target.id} and t::text ilike ${`%${needle}%`}`);
      const n = Number(Reflect.get(Object((rows as unknown as { rows: unknown[] }).rows[0]), 'n'));
      if (n > 0) found.push(`${table}: ${needle}`);
    }
  }
  return found;
}

/** What the application holds after the race, in the terms of the invariant. */
async function after(target: Target) {
  const [row] = await server.db.select({ status: applications.status }).from(applications).where(eq(applications.id, target.id));
  const feed = await server.db
    .select({ id: applicationActivity.id, activity: applicationActivity.activity })
    .from(applicationActivity)
    .where(eq(applicationActivity.applicationId, target.id))
    .orderBy(desc(applicationActivity.id));
  const erased = await server.db
    .select({ id: applicationActivity.id })
    .from(applicationActivity)
    .where(and(eq(applicationActivity.applicationId, target.id), like(applicationActivity.activity, 'Application depersonalised by %')));
  const comments = await server.db.select({ comment: applicationComments.comment }).from(applicationComments).where(eq(applicationComments.applicationId, target.id));
  const [documents] = await server.db.select({ n: sql<number>`count(*)::int` }).from(applicationDocuments).where(eq(applicationDocuments.applicationId, target.id));
  const erasure = erased[0]?.id;
  return {
    status: row?.status,
    erasures: erased.length,
    afterErasure: feed.filter((entry) => erasure !== undefined && entry.id > erasure).map((entry) => entry.activity),
    unscrubbedComments: comments.filter((comment) => comment.comment !== removedComment).map((comment) => comment.comment),
    documents: documents!.n,
    traces: await personalTraces(target),
  };
}

const ticks = (n: number) => new Promise<void>((resolve) => {
  const step = (left: number) => (left === 0 ? resolve() : setImmediate(() => step(left - 1)));
  step(n);
});

let next = 0;

describe('a write and a depersonalise sent together (issue 38 point 2)', { timeout: 600_000 }, () => {
  it('has a race case for every write route that names an application (found in the route catalogue)', () => {
    const catalogue = server.app.routeCatalogue;
    const located = fastifyRoutes(server.app)
      .filter((route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method))
      .map((route) => `${route.method} ${route.url}`)
      .filter((name) => typeof catalogue.find((route) => `${[route.method].flat().join('|')} ${route.url}` === name)?.config?.application === 'function');
    expect(kinds.map((kind) => kind.route).sort()).toEqual([...new Set(located)].sort());
  });

  it('refuses an upload whose application is depersonalised while its bytes stream in, and removes the bytes', async () => {
    const target = pool[next++]!;
    const filesBefore = await storedFiles();
    const body = multipart(`${markerName} passport.pdf`, uploadBytes);
    const stream = new PassThrough();
    const half = body.payload.length >> 1;
    const upload = server.app.inject({
      method: 'POST',
      url: `/api/document/upload/${target.id}`,
      headers: { ...headers(), 'content-type': body.contentType, 'content-length': String(body.payload.length) },
      payload: stream,
    });
    stream.write(body.payload.subarray(0, half));
    // The first half is in storage (a partial file) before the erasure: the rule before the handler has passed.
    for (let waited = 0; (await storedFiles()).length === filesBefore.length; waited++) {
      expect(waited, 'the upload never started storing').toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const erased = await depersonalise(target);
    expect(erased.statusCode, erased.body).toBe(200);
    stream.end(body.payload.subarray(half));
    const refused = await upload;
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(depersonalisedWriteMessage);
    expect(await after(target)).toEqual({ status: 'Depersonalised', erasures: 1, afterErasure: [], unscrubbedComments: [], documents: 0, traces: [] });
    expect(await storedFiles()).toEqual(filesBefore);
  });

  it.each(kinds.map((kind) => [kind.route, kind] as const))('%s: refused, or committed before the erasure and scrubbed', async (_name, kind) => {
    const outcomes: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const target = pool[next++]!;
      const given = (await kind.setUp?.(target)) ?? {};
      const filesBefore = await storedFiles();
      // The two start a few event-loop turns apart, in either order, so that each lands inside the other.
      const offset = [0, 1, 3, 6, 10, 15][round % 6]!;
      const [written, erased] = await Promise.all([
        (round % 2 === 0 ? Promise.resolve() : ticks(offset)).then(() => kind.write(target, given)),
        (round % 2 === 0 ? ticks(offset) : Promise.resolve()).then(() => depersonalise(target)),
      ]);
      const where = `${kind.route}, round ${round}: write ${written.statusCode} ${written.body.slice(0, 200)}; depersonalise ${erased.statusCode} ${erased.body.slice(0, 200)}`;
      const isRefused = kind.refused
        ? kind.refused(written)
        : written.statusCode === 409 && (kind.closedMessages ?? [depersonalisedWriteMessage]).includes(written.json<{ message: string }>().message);
      if (!isRefused) expect(written.statusCode, where).toBeLessThan(400);
      outcomes.push(isRefused ? 'refused' : 'committed first');
      // The erasure itself always happens, once (the second of two depersonalises is the refused write).
      expect([erased.statusCode, written.statusCode], where).toContain(200);
      const state = await after(target);
      expect(state, where).toEqual({ status: 'Depersonalised', erasures: 1, afterErasure: [], unscrubbedComments: [], documents: 0, traces: [] });
      expect(await storedFiles(), where).toEqual(filesBefore);
    }
    // Report which way the rounds went (both are correct; neither may leave anything behind).
    console.info(`${kind.route}: ${outcomes.join(', ')}`);
  });
});
