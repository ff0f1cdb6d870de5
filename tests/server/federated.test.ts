import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { hosts, signIn, startTestServer, type TestServer } from './harness.ts';
import { signInSteps } from './sign-in-steps.ts';
import { federationKeys, tenantHosts, tenants, users } from '../../server/db/schema.ts';
import { seedTenants } from '../../server/db/seed.ts';
import { escapeHtml } from '../../server/html.ts';
import { demoFederationKey, signFederatedLink } from '../../server/identity/federated-link.ts';
import { federatedRefusals } from '../../server/identity/federated-sign-in.ts';
import { federatedOnlyMessage } from '../../server/identity/mfa-interaction.ts';

let server: TestServer;
const ssoHost = 'sso.localhost';
const ssoKey = { tenantId: 'sso', keyId: 'sso-2026', secret: 'another-partner-secret' };
beforeAll(async () => {
  server = await startTestServer();
  const demo = seedTenants[0]!;
  await server.db.insert(tenants).values({ ...demo, id: 'sso', name: 'SSO Only', settings: { ...demo.settings, FormLoginRequiresClaim: true } });
  await server.db.insert(tenantHosts).values({ host: ssoHost, tenantId: 'sso' });
  await server.db.insert(federationKeys).values(ssoKey);
  const [template] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
  await server.db.insert(users).values({ ...template!, id: undefined, tenantId: 'sso', email: 'member@sso.test', createdAt: undefined });
});
afterAll(() => server.close());

/** The token and hash of a link, as the portal's /federated/:token/:hash route reads them. */
function partsOf(link: string) {
  const [, token = '', hash = ''] = /\/federated\/([^/]+)\/([^/]+)$/.exec(link) ?? [];
  return { token, hash };
}

const demoLink = (email: string, options: { now?: number; lifetime?: number; kid?: string; secret?: string } = {}) =>
  partsOf(signFederatedLink('http://localhost', { email, kid: options.kid ?? demoFederationKey.keyId, secret: options.secret ?? demoFederationKey.secret, now: options.now, lifetime: options.lifetime }));

const follow = (link: { token: string; hash: string }, host: string = hosts.demo) =>
  signInSteps(server, { host, authorize: { federation_token: link.token, federation_hash: link.hash, prompt: 'login' } });

describe('federated sign-in', () => {
  it('signs the person of a valid link in without a password, once (amr fed)', async () => {
    const link = demoLink('manager@demo.test');
    const first = await follow(link);
    const claims = decodeJwt(first.tokens!.access_token);
    expect(claims).toMatchObject({ amr: ['fed'], Tenant: 'demo', DisplayName: 'Morgan Manager' });

    const replayed = await follow(link);
    expect(replayed.tokens).toBeUndefined();
    expect(replayed.status).toBe(403);
    expect(replayed.page).toContain('SSO sign-in unavailable');
    expect(replayed.page).toContain(escapeHtml(federatedRefusals.replayed));
  });

  it.each([
    ['a forged hash', () => ({ ...demoLink('admin@demo.test'), hash: demoLink('admin@demo.test', { secret: 'guessed' }).hash }), 'forged'],
    ['a hash of another length', () => ({ ...demoLink('admin@demo.test'), hash: 'AAAA' }), 'forged'],
    ['an expired token', () => demoLink('admin@demo.test', { now: Math.floor(Date.now() / 1000) - 400 }), 'expired'],
    ['a token living over 5 minutes', () => demoLink('admin@demo.test', { lifetime: 301 }), 'expired'],
    ['a token from the future', () => demoLink('admin@demo.test', { now: Math.floor(Date.now() / 1000) + 120 }), 'expired'],
    ['an unknown key id', () => demoLink('admin@demo.test', { kid: 'retired-key' }), 'unknownKey'],
    ['a damaged token', () => ({ token: 'not-json', hash: demoLink('admin@demo.test').hash }), 'malformed'],
    ['an unknown person', () => demoLink('nobody@demo.test'), 'noAccount'],
    ['a person of another tenant', () => demoLink('admin@acme.test'), 'noAccount'],
  ] as const)('refuses %s with its reason and no session', async (_name, make, reason) => {
    const refused = await follow(make());
    expect(refused.tokens).toBeUndefined();
    expect(refused.status).toBe(403);
    expect(refused.page).toContain(escapeHtml(federatedRefusals[reason]));
  });

  it('refuses a locked account', async () => {
    await server.db.update(users).set({ status: 'LockedPasswordAttempts' }).where(eq(users.email, 'readonly@demo.test'));
    const refused = await follow(demoLink('readonly@demo.test'));
    expect(refused.page).toContain(escapeHtml(federatedRefusals.noAccount));
  });

  it('a key of one tenant does not sign in on another tenant host', async () => {
    const refused = await follow(demoLink('admin@acme.test'), hosts.acme);
    expect(refused.page).toContain(escapeHtml(federatedRefusals.unknownKey));
  });

  it('without user.formlogin a person of a tenant that asks for it signs in only through the link', async () => {
    const password = await signIn(server, 'member@sso.test', undefined, ssoHost);
    expect(password.tokens).toBeUndefined();
    expect(password.loginPage).toContain(escapeHtml(federatedOnlyMessage));
    const link = partsOf(signFederatedLink(`http://${ssoHost}`, { email: 'member@sso.test', kid: ssoKey.keyId, secret: ssoKey.secret }));
    expect(decodeJwt((await follow(link, ssoHost)).tokens!.access_token).amr).toEqual(['fed']);
  });
});
