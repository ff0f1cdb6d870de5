import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { and, asc, eq, like, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { accessTokenFor, api, hosts, signIn, startTestServer, type TestServer } from './harness.ts';
import { applications, users } from '../../server/db/schema.ts';
import { allClaims } from '../../src/domain/claims.ts';
import { seededStaffDomain } from '../../server/db/users-seed.ts';

/**
 * Issue 39 point 1, SUV §1/§3/§6: an administrator grants or revokes each admin staff user's access
 * to applications (HasApplicationAccess). The server decides with it what the person may list and
 * open, on every call (not only the menu, and not only from the next sign-in).
 */
let server: TestServer;
let adminToken: string;
let applicationId: number;

const get = (url: string, token: string) => api(server, 'GET', url, { token });
const modify = (userId: string, type: 'Grant' | 'Revoke') =>
  api(server, 'POST', `/api/users/modifypermissions?assigneeUserGlobalId=${userId}&editApplicationPermissionRequestType=${type}`, { token: adminToken, body: {} });

/** An admin staff user of tenant demo holding every claim, with or without application access. */
async function adminStaff(email: string, hasApplicationAccess: boolean, roleName = 'Admin Staff (Full Access)') {
  const [template] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
  const [user] = await server.db
    .insert(users)
    .values({
      tenantId: 'demo',
      email,
      firstName: 'Test',
      lastName: 'Administrator',
      roleName,
      passwordHash: template!.passwordHash,
      claims: [...allClaims],
      hasApplicationAccess,
      tokensValidAfter: new Date(Date.now() - 60_000),
    })
    .returning();
  return { user: user!, token: await accessTokenFor(server, email) };
}

/** The application calls a person with access makes: both lists, a detail, its feed, and an export. */
const applicationCalls = () => [
  '/api/application/list?q=',
  '/api/application/list/all?q=',
  `/api/application/get/${applicationId}`,
  `/api/application/activityfeed/${applicationId}`,
  `/api/comment/${applicationId}`,
  '/api/application/export/all?q=',
];

beforeAll(async () => {
  server = await startTestServer();
  adminToken = await accessTokenFor(server, 'admin@demo.test');
  const [first] = await server.db.select({ id: applications.id }).from(applications).where(eq(applications.tenantId, 'demo')).orderBy(asc(applications.id)).limit(1);
  applicationId = first!.id;
});
afterAll(() => server.close());

describe('HasApplicationAccess decides on the server', () => {
  it('an admin staff user without access is refused every list and detail call (403), with access answered as before', async () => {
    const without = await adminStaff('no-apps@demo.test', false);
    for (const url of applicationCalls()) {
      expect({ url, status: (await get(url, without.token)).statusCode }).toEqual({ url, status: 403 });
    }
    const withAccess = await adminStaff('with-apps@demo.test', true);
    for (const url of applicationCalls()) {
      expect({ url, status: (await get(url, withAccess.token)).statusCode }).toEqual({ url, status: 200 });
    }
  });

  it('keeps the rest of the role: user management and admin configuration still answer', async () => {
    const { token } = await adminStaff('no-apps-rest@demo.test', false);
    expect((await get('/api/users/list', token)).statusCode).toBe(200);
    expect((await get('/api/admin/columns', token)).statusCode).toBe(200);
  });

  it('the token and account info hold no application claim without access, and every one with it', async () => {
    const without = await adminStaff('claims-none@demo.test', false);
    const withheld = ['view.myapps', 'view.allapps.instance', 'app.view', 'app.export', 'comments.view', 'document.view'];
    const permissions = decodeJwt(without.token).Permissions as string[];
    for (const claim of withheld) expect(permissions).not.toContain(claim);
    expect(permissions).toContain('usermanagement.access');
    expect(permissions).toContain('admin');
    const info = (await get('/api/account/info', without.token)).json<{ Claims: string[] }>();
    for (const claim of withheld) expect(info.Claims).not.toContain(claim);
    const granted = await adminStaff('claims-all@demo.test', true);
    expect(decodeJwt(granted.token).Permissions).toEqual([...allClaims]);
  });

  it('a revoke refuses the person’s next call at once, a grant answers it, and the next sign-in’s token follows', async () => {
    const { user, token } = await adminStaff('toggled@demo.test', true);
    expect((await get('/api/application/list/all?q=', token)).statusCode).toBe(200);
    expect((await modify(user.id, 'Revoke')).json()).toMatchObject({ ErrorNo: 0 });
    expect((await get('/api/application/list/all?q=', token)).statusCode).toBe(403);
    expect((await get(`/api/application/get/${applicationId}`, token)).statusCode).toBe(403);
    const afterRevoke = await accessTokenFor(server, 'toggled@demo.test');
    expect(decodeJwt(afterRevoke).Permissions).not.toContain('view.allapps.instance');
    expect((await modify(user.id, 'Grant')).json()).toMatchObject({ ErrorNo: 0 });
    expect((await get('/api/application/list/all?q=', token)).statusCode).toBe(200);
    expect((await get(`/api/application/get/${applicationId}`, token)).statusCode).toBe(200);
  });

  it('the read-only role without access cannot list or open either', async () => {
    const { token } = await adminStaff('reader-none@demo.test', false, 'Admin Staff (Read Only)');
    expect((await get('/api/application/list/all?q=', token)).statusCode).toBe(403);
    expect((await get(`/api/application/get/${applicationId}`, token)).statusCode).toBe(403);
  });

  it('roles without the Permissions column (Staff, Application Manager) are not changed by the flag', async () => {
    const staff = await accessTokenFor(server, 'staff@demo.test');
    const [staffRow] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
    expect(staffRow!.hasApplicationAccess).toBe(false);
    expect((await get('/api/application/list?q=', staff)).statusCode).toBe(200);
  });

  it('an admin staff user without access is not offered as an assignee', async () => {
    const { user } = await adminStaff('unassignable@demo.test', false);
    const options = await get('/api/account/assignees', adminToken);
    expect(options.statusCode).toBe(200);
    const option = options.json<{ Assignees: { Value: string; Assignable: boolean }[] }>().Assignees.find((entry) => entry.Value === user.id);
    expect(option).toMatchObject({ Value: user.id, Assignable: false });
    const granted = await adminStaff('assignable@demo.test', true);
    const grantedOption = (await get('/api/account/assignees', adminToken)).json<{ Assignees: { Value: string; Assignable: boolean }[] }>().Assignees.find((entry) => entry.Value === granted.user.id);
    expect(grantedOption).toMatchObject({ Value: granted.user.id, Assignable: true });
  });
});

describe('seeded accounts match the README', () => {
  it('admin@demo.test, readonly@demo.test and admin@acme.test have application access and list All Apps', async () => {
    for (const email of ['admin@demo.test', 'readonly@demo.test']) {
      const [row] = await server.db.select().from(users).where(eq(users.email, email));
      expect({ email, access: row!.hasApplicationAccess }).toEqual({ email, access: true });
      expect((await get('/api/application/list/all?q=', await accessTokenFor(server, email))).statusCode).toBe(200);
    }
    const acme = await signIn(server, 'admin@acme.test', undefined, hosts.acme);
    expect((await api(server, 'GET', '/api/application/list/all?q=', { token: acme.tokens!.access_token, host: hosts.acme })).statusCode).toBe(200);
  });

  it('a seeded admin staff user shown "No access" lists and opens nothing', async () => {
    const [seeded] = await server.db
      .select()
      .from(users)
      .where(and(eq(users.roleName, 'Admin Staff (Read Only)'), eq(users.hasApplicationAccess, false), eq(users.status, 'Active'), like(users.email, `%@${seededStaffDomain('demo')}`)))
      .limit(1);
    const token = await accessTokenFor(server, seeded!.email);
    expect((await get('/api/application/list/all?q=', token)).statusCode).toBe(403);
    expect((await get(`/api/application/get/${applicationId}`, token)).statusCode).toBe(403);
  });
});

describe('migration 0028 (a data directory seeded before)', () => {
  it('gives the README admin and read-only accounts their access and the manager the tenant role, and nobody else anything', async () => {
    const demoAdmins = ['admin@demo.test', 'readonly@demo.test', 'admin@acme.test'];
    await server.db.update(users).set({ hasApplicationAccess: false }).where(sql`${users.email} in ('admin@demo.test', 'readonly@demo.test', 'admin@acme.test')`);
    await server.db.update(users).set({ roleName: 'Application Manager (no admin, no user management)' }).where(eq(users.email, 'manager@demo.test'));
    const seededWithout = async () => (await server.db.select().from(users).where(and(eq(users.hasApplicationAccess, false), like(users.email, `%@${seededStaffDomain('demo')}`)))).length;
    const before = await seededWithout();
    const migration = readFileSync(new URL('../../server/db/migrations/0028_demo_account_access.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await server.db.execute(sql.raw(statement));
    for (const email of demoAdmins) {
      const [row] = await server.db.select().from(users).where(eq(users.email, email));
      expect({ email, access: row!.hasApplicationAccess }).toEqual({ email, access: true });
    }
    const [manager] = await server.db.select().from(users).where(eq(users.email, 'manager@demo.test'));
    expect(manager!.roleName).toBe('Application Manager');
    expect(await seededWithout()).toBe(before);
    expect(before).toBeGreaterThan(0);
  });
});
