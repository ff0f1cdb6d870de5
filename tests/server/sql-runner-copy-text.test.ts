import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { sqlRunner } from '../../server/db/sql-runner.ts';

/** The runner's copyText on the database under test (PGlite, or PostgreSQL in test:postgres). */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('sqlRunner copyText', () => {
  it('answers the rows as COPY text, escapes and NULL included', async () => {
    const bytes = await sqlRunner(server.db).copyText(
      `select id, v from (values (1, $1::text), (2, null), (3, 'Zoë 日本')) as t(id, v) order by id`,
      ['tab\there, new\nline, back\\slash'],
    );
    expect(Buffer.from(bytes).toString('utf8')).toBe('1\ttab\\there, new\\nline, back\\\\slash\n2\t\\N\n3\tZoë 日本\n');
    expect((await sqlRunner(server.db).copyText('select 1 where false', [])).length).toBe(0);
  });

  it('rejects a statement that fails, and hands its connection back: more failures than the pool has connections, then a read', async () => {
    const runner = sqlRunner(server.db);
    for (let attempt = 0; attempt < 12; attempt++) {
      await expect(runner.copyText('select 1 / (id - id) from (values (1)) as t(id)', [])).rejects.toThrow(/division by zero/);
    }
    expect(Buffer.from(await runner.copyText('select $1::text', ['still here'])).toString()).toBe('still here\n');
  });
});
