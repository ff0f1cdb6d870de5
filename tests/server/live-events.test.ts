import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer, userWith } from './harness.ts';
import { tenantApplications, type AppRow } from './applications-fixtures.ts';
import { users } from '../../server/db/schema.ts';
import { openStream, type OpenStream } from './live-stream-client.ts';

/**
 * Issue 42 point 1: GET /api/events, one Server-Sent Events stream per signed-in tab. Events carry
 * a kind and application ids only, to people who may see those applications (decision 001), with
 * the tenant data version as id, so a stream resumed with Last-Event-ID loses nothing.
 */

let server: TestServer;
let admin: string;
let adminId: string;
let apps: AppRow[];
const used = new Set<number>();
const streams: OpenStream[] = [];

beforeAll(async () => {
  server = await startTestServer({ LIVE_STREAMS_PER_ACCOUNT: '3' });
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [adminRow] = await server.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
  adminId = adminRow!.id;
  apps = (await tenantApplications(server)).sort((a, b) => a.id - b.id);
});
afterAll(async () => {
  streams.forEach((stream) => stream.close());
  await server.close();
});

async function stream(options: Parameters<typeof openStream>[1]) {
  const opened = await openStream(server.app, options);
  streams.push(opened);
  return opened;
}

/** A demo application no other test has taken, that can still be written and is listed. */
function take(): AppRow {
  const row = apps.find((candidate) => !used.has(candidate.id) && !['Cancelled', 'Depersonalised'].includes(candidate.status));
  if (!row) throw new Error('No such application left');
  used.add(row.id);
  return row;
}

const assign = async (app: AppRow, userId: string | null, token = admin) => {
  const response = await api(server, 'POST', `/api/application/assign/${app.id}`, { token, body: { GlobalUserId: userId } });
  expect(response.statusCode, response.body).toBe(200);
};

