import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { api, hosts, refresh, signIn, startTestServer, userWith, type TestServer } from './harness.ts';

/**
 * The bearer check every API route runs (server/api/auth.ts), rule by rule: the header's form, the
 * token's lifetime also when its verification is remembered, the account and session behind it,
 * and the 401/403/404 texts a caller reads.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => vi.useRealTimers());

const ping = (authorization: string | undefined, host: string = hosts.demo) =>
  server.app.inject({ method: 'GET', url: '/api/account/ping', headers: { host, ...(authorization === undefined ? {} : { authorization }) } });

/** The access token's payload (it is a JWT; the test reads its times). */
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iat: number; exp: number };

const listClaim = 'view.allapps.instance';

describe('the Authorization header', () => {
  it('takes the token after "Bearer ", in any case', async () => {
    const { token } = await userWith(server, 'header-case@demo.test', [listClaim]);
    expect((await ping(`Bearer ${token}`)).statusCode).toBe(200);
    expect((await ping(`bearer ${token}`)).statusCode).toBe(200);
  });

  it('refuses anything before or after the one token', async () => {
    const { token } = await userWith(server, 'header-form@demo.test', [listClaim]);
    for (const header of [`Bearer ${token} extra`, `Token Bearer ${token}`, `Basic ${token}`, 'Bearer', '', token]) {
      const response = await ping(header);
      expect(response.statusCode, header.slice(0, 20)).toBe(401);
    }
    expect((await ping(undefined)).statusCode).toBe(401);
  });

  it('says a tampered token is invalid or has expired', async () => {
    const { token } = await userWith(server, 'header-tampered@demo.test', [listClaim]);
    const response = await ping(`Bearer ${token.slice(0, -4)}AAAA`);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('The bearer token is invalid or has expired.');
  });

  it('answers 404 on a host that is no tenant', async () => {
    const { token } = await userWith(server, 'header-host@demo.test', [listClaim]);
    const response = await ping(`Bearer ${token}`, hosts.unknown);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Unknown tenant.');
  });
});

describe('a remembered verification', () => {
  it('ends when the token expires', async () => {
    const { token } = await userWith(server, 'remembered@demo.test', [listClaim]);
    expect((await ping(`Bearer ${token}`)).statusCode).toBe(200);
    const { exp } = payloadOf(token);
    // Only the clock is faked: timers and the database run as ever.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.max(Date.now(), (exp + 1) * 1000));
    const response = await ping(`Bearer ${token}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('The bearer token is invalid or has expired.');
  });
});

describe('the account behind the token', () => {
  it('no longer answers once the account is locked, deactivated or removed', async () => {
    for (const status of ['Locked', 'Inactive'] as const) {
      const { user, token } = await userWith(server, `status-${status.toLowerCase()}@demo.test`, [listClaim]);
      await server.db.update(users).set({ status }).where(eq(users.id, user.id));
      const response = await ping(`Bearer ${token}`);
      expect(response.statusCode, status).toBe(401);
      expect(response.json().message).toBe('The account can no longer sign in.');
    }
    const { user, token } = await userWith(server, 'removed@demo.test', [listClaim]);
    await server.db.delete(users).where(eq(users.id, user.id));
    expect((await ping(`Bearer ${token}`)).json().message).toBe('The account can no longer sign in.');
  });

  it('ends every token issued before the session was ended, and keeps one of that very second', async () => {
    const { user, token } = await userWith(server, 'ended@demo.test', [listClaim]);
    const { iat } = payloadOf(token);
    await server.db.update(users).set({ tokensValidAfter: new Date(iat * 1000 + 999) }).where(eq(users.id, user.id));
    expect((await ping(`Bearer ${token}`)).statusCode).toBe(200);
    await server.db.update(users).set({ tokensValidAfter: new Date((iat + 1) * 1000) }).where(eq(users.id, user.id));
    const response = await ping(`Bearer ${token}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('The session has ended.');
  });

  it('gives the display name without a trailing space when there is no last name', async () => {
    const { user, token } = await userWith(server, 'no-last-name@demo.test', [listClaim]);
    await server.db.update(users).set({ firstName: 'Mononym', lastName: '' }).where(eq(users.id, user.id));
    const response = await api(server, 'GET', '/api/account/info', { token });
    expect(response.json().DisplayName).toBe('Mononym');
  });
});

describe('claims', () => {
  it('names the one claim a route requires', async () => {
    const { token } = await userWith(server, 'claims-one@demo.test', [listClaim]);
    const response = await api(server, 'GET', '/api/application/get/ips/1', { token });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Requires the vpnsummary.view claim.');
  });

  it('names every claim a route requires that the caller lacks', async () => {
    const { token } = await userWith(server, 'claims-two@demo.test', [listClaim]);
    const response = await api(server, 'GET', '/api/application/export/my', { token });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Requires the app.export, view.myapps claim.');
  });

  it('lets in a caller with any one of the claims of which a route requires one', async () => {
    const { token } = await userWith(server, 'claims-one-of@demo.test', [listClaim]);
    const response = await api(server, 'GET', '/api/application/get/1', { token });
    expect(response.statusCode).toBe(200);
  });

  it('names every claim of which a route requires one', async () => {
    const { token } = await userWith(server, 'claims-any@demo.test', ['comment.add']);
    const response = await api(server, 'GET', '/api/application/get/1', { token });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/^Requires one of the view\.myapps, view\.allapps\.[a-z.]+(, view\.allapps\.[a-z.]+)* claims\.$/);
  });
});

describe('scopes', () => {
  it('refuses a token without the scope a route requires, naming it', async () => {
    const { tokens } = await signIn(server, 'admin@demo.test');
    // The portal asks for every scope; a client may narrow them when it refreshes.
    const narrowed = await refresh(server, tokens!.refresh_token, hosts.demo, 'openid entityverification');
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    const token = narrowed.json<{ access_token: string }>().access_token;
    const response = await ping(`Bearer ${token}`);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('The token lacks the applicationmanager scope.');
  });
});
