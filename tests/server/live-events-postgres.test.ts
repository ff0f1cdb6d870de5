import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { onPostgres } from './template.ts';
import { tenantApplications } from './applications-fixtures.ts';
import { openStream } from './live-stream-client.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { users } from '../../server/db/schema.ts';

/**
 * Issue 42 point 2: on PostgreSQL a change committed through one instance reaches the event streams
 * that another instance holds (LISTEN on a connection of its own, connected again after a drop).
 * Runs in `npm run test:postgres`.
 */
describe.runIf(onPostgres)('live events across two instances on one PostgreSQL', () => {
  let first: TestServer;
  let secondDatabase: DatabaseHandle;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let admin: string;
  let adminId: string;
  let url: string;

  beforeAll(async () => {
    first = await startTestServer();
    const { default: pg } = await import('pg');
    const pool: unknown = Reflect.get(first.db, '$client');
    const connectionString = pool instanceof pg.Pool ? pool.options.connectionString : undefined;
    if (!connectionString) throw new Error('The test server is not on PostgreSQL.');
    url = connectionString;
    secondDatabase = await openDatabase({ url });
    second = await buildApp({ db: secondDatabase.db, config: readConfig({ LOG_LEVEL: 'silent', FILES_DIR: first.filesDir, DEPERSONALISE_SCRUB: 'off' }) });
    await second.ready();
    admin = await accessTokenFor(first, 'admin@demo.test');
    const [row] = await first.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    adminId = row!.id;
  });
  afterAll(async () => {
    await second.close();
    await secondDatabase.close();
    await first.close();
  });

  const writable = async () => (await tenantApplications(first)).filter((row) => !['Cancelled', 'Depersonalised'].includes(row.status));

  it('a write through one instance is an event on the stream another instance holds, within a second', async () => {
    const live = await openStream(second, { token: admin });
    expect(live.status).toBe(200);
    const [app] = await writable();
    const started = Date.now();
    const response = await api(first, 'POST', `/api/application/assign/${app!.id}`, { token: admin, body: { GlobalUserId: adminId } });
    expect(response.statusCode, response.body).toBe(200);
    expect((await live.next(1_000))?.data).toEqual({ kind: 'changed', ApplicationIDs: [app!.id] });
    expect(Date.now() - started).toBeLessThan(1_000);
    live.close();
  });

  it('the listening connection, cut by the server, connects again and the change made meanwhile arrives', async () => {
    const live = await openStream(second, { token: admin });
    expect(live.status).toBe(200);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const cut = await client.query<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and query like 'listen %'`,
    );
    await client.end();
    // The second instance's listening connection (the first, a test server, listens the same way).
    expect(cut.rows.length).toBeGreaterThanOrEqual(1);
    const [, app] = await writable();
    const response = await api(first, 'POST', `/api/application/assign/${app!.id}`, { token: admin, body: { GlobalUserId: adminId } });
    expect(response.statusCode, response.body).toBe(200);
    expect((await live.next(5_000))?.data).toEqual({ kind: 'changed', ApplicationIDs: [app!.id] });
    live.close();
  });
});
