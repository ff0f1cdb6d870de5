import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { outbox, tenants } from '../../server/db/schema.ts';
import { biometricVerifyRequest } from '../../src/domain/verifications.ts';

/**
 * Issue 38 point 10: the reset link took its port and case from the request's Host header. Every
 * link sent to people comes from the tenant's configured origin (tenants.origin; unset, the
 * development default http://<tenant>.localhost:<PORT>), whatever Host the request carried.
 */
let server: TestServer;
let acmeAdmin: string;
const acmeOrigin = 'https://portal.acme.example';
beforeAll(async () => {
  server = await startTestServer({ PORT: '8321' });
  // Before the first acme request: the tenant resolver keeps a host's tenant for 30 s.
  await server.db.update(tenants).set({ origin: acmeOrigin }).where(eq(tenants.id, 'acme'));
  acmeAdmin = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
});
afterAll(() => server.close());

/** The links in the newest message to `recipient`, waiting for one sent after the answer. */
async function linksTo(recipient: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [row] = await server.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id)).limit(1);
    if (row) return [...row.body.matchAll(/https?:\/\/[^\s"<>]+/g)].map((match) => match[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no message to ${recipient}`);
}

const forgot = (email: string, host: string) =>
  server.app.inject({
    method: 'POST',
    url: '/account/forgotpassword',
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email }).toString(),
  });

describe('links sent to people', () => {
  it('reset: from the configured origin, not the Host header’s case and port', async () => {
    expect((await forgot('reset@acme.test', 'ACME.LocalHost:4444')).statusCode).toBe(200);
    const [link] = await linksTo('reset@acme.test');
    expect(link).toMatch(/^https:\/\/portal\.acme\.example\/account\/resetpassword\?token=[\w-]{43}$/);
  });

  it('reset, tenant without a configured origin: the development default on this server’s port', async () => {
    expect((await forgot('manager@demo.test', 'LOCALHOST:9999')).statusCode).toBe(200);
    const [link] = await linksTo('manager@demo.test');
    expect(link).toMatch(/^http:\/\/demo\.localhost:8321\/account\/resetpassword\?token=[\w-]{43}$/);
  });

  it('invitation and resend invitation: from the configured origin', async () => {
    // The API answers only on the host its token was issued for; that host is not the configured origin.
    const host = hosts.acme;
    const roles = (await api(server, 'GET', '/api/roles', { token: acmeAdmin, host })).json<{ TenantRoleId: number; RoleName: string }[]>();
    const invited = await api(server, 'POST', '/api/users/invite', {
      token: acmeAdmin,
      host,
      body: { firstName: 'Lin', lastName: 'Kerr', email: 'lin.kerr@acme.example', MobileNumber: '0412345678', RoleId: roles.find((role) => role.RoleName === 'Staff')!.TenantRoleId },
    });
    expect(invited.json()).toMatchObject({ ErrorNo: 0 });
    expect(await linksTo('lin.kerr@acme.example')).toEqual([expect.stringMatching(/^https:\/\/portal\.acme\.example\/invitation\/[\w-]{43}$/)]);
    const resent = await api(server, 'POST', '/api/users/resendinvitation', { token: acmeAdmin, host, body: { GlobalUserId: invited.json<{ UserGuid: string }>().UserGuid } });
    expect(resent.statusCode).toBe(200);
    const links = await linksTo('lin.kerr@acme.example');
    expect(links).toEqual([expect.stringMatching(/^https:\/\/portal\.acme\.example\/invitation\/[\w-]{43}$/)]);
  });

  it('biometric SMS: from the configured origin', async () => {
    const response = await api(server, 'POST', '/entity-verification/api/v1/individual/verify', {
      token: acmeAdmin,
      host: hosts.acme,
      body: biometricVerifyRequest({ IndividualDetails: { FirstName: 'Hana', LastName: 'Origin', MobileNumber: { PhoneNumber: '0412399999' } } }),
    });
    expect(response.statusCode).toBe(200);
    const [sms] = await server.db.select().from(outbox).where(and(eq(outbox.tenantId, 'acme'), eq(outbox.recipient, '0412399999'))).limit(1);
    expect(sms!.body).toMatch(/ https:\/\/portal\.acme\.example\/entity-verification\/sandbox\/biometric\/[\w-]{32}$/);
  });
});
