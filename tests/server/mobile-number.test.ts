import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { users } from '../../server/db/schema.ts';

/**
 * Issue 38 point 12: acme's AustralianMobileNumberOnly (SUV §5: "applies to both the invite and
 * edit modals") was the browser's alone; the server took +14155550123. The server holds it too.
 */
let server: TestServer;
const tokens: Record<'demo' | 'acme', string> = { demo: '', acme: '' };
beforeAll(async () => {
  server = await startTestServer();
  tokens.demo = await accessTokenFor(server, 'admin@demo.test');
  tokens.acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
});
afterAll(() => server.close());

let invited = 0;
async function invite(tenant: 'demo' | 'acme', MobileNumber: string) {
  const host = hosts[tenant];
  const roles = (await api(server, 'GET', '/api/roles', { token: tokens[tenant], host })).json<{ TenantRoleId: number; RoleName: string }[]>();
  const email = `mobile${++invited}@${tenant}.example`;
  const response = await api(server, 'POST', '/api/users/invite', {
    token: tokens[tenant],
    host,
    body: { firstName: 'Mo', lastName: 'Bile', email, MobileNumber, RoleId: roles.find((role) => role.RoleName === 'Staff')!.TenantRoleId },
  });
  const [stored] = await server.db.select().from(users).where(and(eq(users.tenantId, tenant), eq(users.email, email)));
  return { response, stored };
}

describe('AustralianMobileNumberOnly on the server', () => {
  it('acme (Australian only) accepts an Australian mobile, 04 or +61 4, and stores it', async () => {
    for (const number of ['0412345678', '+61412345678']) {
      const { response, stored } = await invite('acme', number);
      expect(response.statusCode, number).toBe(200);
      expect(response.json(), number).toMatchObject({ ErrorNo: 0 });
      expect(stored?.mobileNumber, number).toBe(number);
    }
  });

  it('acme refuses another country’s mobile and a number not starting 04, with 400 naming the field, and stores no one', async () => {
    for (const number of ['+14155550123', '+447700900123', '0312345678', '041234567', '04123456789', '+6141234567']) {
      const { response, stored } = await invite('acme', number);
      expect(response.statusCode, number).toBe(400);
      expect(response.json().message, number).toBe('MobileNumber: must be an Australian mobile number (04 and 8 more digits)');
      expect(stored, number).toBeUndefined();
    }
  });

  it('demo (not Australian only) still accepts another country’s mobile', async () => {
    const { response, stored } = await invite('demo', '+14155550123');
    expect(response.statusCode).toBe(200);
    expect(stored?.mobileNumber).toBe('+14155550123');
  });
});
