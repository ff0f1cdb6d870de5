import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { listUrl } from './applications-fixtures.ts';
import { oidcModels } from '../../server/db/schema.ts';
import { ExportLinkResponseSchema } from '../../src/schemas/applications.schema.ts';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

const filtered = { status: ['Complete', 'Locked'], sortBy: 'AccountName', sortType: 'asc' };

/** Asks for a link as the page does, and returns its path on the server. */
async function issue(view: 'my' | 'all', params: Record<string, unknown> = filtered, token = admin) {
  const response = await api(server, 'POST', listUrl(`/api/application/export/${view}/link`, params), { token, body: {} });
  expect(response.statusCode).toBe(200);
  const { Url, ExpiresInSeconds } = ExportLinkResponseSchema.parse(response.json());
  expect(ExpiresInSeconds).toBeLessThanOrEqual(60);
  const url = new URL(Url);
  expect(url.host).toBe(`${hosts.demo}`);
  return url.pathname;
}

describe('POST /api/application/export/{my|all}/link and GET /api/application/export/download/{token}', () => {
  it('issues a link whose download is the export of the same filters and sort, with no token', async () => {
    const path = await issue('all');
    expect(path).toMatch(/^\/api\/application\/export\/download\/[A-Za-z0-9_-]{43}$/);
    const download = await api(server, 'GET', path);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="export.csv"; filename*=UTF-8''export.csv`);
    expect(download.headers['cache-control']).toBe('no-store');
    const direct = await api(server, 'GET', listUrl('/api/application/export/all', filtered), { token: admin });
    expect(direct.statusCode).toBe(200);
    expect(download.body).toBe(direct.body);
    expect((parse(download.body) as string[][]).length).toBeGreaterThan(1);
  });

  it('keeps the scope of the list: My Apps exports only what My Apps lists', async () => {
    const my = await api(server, 'GET', (await issue('my', {})));
    const direct = await api(server, 'GET', '/api/application/export/my', { token: admin });
    expect(my.statusCode).toBe(200);
    expect(my.body).toBe(direct.body);
    const all = await api(server, 'GET', (await issue('all', {})));
    expect((parse(all.body) as string[][]).length).toBeGreaterThan((parse(my.body) as string[][]).length);
  });

  it('works once: a second download of the same link is a 404', async () => {
    const path = await issue('all');
    expect((await api(server, 'GET', path)).statusCode).toBe(200);
    const again = await api(server, 'GET', path);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('This download link is unknown, used or expired. Export again from the list.');
    expect(again.body).not.toContain('ID,');
  });

  it('one of two downloads racing for the same link gets the file', async () => {
    const path = await issue('all');
    const statuses = (await Promise.all([api(server, 'GET', path), api(server, 'GET', path)])).map((response) => response.statusCode);
    expect(statuses.sort()).toEqual([200, 404]);
  });

  it('expires: a link past its minute is a 404', async () => {
    const path = await issue('all');
    await server.db
      .update(oidcModels)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oidcModels.kind, 'ExportLink'));
    expect((await api(server, 'GET', path)).statusCode).toBe(404);
  });

  it("is bound to its tenant: another tenant's host finds nothing, and leaves the link to its own", async () => {
    const path = await issue('all');
    expect((await api(server, 'GET', path, { host: hosts.acme })).statusCode).toBe(404);
    expect((await api(server, 'GET', path, { host: hosts.demo })).statusCode).toBe(200);
  });

  it('refuses a link without a valid token (401) and without app.export or the list claim (403)', async () => {
    const url = listUrl('/api/application/export/all/link', {});
    expect((await api(server, 'POST', url, { body: {} })).statusCode).toBe(401);
    expect((await api(server, 'POST', url, { token: 'not-a-token', body: {} })).statusCode).toBe(401);
    // readonly sees All Apps but may not export; staff may see My Apps only, and not export either.
    const readonly = await accessTokenFor(server, 'readonly@demo.test');
    expect((await api(server, 'POST', url, { token: readonly, body: {} })).statusCode).toBe(403);
    const staff = await accessTokenFor(server, 'staff@demo.test');
    expect((await api(server, 'POST', listUrl('/api/application/export/my/link', {}), { token: staff, body: {} })).statusCode).toBe(403);
  });

  it('refuses a bad query (400 naming the parameter) and an unknown or malformed token (404)', async () => {
    const bad = await api(server, 'POST', listUrl('/api/application/export/all/link', { sortBy: 'Nope' }), { token: admin, body: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('sortBy');
    expect((await api(server, 'GET', `/api/application/export/download/${'A'.repeat(43)}`)).statusCode).toBe(404);
    expect((await api(server, 'GET', '/api/application/export/download/short')).statusCode).toBe(404);
  });
});
