import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness.ts';
import { changeFeedFor } from '../../server/db/change-feed.ts';
import { applications, users } from '../../server/db/schema.ts';
import { listEngineFor } from '../../server/db/applications-list.ts';
import { onPostgres, pgliteOnly } from './template.ts';

describe.skipIf(onPostgres)(pgliteOnly('the change feed (PGlite)', 'PostgreSQL has no change feed, by design (change-feed.ts)'), () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('knows the new data version as soon as the write returns, in or out of a transaction', async () => {
    const feed = await changeFeedFor(server.db);
    if (!feed) throw new Error('PGlite has a change feed');
    const version = await listEngineFor(server.db).version('demo');
    const [row] = await server.db.select().from(applications).where(eq(applications.tenantId, 'demo')).limit(1);
    await server.db.update(applications).set({ promoCode: 'FEED1' }).where(eq(applications.id, row!.id));
    expect(feed.dataVersion('demo')).toBe(version + 1);
    await server.db.transaction(async (tx) => {
      await tx.update(applications).set({ promoCode: 'FEED2' }).where(eq(applications.id, row!.id));
      await tx.update(applications).set({ promoCode: row!.promoCode }).where(eq(applications.id, row!.id));
    });
    expect(feed.dataVersion('demo')).toBe(version + 3);
    expect(feed.dataVersion('acme')).toBeUndefined();
  });

  it('never lets an older version read from the database replace a newer announcement', async () => {
    const feed = (await changeFeedFor(server.db))!;
    const current = feed.dataVersion('demo')!;
    feed.noteDataVersion('demo', current - 1);
    expect(feed.dataVersion('demo')).toBe(current);
  });

  it('names each user record updated, once the write returns', async () => {
    const feed = (await changeFeedFor(server.db))!;
    const changed: string[] = [];
    feed.onUserChanged((userId) => changed.push(userId));
    const [user] = await server.db.select().from(users).where(eq(users.email, 'readonly@demo.test'));
    await server.db.update(users).set({ lastName: user!.lastName }).where(eq(users.id, user!.id));
    expect(changed).toEqual([user!.id]);
  });
});
