import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { api, hosts, refresh, signIn, startTestServer, type TestServer } from './harness.ts';
import { lockedMessage, wrongCredentialsMessage } from '../../server/identity/interaction.routes.ts';
import { escapeHtml } from '../../server/html.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('sign-in through the real login page', () => {
  it('issues a JWT access token for the API with the user claims', async () => {
    const { tokens } = await signIn(server, 'admin@demo.test');
    expect(tokens?.refresh_token).toBeTruthy();
    const claims = decodeJwt(tokens!.access_token);
    expect(claims).toMatchObject({ aud: 'urn:portal:api', Tenant: 'demo', DisplayName: 'Avery Admin', iss: 'http://localhost/oidc' });
    expect(claims.Permissions).toContain('admin');
    expect(claims.GlobalId).toBe(claims.sub);
    expect(typeof claims.CreatedDate).toBe('string');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(15 * 60);
  });

  it('gives one message for a wrong password and for an unknown e-mail', async () => {
    const wrong = await signIn(server, 'staff@demo.test', 'not-the-password');
    const unknown = await signIn(server, 'nobody@demo.test', 'whatever');
    expect(wrong.loginPage).toContain(escapeHtml(wrongCredentialsMessage));
    expect(unknown.loginPage).toContain(escapeHtml(wrongCredentialsMessage));
    expect(wrong.loginStatus).toBe(401);
  });

  it('refuses a user of another tenant on this tenant host', async () => {
    const result = await signIn(server, 'admin@acme.test', undefined, hosts.demo);
    expect(result.loginPage).toContain(escapeHtml(wrongCredentialsMessage));
  });

  it('locks the account after five failures, even for the right password', async () => {
    for (let attempt = 1; attempt <= 4; attempt++) {
      const { loginPage } = await signIn(server, 'readonly@demo.test', 'wrong');
      expect(loginPage).toContain(escapeHtml(wrongCredentialsMessage));
    }
    const fifth = await signIn(server, 'readonly@demo.test', 'wrong');
    expect(fifth.loginPage).toContain(escapeHtml(lockedMessage));
    const right = await signIn(server, 'readonly@demo.test');
    expect(right.tokens).toBeUndefined();
    expect(right.loginPage).toContain(escapeHtml(lockedMessage));
  });

  it('refuses the login page of an unknown tenant', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/oidc/auth?client_id=portal', headers: { host: hosts.unknown } });
    expect(response.statusCode).toBe(404);
  });
});

describe('refresh tokens', () => {
  it('rotate on every use, and reusing a spent one revokes the whole grant', async () => {
    const { tokens } = await signIn(server, 'manager@demo.test');
    const first = await refresh(server, tokens!.refresh_token);
    expect(first.statusCode).toBe(200);
    const rotated = first.json<{ refresh_token: string; access_token: string }>();
    expect(rotated.refresh_token).not.toBe(tokens!.refresh_token);

    const reuse = await refresh(server, tokens!.refresh_token);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toMatchObject({ error: 'invalid_grant' });

    // The grant is gone, so even the legitimately rotated token no longer works.
    const afterRevocation = await refresh(server, rotated.refresh_token);
    expect(afterRevocation.statusCode).toBe(400);
  });
});

describe('the API checks the token itself', () => {
  it('answers 401 without a token and with a forged one', async () => {
    expect((await api(server, 'GET', '/api/account/info')).statusCode).toBe(401);
    expect((await api(server, 'GET', '/api/account/info', { token: 'abc.def.ghi' })).statusCode).toBe(401);
  });

  it('refuses a token of tenant acme on the demo host', async () => {
    const { tokens } = await signIn(server, 'admin@acme.test', undefined, hosts.acme);
    const onOwnHost = await api(server, 'GET', '/api/account/info', { token: tokens!.access_token, host: hosts.acme });
    expect(onOwnHost.statusCode).toBe(200);
    const onDemo = await api(server, 'GET', '/api/account/info', { token: tokens!.access_token, host: hosts.demo });
    expect(onDemo.statusCode).toBe(401);
  });
});

describe('no state in memory', () => {
  it('a second server instance on the same database continues the first one\u2019s sessions', async () => {
    const { buildApp } = await import('../../server/app.ts');
    const { readConfig } = await import('../../server/config.ts');
    const { tokens } = await signIn(server, 'staff@demo.test');
    const second = await buildApp({ db: server.db, config: readConfig({ LOG_LEVEL: 'silent' }) });
    try {
      const other = { ...server, app: second };
      const refreshed = await refresh(other, tokens!.refresh_token);
      expect(refreshed.statusCode).toBe(200);
      const { access_token } = refreshed.json<{ access_token: string }>();
      expect((await api(server, 'GET', '/api/account/ping', { token: access_token })).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
