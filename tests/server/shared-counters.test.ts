import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
