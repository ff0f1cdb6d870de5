import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenFor, api, hosts, signIn, startTestServer, type TestServer } from './harness.ts';
import { onPostgres } from './template.ts';
import { unannouncedGrantTrustMs } from '../../server/api/grant-liveness.ts';
import { eq } from 'drizzle-orm';
import { demoPassword } from '../../server/db/seed.ts';
import { users } from '../../server/db/schema.ts';
import { AccountInfoSchema } from '../../src/schemas/account.schema.ts';

let server: TestServer;
let adminToken: string;
let readonlyToken: string;
beforeAll(async () => {
  server = await startTestServer();
  adminToken = await accessTokenFor(server, 'admin@demo.test');
  readonlyToken = await accessTokenFor(server, 'readonly@demo.test');
});
afterAll(() => server.close());

const protectedRoutes = [
  ['GET', '/api/account/info'],
  ['GET', '/api/account/ping'],
  ['GET', '/api/account/logout'],
  ['GET', '/api/configuration/information'],
  ['GET', '/api/configuration/custom'],
  ['POST', '/identity/account/changepassword'],
] as const;

describe('every protected route', () => {
  it.each(protectedRoutes)('%s %s answers 401 without a token', async (method, url) => {
    const response = await api(server, method, url, { body: method === 'POST' ? {} : undefined });
    expect(response.statusCode).toBe(401);
  });

  it.each(protectedRoutes)('%s %s answers 401 on another tenant host with a demo token', async (method, url) => {
    const response = await api(server, method, url, { token: adminToken, host: hosts.acme, body: method === 'POST' ? {} : undefined });
    expect(response.statusCode).toBe(401);
  });
});

describe('the caller record', () => {
  // On PGlite the API keeps callers in memory between requests; the users table's trigger must make
  // any change to the record count on the very next request, whoever writes it.
  const staff = () => server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));

  it('ends API access at once when the account is locked, and gives it back when unlocked', async () => {
    const token = await accessTokenFor(server, 'staff@demo.test');
    expect((await api(server, 'GET', '/api/account/ping', { token })).statusCode).toBe(200);
    const [user] = await staff();
    await server.db.update(users).set({ status: 'Locked' }).where(eq(users.id, user!.id));
    expect((await api(server, 'GET', '/api/account/ping', { token })).statusCode).toBe(401);
    await server.db.update(users).set({ status: user!.status }).where(eq(users.id, user!.id));
    expect((await api(server, 'GET', '/api/account/ping', { token })).statusCode).toBe(200);
  });

  it('applies a change of claims on the next request', async () => {
    const token = await accessTokenFor(server, 'staff@demo.test');
    const [user] = await staff();
    const info = async () => AccountInfoSchema.parse((await api(server, 'GET', '/api/account/info', { token })).json());
    expect((await info()).Claims).toContain('view.myapps');
    await server.db.update(users).set({ claims: user!.claims.filter((claim) => claim !== 'view.myapps') }).where(eq(users.id, user!.id));
    try {
      expect((await info()).Claims).not.toContain('view.myapps');
      expect((await api(server, 'GET', '/api/application/list', { token })).statusCode).toBe(403);
    } finally {
      await server.db.update(users).set({ claims: user!.claims }).where(eq(users.id, user!.id));
    }
    expect((await api(server, 'GET', '/api/application/list', { token })).statusCode).toBe(200);
  });
});

describe('account', () => {
  it('reports claims with Tenant, GlobalId and CreatedDate, and the display name', async () => {
    const response = await api(server, 'GET', '/api/account/info', { token: readonlyToken });
    expect(response.statusCode).toBe(200);
    const info = AccountInfoSchema.parse(response.json());
    expect(info.DisplayName).toBe('Riley Reader');
    expect(info.Claims).toContain('view.allapps.instance');
    expect(info.Claims).toContain('Tenant:demo');
    expect(info.Claims.some((claim) => /^GlobalId:[0-9a-f-]{36}$/.test(claim))).toBe(true);
    expect(info.Claims.some((claim) => claim.startsWith('CreatedDate:'))).toBe(true);
    expect(info.Claims).not.toContain('admin');
  });

  it('answers the ping', async () => {
    const response = await api(server, 'GET', '/api/account/ping', { token: readonlyToken });
    expect(response.json()).toEqual({ Success: true });
  });
});

describe('change password', () => {
  it('rejects a malformed body with 400 naming the field', async () => {
    const response = await api(server, 'POST', '/identity/account/changepassword', { token: adminToken, body: { oldPassword: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('newPassword');
  });

  it('enforces the policy on the server', async () => {
    for (const weak of ['short1!', 'alllowercase1!', 'ALLUPPERCASE1!', 'NoNumbers!!', 'NoSymbols123']) {
      const response = await api(server, 'POST', '/identity/account/changepassword', {
        token: adminToken,
        body: { oldPassword: demoPassword, newPassword: weak },
      });
      expect(response.json().result, weak).toBe(0);
    }
  });

  it('refuses a wrong current password', async () => {
    const response = await api(server, 'POST', '/identity/account/changepassword', {
      token: adminToken,
      body: { oldPassword: 'wrong', newPassword: 'Better-Passw0rd!' },
    });
    expect(response.json()).toMatchObject({ result: 1, message: 'The current password is incorrect.' });
  });

  it('changes the password and signs out everywhere (result 2)', async () => {
    const token = await accessTokenFor(server, 'manager@demo.test');
    const other = await signIn(server, 'manager@demo.test');
    const response = await api(server, 'POST', '/identity/account/changepassword', {
      token,
      body: { oldPassword: demoPassword, newPassword: 'Changed-Passw0rd!' },
    });
    expect(response.json().result).toBe(2);
    // Existing tokens stop working at once, on every session. On PostgreSQL (no change feed) a grant
    // seen alive is trusted for a few seconds (grant-liveness.ts), and a token issued in the second of
    // the change is accepted: asked again once that trust has run out.
    if (onPostgres) vi.setSystemTime(Date.now() + unannouncedGrantTrustMs);
    try {
      expect((await api(server, 'GET', '/api/account/ping', { token })).statusCode).toBe(401);
      expect((await api(server, 'GET', '/api/account/ping', { token: other.tokens!.access_token })).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    expect((await signIn(server, 'manager@demo.test')).tokens).toBeUndefined();
    expect((await signIn(server, 'manager@demo.test', 'Changed-Passw0rd!')).tokens).toBeDefined();
  });
});

describe('logout', () => {
  it('ends the identity session so the refresh token stops working', async () => {
    const { tokens } = await signIn(server, 'staff@demo.test');
    const response = await api(server, 'GET', '/api/account/logout', { token: tokens!.access_token });
    expect(response.json()).toEqual({ Success: true });
    const { refresh } = await import('./harness.ts');
    expect((await refresh(server, tokens!.refresh_token)).statusCode).toBe(400);
  });
});
