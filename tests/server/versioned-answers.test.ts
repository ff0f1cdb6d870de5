import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness.ts';
import { users, verifications } from '../../server/db/schema.ts';
import { versionedAnswers } from '../../server/db/versioned-answers.ts';

/** Runs on PGlite (versions from the change feed) and on PostgreSQL (versions read from the table). */
describe('list answers kept per data version (migration 0021)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  function counted(list: 'users' | 'verifications') {
    const answers = versionedAnswers<number>(server.db, list);
    let reads = 0;
    return {
      ask: (tenantId: string, request = 'page 1') => answers(tenantId, request, async () => ++reads),
      reads: () => reads,
    };
  }

  it('reads once for the same request, apart for another request or another tenant', async () => {
    const list = counted('users');
    expect(await Promise.all([list.ask('demo'), list.ask('demo'), list.ask('demo')])).toEqual([1, 1, 1]);
    expect(await list.ask('demo', 'page 2')).toBe(2);
    expect(await list.ask('acme')).toBe(3);
    expect(await list.ask('demo')).toBe(1);
  });

  it("reads again after any write to the tenant's users, and only that tenant's", async () => {
    const list = counted('users');
    await list.ask('demo');
    await list.ask('acme');
    const [user] = await server.db.select().from(users).where(eq(users.email, 'readonly@demo.test'));
    await server.db.update(users).set({ lastName: `${user!.lastName}` }).where(eq(users.id, user!.id));
    expect(await list.ask('demo')).toBe(3);
    expect(await list.ask('acme')).toBe(2);
    expect(list.reads()).toBe(3);
  });

  it('keeps the users list when verifications change, and the other way round', async () => {
    const people = counted('users');
    const checks = counted('verifications');
    await people.ask('demo');
    await checks.ask('demo');
    const [record] = await server.db.select().from(verifications).where(eq(verifications.tenantId, 'demo')).limit(1);
    await server.db.update(verifications).set({ refCode: record!.refCode }).where(eq(verifications.id, record!.id));
    expect(await people.ask('demo')).toBe(1);
    expect(await checks.ask('demo')).toBe(2);
  });

  it('does not keep a failed read', async () => {
    const answers = versionedAnswers<string>(server.db, 'users');
    await expect(answers('demo', 'x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await answers('demo', 'x', async () => 'read again')).toBe('read again');
  });
});
