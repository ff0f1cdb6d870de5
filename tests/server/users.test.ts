import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, like } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { api, hosts, refresh, signIn, startTestServer, type TestServer, userWith } from './harness.ts';
import { accountAudit, outbox, tenants, userAudit, userInvitations, users } from '../../server/db/schema.ts';
import { lockActivities } from '../../server/identity/lock-audit.ts';
import { shellClaims } from '../../src/domain/claims.ts';
import { inviteTexts, permissionTexts, userActionTexts } from '../../src/schemas/users.schema.ts';
import { ownPermissionsMessage, transitionRefusal } from '../../server/api/users.routes.ts';
import { invitationTexts } from '../../server/identity/invitation-page.ts';
import { seededStaffDomain, seededUsersPerTenant } from '../../server/db/users-seed.ts';
import { lockedMessage } from '../../server/identity/interaction.routes.ts';

let server: TestServer;
let adminToken: string;
let acmeToken: string;
let adminId: string;

const get = (url: string, token?: string, host: string = hosts.demo) => api(server, 'GET', url, { token, host });
const post = (url: string, body: unknown, token?: string, host: string = hosts.demo) => api(server, 'POST', url, { token, host, body });

async function userByEmail(email: string) {
  const [user] = await server.db.select().from(users).where(eq(users.email, email));
  return user!;
}

/** The newest e-mail to `to`, and the invitation link in it. */
async function latestLink(to: string) {
  const [message] = await server.db.select().from(outbox).where(eq(outbox.recipient, to)).orderBy(desc(outbox.id)).limit(1);
  const url = /http:\/\/demo\.localhost:8080(\/invitation\/[A-Za-z0-9_-]{43})/.exec(message?.body ?? '')?.[1];
  if (!url) throw new Error(`no invitation link to ${to}`);
  return url;
}

const page = (url: string, method: 'GET' | 'POST' = 'GET', form?: Record<string, string>) =>
  server.app.inject({
    method,
    url,
    headers: { host: hosts.demo, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    payload: form ? new URLSearchParams(form).toString() : undefined,
  });

const goodPassword = 'New-Passw0rd!';

async function invite(email: string, roleName = 'Admin Staff (Read Only)', token = adminToken) {
  const roles = (await get('/api/roles', adminToken)).json<{ TenantRoleId: number; RoleName: string }[]>();
  const role = roles.find((r) => r.RoleName === roleName)!;
  return post('/api/users/invite', { firstName: 'Ivy', lastName: 'Invitee', email, MobileNumber: '0412345678', RoleId: role.TenantRoleId }, token);
}

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await signIn(server, 'admin@demo.test');
  adminToken = signedIn.tokens!.access_token;
  adminId = (await userByEmail('admin@demo.test')).id;
  acmeToken = (await signIn(server, 'admin@acme.test', undefined, hosts.acme)).tokens!.access_token;
});
afterAll(() => server.close());

