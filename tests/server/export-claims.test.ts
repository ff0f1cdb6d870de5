import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { users } from '../../server/db/schema.ts';

/**
 * AM §7: export never widens what the caller may list. Each export needs app.export AND the claim
 * of its list (view.myapps for My Apps; any view.allapps.* for All Apps); each half is tested
 * alone, with a caller who holds the other half, so dropping either half of a rule fails here.
 */
const claimSets = {
  'staff@demo.test': ['app.export', 'view.myapps'],
  'readonly@demo.test': ['app.export', 'view.allapps.location'],
  'manager@demo.test': ['view.myapps', 'view.allapps.instance'],
} as const;

let server: TestServer;
const tokens = new Map<string, string>();

beforeAll(async () => {
  server = await startTestServer();
  for (const [email, claims] of Object.entries(claimSets)) {
    await server.db.update(users).set({ claims: [...claims] }).where(eq(users.email, email));
    tokens.set(email, await accessTokenFor(server, email));
  }
});
afterAll(() => server.close());

const exportAs = (email: keyof typeof claimSets, view: 'my' | 'all') =>
  api(server, 'GET', `/api/application/export/${view}?q=`, { token: tokens.get(email) ?? '' });

describe('export claims, one half of each rule at a time', () => {
  it('My Apps export: app.export with view.myapps is enough', async () => {
    const response = await exportAs('staff@demo.test', 'my');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  });
  it('My Apps export: app.export without view.myapps is refused', async () => {
    const response = await exportAs('readonly@demo.test', 'my');
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('view.myapps');
  });
  it('My Apps export: view.myapps without app.export is refused', async () => {
    const response = await exportAs('manager@demo.test', 'my');
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('app.export');
  });
  it('All Apps export: app.export with one all-apps claim is enough', async () => {
    expect((await exportAs('readonly@demo.test', 'all')).statusCode).toBe(200);
  });
  it('All Apps export: app.export without an all-apps claim is refused', async () => {
    const response = await exportAs('staff@demo.test', 'all');
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('view.allapps');
  });
  it('All Apps export: an all-apps claim without app.export is refused', async () => {
    const response = await exportAs('manager@demo.test', 'all');
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('app.export');
  });
});

describe('list claims, one at a time', () => {
  it('My Apps needs view.myapps; All Apps any all-apps claim', async () => {
    const list = (email: keyof typeof claimSets, view: 'my' | 'all') =>
      api(server, 'GET', view === 'my' ? '/api/application/list?q=' : '/api/application/list/all?q=', { token: tokens.get(email) ?? '' });
    expect((await list('staff@demo.test', 'my')).statusCode).toBe(200);
    expect((await list('staff@demo.test', 'all')).statusCode).toBe(403);
    expect((await list('readonly@demo.test', 'all')).statusCode).toBe(200);
    expect((await list('readonly@demo.test', 'my')).statusCode).toBe(403);
  });
});
