import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { users } from '../../server/db/schema.ts';

/** Issue 38 point 7, issue 39 points 12 and 18: the users export's CSV, the search's order, the invitation page's text. */
let server: TestServer;
let adminToken: string;

const get = (url: string) => api(server, 'GET', url, { token: adminToken });

beforeAll(async () => {
  server = await startTestServer();
  adminToken = await accessTokenFor(server, 'admin@demo.test');
  const [template] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
  await server.db.insert(users).values([
    { tenantId: 'demo', email: 'semicolon@csv.test', firstName: 'Semi', lastName: 'acct;=1+1', roleName: 'Staff', passwordHash: template!.passwordHash, claims: [] },
    { tenantId: 'demo', email: 'formula@csv.test', firstName: '=SUM(A1)', lastName: 'tab\tname', roleName: 'Staff', passwordHash: template!.passwordHash, claims: [] },
    { tenantId: 'demo', email: 'quote@csv.test', firstName: 'Quo"te', lastName: '＋fullwidth', roleName: 'Staff', passwordHash: template!.passwordHash, claims: [] },
  ]);
});
afterAll(() => server.close());

describe('the users export writes CSV as the applications export does (issue 38 point 7)', () => {
  it('quotes a cell holding a semicolon, so `acct;=1+1` stays one cell in a semicolon locale', async () => {
    const response = await get(`/api/users/exportall?SearchQuery=${encodeURIComponent('semicolon@csv.test')}`);
    expect(response.statusCode).toBe(200);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFFFirst Name,Last Name,Email,Role,Status,Application Access,Last Activity (UTC)');
    expect(lines[1]).toBe('Semi,"acct;=1+1",semicolon@csv.test,Staff,Active,,Never logged in');
    expect(lines[2]).toBe('');
    expect(lines).toHaveLength(3);
  });

  it('neutralises formulas (full-width ones too), quotes tabs and doubles quotes, one CRLF per record', async () => {
    const formula = (await get(`/api/users/exportall?SearchQuery=${encodeURIComponent('formula@csv.test')}`)).body.split('\r\n');
    expect(formula[1]).toBe(`'=SUM(A1),"tab\tname",formula@csv.test,Staff,Active,,Never logged in`);
    const quote = (await get(`/api/users/exportall?SearchQuery=${encodeURIComponent('quote@csv.test')}`)).body.split('\r\n');
    expect(quote[1]).toBe(`"Quo""te",'＋fullwidth,quote@csv.test,Staff,Active,,Never logged in`);
  });
});

describe('the users search (issue 39 point 12)', () => {
  it('puts the user whose e-mail is the search first, before the others the words also find', async () => {
    const list = (await get(`/api/users/list?SearchQuery=${encodeURIComponent('staff@demo.test')}`)).json<{ Users: { Email: string }[]; TotalRows: number }>();
    expect(list.TotalRows).toBeGreaterThan(20);
    expect(list.Users[0]?.Email).toBe('staff@demo.test');
    expect(list.Users.filter((user) => user.Email === 'staff@demo.test')).toHaveLength(1);
    const upper = (await get(`/api/users/list?SearchQuery=${encodeURIComponent(' Staff@Demo.Test ')}`)).json<{ Users: { Email: string }[] }>();
    expect(upper.Users[0]?.Email).toBe('staff@demo.test');
  });

  it('keeps the name order for every other search, and the exact match is not on page 2 again', async () => {
    const page2 = (await get(`/api/users/list?PageNo=2&SearchQuery=${encodeURIComponent('staff@demo.test')}`)).json<{ Users: { Email: string }[] }>();
    expect(page2.Users.map((user) => user.Email)).not.toContain('staff@demo.test');
    const names = (await get('/api/users/list?SearchQuery=olivia')).json<{ Users: { FirstName: string; LastName: string }[] }>();
    const keys = names.Users.map((user) => `${user.FirstName} ${user.LastName}`);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('a revoked invitation’s row (issue 39 point 17)', () => {
  it('the list says the invitation was revoked, at once (not a kept answer), and a resend makes it live again', async () => {
    const roles = (await get('/api/roles')).json<{ TenantRoleId: number; RoleName: string }[]>();
    const role = roles.find((entry) => entry.RoleName === 'Staff')!;
    const invited = await api(server, 'POST', '/api/users/invite', {
      token: adminToken,
      body: { firstName: 'Rhea', lastName: 'Revoked', email: 'rhea.revoked@example.com', MobileNumber: '0412345678', RoleId: role.TenantRoleId },
    });
    const { UserGuid } = invited.json<{ UserGuid: string }>();
    const row = async () =>
      (await get(`/api/users/list?SearchQuery=${encodeURIComponent('rhea.revoked@example.com')}`)).json<{ Users: { GlobalUserId: string; Status: string; InvitationRevoked?: boolean }[] }>().Users[0];
    expect(await row()).toMatchObject({ GlobalUserId: UserGuid, Status: 'Invited', InvitationRevoked: false });
    expect((await api(server, 'POST', '/api/users/revokeinvitation', { token: adminToken, body: { GlobalUserId: UserGuid } })).statusCode).toBe(200);
    expect(await row()).toMatchObject({ GlobalUserId: UserGuid, Status: 'Invited', InvitationRevoked: true });
    expect((await api(server, 'POST', '/api/users/resendinvitation', { token: adminToken, body: { GlobalUserId: UserGuid } })).statusCode).toBe(200);
    expect(await row()).toMatchObject({ GlobalUserId: UserGuid, Status: 'Invited', InvitationRevoked: false });
  });
});