describe('access', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/roles'],
    ['GET', '/api/users/list'],
    ['GET', '/api/users/exportall'],
    ['POST', '/api/users/invite', {}],
    ['POST', '/api/users/modifypermissions?assigneeUserGlobalId=x&editApplicationPermissionRequestType=Grant', {}],
    ['POST', '/api/users/enableuser', {}],
    ['POST', '/api/users/disableuser', {}],
    ['POST', '/api/users/unlockuser', {}],
    ['POST', '/api/users/resendinvitation', {}],
    ['POST', '/api/users/revokeinvitation', {}],
  ];
  it.each(routes)('%s %s answers 401 without a token', async (method, url, body) => {
    expect((await api(server, method as 'GET', url, { body })).statusCode).toBe(401);
  });

  it('answers 403 naming the claim when only usermanagement.access is missing, and each route its own claim', async () => {
    const allButAccess = shellClaims.filter((claim) => claim !== 'usermanagement.access');
    const { token } = await userWith(server, 'no-access@demo.test', allButAccess);
    const refused = await get('/api/users/list', token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('usermanagement.access');
    const { token: viewer } = await userWith(server, 'viewer@demo.test', ['usermanagement.access']);
    expect((await get('/api/users/list', viewer)).statusCode).toBe(200);
    const needs: [string, string, unknown, string][] = [
      ['GET', '/api/users/exportall', undefined, 'usermanagement.users.exportusers'],
      ['POST', '/api/users/invite', {}, 'usermanagement.users.invite'],
      ['POST', '/api/users/modifypermissions?assigneeUserGlobalId=x&editApplicationPermissionRequestType=Grant', {}, 'usermanagement.permissions.editapplicationaccess'],
      ['POST', '/api/users/enableuser', {}, 'usermanagement.users.enabledisable'],
      ['POST', '/api/users/disableuser', {}, 'usermanagement.users.enabledisable'],
      ['POST', '/api/users/unlockuser', {}, 'usermanagement.users.unlock'],
      ['POST', '/api/users/resendinvitation', {}, 'usermanagement.users.invite'],
    ];
    for (const [method, url, body, claim] of needs) {
      const response = await api(server, method as 'GET', url, { token: viewer, body });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().message).toBe(`Requires the ${claim} claim.`);
    }
  });
});

describe('GET /api/users/list', () => {
  it('pages the tenant’s users 20 at a time in name order, with the total and the last page', async () => {
    const response = await get('/api/users/list', adminToken);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ Users: { FirstName: string; Email: string }[]; TotalRows: number; MaxPage: number }>();
    expect(body.Users).toHaveLength(20);
    expect(body.TotalRows).toBeGreaterThanOrEqual(seededUsersPerTenant + 4);
    expect(body.MaxPage).toBe(Math.ceil(body.TotalRows / 20));
    const names = body.Users.map((user) => user.FirstName);
    expect(names).toEqual([...names].sort());
    expect(body.Users.every((user) => !user.Email.endsWith('acme.test'))).toBe(true);
    const second = (await get('/api/users/list?PageNo=2&RowsPerPage=5', adminToken)).json<{ Users: unknown[]; MaxPage: number }>();
    expect(second.Users).toHaveLength(5);
    expect(second.MaxPage).toBe(Math.ceil(body.TotalRows / 5));
  });

  it('searches name and e-mail by word prefix; a search of another tenant’s user finds nothing', async () => {
    const found = (await get('/api/users/list?SearchQuery=Aver%20adm', adminToken)).json<{ Users: { Email: string }[]; TotalRows: number }>();
    expect(found.Users.map((user) => user.Email)).toEqual(['admin@demo.test']);
    expect(found.TotalRows).toBe(1);
    const byEmail = (await get('/api/users/list?SearchQuery=readonly%40demo', adminToken)).json<{ Users: { Email: string }[] }>();
    expect(byEmail.Users.map((user) => user.Email)).toEqual(['readonly@demo.test']);
    const other = (await get('/api/users/list?SearchQuery=admin%40acme.test', adminToken)).json<{ TotalRows: number; MaxPage: number; Users: unknown[] }>();
    expect(other).toEqual({ Users: [], TotalRows: 0, MaxPage: 0 });
    expect((await get('/api/users/list?SearchQuery=%25%25', adminToken)).json().TotalRows).toBe(0);
  });

  it('shows every status among the seeded staff, with when the locked ones were locked', async () => {
    const rows = await server.db.select({ status: users.status, lockedAt: users.lockedAt }).from(users).where(like(users.email, `%@${seededStaffDomain('demo')}`));
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['Invited', 'Active', 'Normal', 'LockedPasswordAttempts', 'LockedMFAAttempts', 'LockInactivity', 'Deactivated']));
    expect(rows.filter((row) => row.status.startsWith('Lock')).every((row) => row.lockedAt !== null)).toBe(true);
  });

  it('answers 400 naming the field', async () => {
    for (const [query, field] of [['PageNo=0', 'PageNo'], ['PageNo=x', 'PageNo'], ['RowsPerPage=101', 'RowsPerPage'], ['RowsPerPage=-1', 'RowsPerPage']]) {
      const response = await get(`/api/users/list?${query}`, adminToken);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toContain(field);
    }
  });
});