describe('GET /api/events', () => {
  it('answers 401 without a token or with a bad one, and 406 to a client that does not ask for an event stream', async () => {
    const none = await stream({});
    expect(none.status).toBe(401);
    const bad = await stream({ token: 'not-a-token' });
    expect(bad.status).toBe(401);
    const plain = await stream({ token: admin, accept: 'application/json' });
    expect(plain.status).toBe(406);
  });

  it('is an uncached text/event-stream whose first id is the tenant data version, and sends a write as a changed event with ids only', async () => {
    const live = await stream({ token: admin });
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(live.headers['cache-control']).toBe('no-store');
    await expect.poll(() => live.lastId()).toMatch(/^\d+$/);
    const before = Number(live.lastId());
    const app = take();
    await assign(app, adminId);
    const event = await live.next();
    expect(event).toEqual({ id: String(before + 1), event: 'changed', data: { kind: 'changed', ApplicationIDs: [app.id] } });
    live.close();
  });

  it('sends a cancelled application as removed', async () => {
    const live = await stream({ token: admin });
    const app = take();
    const response = await api(server, 'POST', '/api/application/cancel', { token: admin, body: { ApplicationCancellations: [{ ApplicationGuid: app.guid }] } });
    expect(response.statusCode, response.body).toBe(200);
    expect((await live.next())?.data).toEqual({ kind: 'removed', ApplicationIDs: [app.id] });
    live.close();
  });

  it('sends nothing about an application the person may not see; the one assigned to them arrives as added', async () => {
    const { user, token } = await userWith(server, 'live-myapps@demo.test', ['view.myapps', 'app.view']);
    const live = await stream({ token });
    expect(live.status).toBe(200);
    const invisible = take();
    const theirs = take();
    await assign(invisible, adminId);
    await assign(theirs, user.id);
    // Versions reach a stream in order: the first event after the invisible write is the visible one.
    expect((await live.next())?.data).toEqual({ kind: 'added', ApplicationIDs: [theirs.id] });
    await assign(theirs, adminId);
    expect((await live.next())?.data).toEqual({ kind: 'removed', ApplicationIDs: [theirs.id] });
    expect(await live.next(300)).toBeUndefined();
    live.close();
  });

  it('sends nothing across tenants', async () => {
    const acme = await accessTokenFor(server, 'admin@acme.test', 'acme.localhost');
    const live = await stream({ token: acme, host: 'acme.localhost' });
    expect(live.status).toBe(200);
    await assign(take(), adminId);
    const acmeApp = (await tenantApplications(server, 'acme')).find((row) => !['Cancelled', 'Depersonalised'].includes(row.status))!;
    const [acmeAdmin] = await server.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/application/assign/${acmeApp.id}`,
      headers: { host: 'acme.localhost', authorization: `Bearer ${acme}` },
      payload: { GlobalUserId: acmeAdmin!.id },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await live.next())?.data).toEqual({ kind: 'changed', ApplicationIDs: [acmeApp.id] });
    // A demo token on acme's host is not for this tenant.
    expect((await stream({ token: admin, host: 'acme.localhost' })).status).toBe(401);
    live.close();
  });

  it('resumes with Last-Event-ID: the changes made while it was away arrive, none lost', async () => {
    const first = await stream({ token: admin });
    await expect.poll(() => first.lastId()).toMatch(/^\d+$/);
    const from = first.lastId()!;
    first.close();
    const [a, b] = [take(), take()];
    await assign(a, adminId);
    await assign(b, adminId);
    const resumed = await stream({ token: admin, lastEventId: from });
    expect(await resumed.next()).toEqual({ id: String(Number(from) + 1), event: 'changed', data: { kind: 'changed', ApplicationIDs: [a.id] } });
    expect(await resumed.next()).toEqual({ id: String(Number(from) + 2), event: 'changed', data: { kind: 'changed', ApplicationIDs: [b.id] } });
    resumed.close();
  });

  it('answers a Last-Event-ID whose changes are no longer kept with one reset event; a malformed one with 400', async () => {
    const current = await stream({ token: admin });
    await expect.poll(() => current.lastId()).toMatch(/^\d+$/);
    const ahead = await stream({ token: admin, lastEventId: String(Number(current.lastId()) + 1000) });
    expect(await ahead.next()).toEqual({ id: current.lastId(), event: 'reset', data: { kind: 'reset', ApplicationIDs: [] } });
    expect(await ahead.next(300)).toBeUndefined();
    current.close();
    ahead.close();
    const malformed = await stream({ token: admin, lastEventId: 'x' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toContain('Last-Event-ID');
  });

  it('counts open streams per account: the third is allowed, the fourth gets 429', async () => {
    const { token } = await userWith(server, 'live-limit@demo.test', ['view.allapps.instance']);
    const open = [await stream({ token }), await stream({ token }), await stream({ token })];
    expect(open.map((each) => each.status)).toEqual([200, 200, 200]);
    const fourth = await stream({ token });
    expect(fourth.status).toBe(429);
    open[0]!.close();
    await expect.poll(async () => (await stream({ token })).status).toBe(200);
  });

  it('ends the stream when its session is signed out (the grant ends)', async () => {
    const token = await accessTokenFor(server, 'manager@demo.test');
    const live = await stream({ token });
    expect(live.status).toBe(200);
    const signedOut = await api(server, 'GET', '/api/account/logout', { token });
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    await live.ended;
  });

  it('ends the stream when the account is locked', async () => {
    const { user, token } = await userWith(server, 'live-locked@demo.test', ['view.allapps.instance']);
    const live = await stream({ token });
    expect(live.status).toBe(200);
    await server.db.update(users).set({ status: 'Locked' }).where(eq(users.id, user.id));
    await live.ended;
  });
});

describe('GET /api/events and the token lifetime', () => {
  let shortLived: TestServer;
  beforeAll(async () => {
    shortLived = await startTestServer({ ACCESS_TOKEN_TTL: '3' });
  });
  afterAll(() => shortLived.close());

  it('ends the stream when the token expires', async () => {
    const token = await accessTokenFor(shortLived, 'admin@demo.test');
    const opened = Date.now();
    const live = await openStream(shortLived.app, { token });
    expect(live.status).toBe(200);
    await live.ended;
    // The token lived 3 s (whole seconds): it ended within them, not at a later heartbeat.
    expect(Date.now() - opened).toBeLessThan(4_000);
  });
});
