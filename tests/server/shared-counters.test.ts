import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outbox } from '../../server/db/schema.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { databaseCounters, memoryCounters } from '../../server/counters.ts';
import { hosts, startTestServer, type TestServer } from './harness.ts';
import { databaseUrl, onPostgres, quoteIdentifier, templateDatabaseName, withAdminConnection } from './template.ts';

/**
 * Issue 27 point 10: the limit and failure counters. In memory on PGlite (one process); in the
 * database with DATABASE_URL, so that every instance on one PostgreSQL counts the same hits.
 */
describe('memory counters', () => {
  it('count hits per key in a fixed window, start again when it ends, and peek without counting', async () => {
    let now = 1_000_000;
    const counters = memoryCounters(() => now);
    expect(await counters.hit('a', 10_000)).toEqual({ hits: 1, resetInSeconds: 10 });
    now += 4_000;
    expect(await counters.hit('a', 10_000)).toEqual({ hits: 2, resetInSeconds: 6 });
    expect(await counters.hit('a', 10_000, { peek: true })).toEqual({ hits: 2, resetInSeconds: 6 });
    expect((await counters.hit('b', 10_000)).hits).toBe(1);
    now += 6_000;
    expect(await counters.hit('a', 10_000, { peek: true })).toMatchObject({ hits: 0 });
    expect(await counters.hit('a', 10_000)).toEqual({ hits: 1, resetInSeconds: 10 });
  });
});

describe('database counters', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('are one count for every holder of the database', async () => {
    const [a, b] = [databaseCounters(server.db), databaseCounters(server.db)];
    const key = `shared ${randomBytes(4).toString('hex')}`;
    expect((await a.hit(key, 60_000)).hits).toBe(1);
    expect((await b.hit(key, 60_000)).hits).toBe(2);
    expect(await a.hit(key, 60_000, { peek: true })).toMatchObject({ hits: 2 });
    const third = await b.hit(key, 60_000);
    expect(third.hits).toBe(3);
    expect(third.resetInSeconds).toBeGreaterThan(55);
    expect(third.resetInSeconds).toBeLessThanOrEqual(60);
  });

  it('start a window again once it has ended', async () => {
    const counters = databaseCounters(server.db);
    const key = `short ${randomBytes(4).toString('hex')}`;
    await counters.hit(key, 50);
    await counters.hit(key, 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await counters.hit(key, 50)).hits).toBe(1);
  });
});

describe.skipIf(!onPostgres)(
  onPostgres ? 'two instances on one PostgreSQL share their limits' : 'two instances on one PostgreSQL share their limits [skipped on PGlite: one process owns a PGlite database]',
  () => {
    const name = `portal_test_limits_${process.pid}_${randomBytes(3).toString('hex')}`;
    let handles: DatabaseHandle[] = [];
    let apps: Awaited<ReturnType<typeof buildApp>>[] = [];
    beforeAll(async () => {
      await withAdminConnection((query) => query(`create database ${quoteIdentifier(name)} template ${quoteIdentifier(templateDatabaseName)}`));
      const url = databaseUrl(name);
      handles = [await openDatabase({ url }), await openDatabase({ url })];
      const config = readConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url, RATE_LIMIT_WRITES_PER_ADDRESS: '3' });
      apps = await Promise.all(handles.map((handle) => buildApp({ db: handle.db, config })));
      await Promise.all(apps.map((app) => app.ready()));
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const handle of handles) await handle.close();
      await withAdminConnection((query) => query(`drop database if exists ${quoteIdentifier(name)} with (force)`));
    });

    it('an address gets its allowance once across both instances, not once on each', async () => {
      const post = (index: number) =>
        apps[index % 2]!.inject({ method: 'POST', url: '/identity/account/changepassword', remoteAddress: '192.0.2.99', headers: { host: hosts.demo }, payload: {} });
      const statuses = [];
      for (let n = 0; n < 5; n++) statuses.push((await post(n)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    });
  },
);

/**
 * Issue 38 point 9: the forgot-password limits lived in each instance's memory, so two instances
 * sent one account 6 reset e-mails (limit 3) and a restart forgot them. They are database counters,
 * on PGlite too (a restart of the one process must not clear them), so they hold across both.
 */
describe('forgot-password limits', () => {
  let server: TestServer;
  const instances: Awaited<ReturnType<typeof buildApp>>[] = [];
  const config = readConfig({ LOG_LEVEL: 'silent', DEPERSONALISE_SCRUB: 'off' });
  const instance = async () => {
    const app = await buildApp({ db: server.db, config });
    await app.ready();
    instances.push(app);
    return app;
  };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const app of instances) await app.close();
    await server.close();
  });

  const forgot = (app: TestServer['app'], email: string, address: string) =>
    app.inject({
      method: 'POST',
      url: '/account/forgotpassword',
      remoteAddress: address,
      headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email }).toString(),
    });
  const mailsTo = async (email: string) => (await server.db.select().from(outbox).where(eq(outbox.recipient, email))).length;
  async function waitForMails(email: string, count: number) {
    for (let attempt = 0; attempt < 200 && (await mailsTo(email)) < count; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    // The mail goes out after the answer: give a fourth one time to arrive, were it sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return mailsTo(email);
  }

  it('an account gets 3 reset e-mails across two instances, the 4th is refused on either, and a restart does not clear them', async () => {
    const [first, second] = [await instance(), await instance()];
    // Each request from a new address: this is the per-account limit, not the per-address one.
    const statuses = [];
    for (const [n, app] of [first, second, first].entries()) statuses.push((await forgot(app, 'manager@demo.test', `198.51.100.${n + 1}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const fourth = await forgot(second, 'manager@demo.test', '198.51.100.4');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.body).toContain('Too many password reset attempts. Please try again in');
    expect(await waitForMails('manager@demo.test', 3)).toBe(3);

    await first.close();
    await second.close();
    const restarted = await instance();
    expect((await forgot(restarted, 'manager@demo.test', '198.51.100.5')).statusCode).toBe(429);
    expect(await waitForMails('manager@demo.test', 3)).toBe(3);
  });

  it('an address gets 10 requests across two instances and a restart, the 11th is refused', async () => {
    const [first, second] = [await instance(), await instance()];
    const statuses = [];
    for (let n = 0; n < 6; n++) statuses.push((await forgot(n % 2 ? second : first, `someone${n}@demo.test`, '198.51.100.77')).statusCode);
    await first.close();
    await second.close();
    const restarted = await instance();
    for (let n = 6; n < 11; n++) statuses.push((await forgot(restarted, `someone${n}@demo.test`, '198.51.100.77')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });
});