describe('GET /api/roles', () => {
  it('lists the tenant’s roles including the two admin staff roles', async () => {
    const roles = (await get('/api/roles', adminToken)).json<{ RoleName: string }[]>().map((role) => role.RoleName);
    expect(roles).toEqual(expect.arrayContaining(['Admin Staff (Full Access)', 'Admin Staff (Read Only)']));
  });
});

describe('the invitation', () => {
  it('invites: the user is Invited with the role, the e-mail is in the outbox, the action audited', async () => {
    const response = await invite('ivy.one@example.com');
    expect(response.statusCode).toBe(200);
    const body = response.json<{ ErrorNo: number; Message: string; UserGuid: string }>();
    expect(body).toMatchObject({ ErrorNo: 0, Message: inviteTexts.sent });
    const user = await userByEmail('ivy.one@example.com');
    expect(user).toMatchObject({ id: body.UserGuid, status: 'Invited', roleName: 'Admin Staff (Read Only)', mobileNumber: '0412345678', tenantId: 'demo' });
    const [audit] = await server.db.select().from(userAudit).where(eq(userAudit.targetUserId, user.id));
    expect(audit).toMatchObject({ action: 'invite', actorUserId: adminId });
    const [invitation] = await server.db.select().from(userInvitations).where(eq(userInvitations.userId, user.id));
    const link = await latestLink('ivy.one@example.com');
    // Only the hash is kept.
    expect(invitation!.tokenHash).not.toContain(link.split('/').pop()!);
    expect(invitation!.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
  });

  it('an e-mail already in the tenant is a clear Message, not an error; the same e-mail in another tenant is fine', async () => {
    const duplicate = await invite('Manager@demo.test');
    expect(duplicate.statusCode).toBe(200);
    expect(duplicate.json()).toEqual({ ErrorNo: 1, Message: inviteTexts.duplicate, UserGuid: '' });
  });

  it('answers 400 naming the field for a bad payload', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ lastName: 'L', email: 'a@b.co', MobileNumber: '0412345678', RoleId: 1 }, 'firstName'],
      [{ firstName: '\u202e', lastName: 'L', email: 'a@b.co', MobileNumber: '0412345678', RoleId: 1 }, 'firstName'],
      [{ firstName: 'F', lastName: 'L', email: 'not-an-email', MobileNumber: '0412345678', RoleId: 1 }, 'email'],
      [{ firstName: 'F', lastName: 'L', email: 'a@b.co', MobileNumber: '0412 345 678', RoleId: 1 }, 'MobileNumber'],
      [{ firstName: 'F', lastName: 'L', email: 'a@b.co', MobileNumber: '0412345678', RoleId: 'x' }, 'RoleId'],
    ];
    for (const [body, field] of cases) {
      const response = await post('/api/users/invite', body, adminToken);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message).toContain(field);
    }
  });

  it('GET of the link shows the branded page and leaves it usable; POST sets the password once; the user signs in', async () => {
    await invite('ivy.two@example.com');
    const link = await latestLink('ivy.two@example.com');
    for (let n = 0; n < 2; n++) {
      const shown = await page(link);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain(invitationTexts.setHeading);
      expect(shown.body).toContain('Demo Wealth');
      expect(shown.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(shown.headers['referrer-policy']).toBe('no-referrer');
    }
    expect((await signIn(server, 'ivy.two@example.com', goodPassword)).tokens).toBeUndefined();
    const weak = await page(link, 'POST', { password: 'short', confirm: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('The password needs');
    const mismatch = await page(link, 'POST', { password: goodPassword, confirm: `${goodPassword}x` });
    // AM §5's text, as Change Password and reset say it (issue 39 point 18).
    expect(mismatch.body).toContain('Passwords do not match.');
    expect(mismatch.body).not.toContain('The two passwords');
    const set = await page(link, 'POST', { password: goodPassword, confirm: goodPassword });
    expect(set.statusCode).toBe(200);
    expect(set.body).toContain(invitationTexts.passwordSet);
    expect((await userByEmail('ivy.two@example.com')).status).toBe('Active');
    const signedIn = await signIn(server, 'ivy.two@example.com', goodPassword);
    expect(signedIn.tokens?.access_token).toBeTruthy();
    // Reuse: the page and the form both say it was used.
    const again = await page(link, 'POST', { password: 'Other-Passw0rd!', confirm: 'Other-Passw0rd!' });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain(invitationTexts.used);
    expect((await page(link)).body).toContain(invitationTexts.used);
  });

  it('resend kills the old link; revoke kills the live one; both only for Invited rows', async () => {
    const { UserGuid } = (await invite('ivy.three@example.com')).json<{ UserGuid: string }>();
    const first = await latestLink('ivy.three@example.com');
    const resent = await post('/api/users/resendinvitation', { GlobalUserId: UserGuid }, adminToken);
    expect(resent.json()).toEqual({ Success: true, Message: userActionTexts.resendInvitation.success });
    const second = await latestLink('ivy.three@example.com');
    expect(second).not.toBe(first);
    expect((await page(first)).body).toContain(invitationTexts.replaced);
    expect((await page(second)).body).toContain(invitationTexts.setHeading);
    expect((await post('/api/users/revokeinvitation', { GlobalUserId: UserGuid }, adminToken)).statusCode).toBe(200);
    const revoked = await page(second, 'POST', { password: goodPassword, confirm: goodPassword });
    expect(revoked.statusCode).toBe(410);
    expect(revoked.body).toContain(invitationTexts.revoked);
    expect((await userByEmail('ivy.three@example.com')).status).toBe('Invited');
    const active = await userByEmail('manager@demo.test');
    expect((await post('/api/users/resendinvitation', { GlobalUserId: active.id }, adminToken)).statusCode).toBe(409);
    expect((await post('/api/users/revokeinvitation', { GlobalUserId: active.id }, adminToken)).statusCode).toBe(409);
  });

  it('an expired link says so and sends a new one to the invited address, once', async () => {
    const { UserGuid } = (await invite('ivy.four@example.com')).json<{ UserGuid: string }>();
    const link = await latestLink('ivy.four@example.com');
    await server.db.update(userInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(userInvitations.userId, UserGuid));
    const shown = await page(link);
    expect(shown.statusCode).toBe(410);
    expect(shown.body).toContain(invitationTexts.expired);
    expect((await page(link, 'POST', { password: goodPassword, confirm: goodPassword })).body).toContain(invitationTexts.expired);
    const renewed = await page(`${link}/renew`, 'POST', {});
    expect(renewed.body).toContain(invitationTexts.renewed);
    const fresh = await latestLink('ivy.four@example.com');
    expect(fresh).not.toBe(link);
    expect((await page(`${link}/renew`, 'POST', {})).statusCode).toBe(410);
    expect((await page(fresh, 'POST', { password: goodPassword, confirm: goodPassword })).body).toContain(invitationTexts.passwordSet);
  });

  it('an unknown link is a 404 page in words', async () => {
    const unknown = await page(`/invitation/${'a'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain(invitationTexts.unknown);
    expect((await page('/invitation/short')).body).toContain(invitationTexts.unknown);
  });
});

describe('POST /api/users/modifypermissions', () => {
  const url = (id: string, type = 'Grant') => `/api/users/modifypermissions?assigneeUserGlobalId=${id}&editApplicationPermissionRequestType=${type}`;

  it('grants and revokes an admin staff user’s access, audited', async () => {
    const reader = await userByEmail('readonly@demo.test');
    const granted = await post(url(reader.id), {}, adminToken);
    expect(granted.json()).toEqual({ ErrorNo: 0, Message: permissionTexts.updated });
    expect((await userByEmail('readonly@demo.test')).hasApplicationAccess).toBe(true);
    await post(url(reader.id, 'Revoke'), {}, adminToken);
    expect((await userByEmail('readonly@demo.test')).hasApplicationAccess).toBe(false);
    const audits = await server.db.select().from(userAudit).where(eq(userAudit.targetUserId, reader.id));
    expect(audits.map((audit) => audit.action)).toEqual(['grantApplicationAccess', 'revokeApplicationAccess']);
  });

  it('refuses one’s own account (403), another tenant’s user (404), a bad type (400), a non-admin role (409)', async () => {
    const own = await post(url(adminId), {}, adminToken);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(ownPermissionsMessage);
    const acmeAdmin = await userByEmail('admin@acme.test');
    expect((await post(url(acmeAdmin.id), {}, adminToken)).statusCode).toBe(404);
    const bad = await post(url(acmeAdmin.id, 'Maybe'), {}, adminToken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('editApplicationPermissionRequestType');
    expect((await post(url((await userByEmail('staff@demo.test')).id), {}, adminToken)).statusCode).toBe(409);
  });
});

describe('status transitions', () => {
  async function userIn(status: string) {
    const [user] = await server.db.select().from(users).where(and(eq(users.status, status), like(users.email, `%@${seededStaffDomain('demo')}`))).limit(1);
    return user!;
  }
  const routeOf = { reactivate: '/api/users/enableuser', deactivate: '/api/users/disableuser', unlock: '/api/users/unlockuser' } as const;
  const allowed: Record<string, (keyof typeof routeOf)[]> = {
    Invited: [],
    Active: ['deactivate'],
    Normal: ['deactivate'],
    LockedPasswordAttempts: ['unlock', 'deactivate'],
    LockedMFAAttempts: ['unlock', 'deactivate'],
    LockInactivity: ['unlock', 'deactivate'],
    Deactivated: ['reactivate'],
  };

  it.each(Object.entries(allowed))('%s allows exactly %j; the others answer 409 with a message', async (status, actions) => {
    for (const action of Object.keys(routeOf) as (keyof typeof routeOf)[]) {
      const user = await userIn(status);
      const response = await post(routeOf[action], { GlobalUserId: user.id }, adminToken);
      if (actions.includes(action)) {
        expect(response.statusCode, action).toBe(200);
        expect(response.json()).toEqual({ Success: true, Message: userActionTexts[action].success });
        const after = await userByEmail(user.email);
        expect(after.status).toBe(action === 'deactivate' ? 'Deactivated' : 'Active');
        expect(after).toMatchObject({ failedAttempts: 0, lockedAt: null, statusChangedBy: adminId });
        const [audit] = await server.db.select().from(userAudit).where(eq(userAudit.targetUserId, user.id)).orderBy(desc(userAudit.id)).limit(1);
        expect(audit).toMatchObject({ action, actorUserId: adminId, detail: `from ${status}` });
        // Put it back for the next action.
        await server.db.update(users).set({ status, lockedAt: user.lockedAt }).where(eq(users.id, user.id));
      } else {
        expect(response.statusCode, action).toBe(409);
        expect(response.json().message).toBe(transitionRefusal(status, action));
      }
    }
  });

  it('404 for another tenant’s user or a malformed id; 400 without GlobalUserId; no deactivating oneself', async () => {
    const acmeAdmin = await userByEmail('admin@acme.test');
    expect((await post('/api/users/disableuser', { GlobalUserId: acmeAdmin.id }, adminToken)).statusCode).toBe(404);
    expect((await post('/api/users/disableuser', { GlobalUserId: 'nope' }, adminToken)).statusCode).toBe(404);
    const missing = await post('/api/users/disableuser', {}, adminToken);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('GlobalUserId');
    expect((await post('/api/users/disableuser', { GlobalUserId: adminId }, adminToken)).statusCode).toBe(409);
    expect((await post('/api/users/disableuser', { GlobalUserId: acmeAdmin.id }, acmeToken, hosts.acme)).statusCode).toBe(409);
  });

  it('a deactivated user is refused at sign-in and their refresh token and access token stop working at once', async () => {
    const { user } = await userWith(server, 'soon-gone@demo.test', ['view.myapps']);
    const session = await signIn(server, user.email);
    expect(session.tokens).toBeDefined();
    expect((await post('/api/users/disableuser', { GlobalUserId: user.id }, adminToken)).statusCode).toBe(200);
    expect((await refresh(server, session.tokens!.refresh_token)).statusCode).toBe(400);
    expect((await get('/api/account/info', session.tokens!.access_token)).statusCode).toBe(401);
    const again = await signIn(server, user.email);
    expect(again.tokens).toBeUndefined();
    expect(again.loginPage).toContain('not active');
  });

  it('five wrong passwords lock with when; unlock clears it and the user signs in', async () => {
    const { user } = await userWith(server, 'forgetful@demo.test', ['view.myapps']);
    for (let n = 0; n < 5; n++) await signIn(server, user.email, 'wrong-password');
    const locked = await userByEmail(user.email);
    expect(locked.status).toBe('LockedPasswordAttempts');
    expect(Date.now() - locked.lockedAt!.getTime()).toBeLessThan(60_000);
    const row = (await get(`/api/users/list?SearchQuery=forgetful`, adminToken)).json<{ Users: { Status: string; LockedTimestamp: number }[] }>().Users[0]!;
    expect(row.Status).toBe('LockedPasswordAttempts');
    expect(row.LockedTimestamp).toBe(Math.floor(locked.lockedAt!.getTime() / 1000));
    expect((await signIn(server, user.email)).loginPage).toContain(lockedMessage);
    expect((await post('/api/users/unlockuser', { GlobalUserId: user.id }, adminToken)).statusCode).toBe(200);
    expect((await signIn(server, user.email)).tokens).toBeDefined();
  });

  it('an account unused past the tenant’s LockInactivityDays locks at sign-in', async () => {
    const { user } = await userWith(server, 'dormant@demo.test', ['view.myapps']);
    const old = new Date(Date.now() - 91 * 86_400_000);
    await server.db.update(users).set({ lastLoginAt: old, createdAt: old }).where(eq(users.id, user.id));
    const [demo] = await server.db.select().from(tenants).where(eq(tenants.id, 'demo'));
    expect((demo!.settings as { LockInactivityDays: number }).LockInactivityDays).toBe(90);
    expect((await signIn(server, user.email)).tokens).toBeUndefined();
    expect((await userByEmail(user.email)).status).toBe('LockInactivity');
    // Audited once, with the address of the sign-in that locked it (issue 27 point 11).
    expect((await signIn(server, user.email)).tokens).toBeUndefined();
    const audit = await server.db.select().from(accountAudit).where(eq(accountAudit.userId, user.id));
    expect(audit.map((entry) => [entry.activity, entry.sourceAddress])).toEqual([[lockActivities.inactivity, '127.0.0.1']]);
  });
});

describe('GET /api/users/exportall', () => {
  it('streams userlist.csv with a BOM, the rows the search shows, formula cells neutralised', async () => {
    const { user } = await userWith(server, 'formula@demo.test', []);
    await server.db.update(users).set({ firstName: '=HYPERLINK("http://evil")', lastName: 'Zoë' }).where(eq(users.id, user.id));
    const response = await get('/api/users/exportall?SearchQuery=formula', adminToken);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="userlist.csv"; filename*=UTF-8''userlist.csv`);
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const records = parse(response.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(records).toEqual([
      {
        'First Name': `'=HYPERLINK("http://evil")`,
        'Last Name': 'Zoë',
        Email: 'formula@demo.test',
        Role: 'Staff',
        Status: 'Active',
        'Application Access': '',
        'Last Activity (UTC)': expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
      },
    ]);
  });

  it('exports every user of the tenant and none of another', async () => {
    const response = await get('/api/users/exportall', adminToken);
    const records = parse(response.body.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    const total = (await get('/api/users/list', adminToken)).json<{ TotalRows: number }>().TotalRows;
    expect(records).toHaveLength(total);
    expect(records.some((record) => record.Email === 'admin@acme.test')).toBe(false);
    expect(records.some((record) => record['Last Activity (UTC)'] === 'Never logged in')).toBe(true);
  });
});

