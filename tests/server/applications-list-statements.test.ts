import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { onPostgres } from './template.ts';

/**
 * Issue 40 point 4: on PostgreSQL (no change feed) a list page already held in the caches still
 * reads the tenant's data version, and every API call reads its caller's record. Requests that
 * arrive together share those reads: twenty clients paging at once made forty statements of the
 * two kinds, each a round trip and a turn of the database, where their pages needed none. (On
 * PGlite the change feed answers both from memory: no statement at all.)
 */
let server: TestServer;
let admin: string;
const statements: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  // Every statement the server sends, as its text (both drivers take the text first, alone or in a config).
  const client: unknown = Reflect.get(server.db, '$client');
  const target = client as { query: (...args: unknown[]) => unknown };
  const query = target.query.bind(client);
  target.query = (...args: unknown[]) => {
    const [first] = args;
    statements.push(typeof first === 'string' ? first : String((first as { text?: unknown } | undefined)?.text ?? ''));
    return query(...args);
  };
});
afterAll(() => server.close());

const page = () => api(server, 'GET', '/api/application/list/all?pageNo=1', { token: admin });
const versionReads = () => statements.filter((text) => /^select .*from application_data_versions where tenant_id = [^)]*\)::text/s.test(text) && !/from applications/.test(text));
const callerReads = () => statements.filter((text) => /tokens_valid_after/.test(text) && /from users where id/.test(text));

describe('a warm list page under concurrent requests', () => {
  it('reads the data version and the callers once per batch, not once per request', async () => {
    // The page and its rows are in the caches from here on.
    expect((await page()).statusCode).toBe(200);
    expect((await page()).statusCode).toBe(200);
    statements.length = 0;

    const answers = await Promise.all(Array.from({ length: 20 }, () => page()));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    const first = answers[0]?.json<{ TotalRows: number }>();
    for (const answer of answers) expect(answer.json<{ TotalRows: number }>().TotalRows).toBe(first?.TotalRows);

    if (onPostgres) {
      expect(versionReads().length).toBeGreaterThan(0);
      expect(callerReads().length).toBeGreaterThan(0);
    }
    expect(versionReads().length).toBeLessThanOrEqual(4);
    expect(callerReads().length).toBeLessThanOrEqual(4);
  });
});
