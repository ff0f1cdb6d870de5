import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import { listAll, listPage, tenantApplications } from './applications-fixtures.ts';
import { applicationActivity, applicationOwners, applications } from '../../server/db/schema.ts';
import type { ApplicationListResponse } from '../../src/schemas/applications.schema.ts';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

const all = '/api/application/list/all';
const cancel = (token: string, guids: string[]) =>
  api(server, 'POST', '/api/application/cancel', { token, body: { ApplicationCancellations: guids.map((ApplicationGuid) => ({ ApplicationGuid })) } });

async function activityOf(applicationId: number) {
  return server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, applicationId));
}

describe('POST /api/application/cancel', () => {
  it('cancels each application on its own: the valid ones succeed, the others fail, nothing is undone', async () => {
    const demo = (await tenantApplications(server)).filter((row) => row.status !== 'Cancelled');
    const [first, second] = demo;
    const alreadyCancelled = (await tenantApplications(server)).find((row) => row.status === 'Cancelled')!;
    const [acmeApp] = await tenantApplications(server, 'acme');
    const before = await listPage(server, admin, all, {});

    const response = await cancel(admin, [
      first!.guid,
      '00000000-0000-4000-8000-000000000000',
      'not-a-guid',
      acmeApp!.guid,
      alreadyCancelled.guid,
      second!.guid.toUpperCase(),
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      Results: [
        { ApplicationGuid: first!.guid, Success: true },
        { ApplicationGuid: '00000000-0000-4000-8000-000000000000', Success: false },
        { ApplicationGuid: 'not-a-guid', Success: false },
        { ApplicationGuid: acmeApp!.guid, Success: false },
        { ApplicationGuid: alreadyCancelled.guid, Success: false },
        { ApplicationGuid: second!.guid.toUpperCase(), Success: true },
      ],
    });

    const [cancelled] = await server.db.select().from(applications).where(eq(applications.id, first!.id));
    expect(cancelled).toMatchObject({ status: 'Cancelled', previousStatus: first!.status });
    expect((await activityOf(first!.id)).map((entry) => entry.activity)).toContain('Application cancelled by Avery Admin');
    const [untouched] = await server.db.select().from(applications).where(eq(applications.id, acmeApp!.id));
    expect(untouched!.status).toBe(acmeApp!.status);

    // Cancelled applications leave every listing at once (the list caches see the new data version).
    const after = await listPage(server, admin, all, {});
    expect(after.TotalRows).toBe(before.TotalRows - 2);
    const { rows } = await listAll(server, admin, all, { q: String(first!.id) });
    expect(rows.map((row) => row.ApplicationID)).not.toContain(first!.id);
  });

  it('rolls back an application whose feed entry cannot be written, and still cancels the others', async () => {
    const [ok, failing] = (await tenantApplications(server)).filter((row) => row.status !== 'Cancelled');
    // Make the activity insert fail for one application only.
    const activityBefore = await activityOf(failing!.id);
    // NOT VALID: the seeded feed entries stay; only new ones for this application are refused.
    await server.db.execute(sql.raw(`alter table application_activity add constraint test_refuse check (application_id <> ${failing!.id}) not valid`));
    try {
      const response = await cancel(admin, [failing!.guid, ok!.guid]);
      expect(response.json()).toEqual({
        Results: [
          { ApplicationGuid: failing!.guid, Success: false },
          { ApplicationGuid: ok!.guid, Success: true },
        ],
      });
    } finally {
      await server.db.execute(sql.raw('alter table application_activity drop constraint test_refuse'));
    }
    const [stillListed] = await server.db.select().from(applications).where(eq(applications.id, failing!.id));
    expect(stillListed!.status).toBe(failing!.status);
    expect(await activityOf(failing!.id)).toEqual(activityBefore);
    const [done] = await server.db.select().from(applications).where(eq(applications.id, ok!.id));
    expect(done!.status).toBe('Cancelled');
  });

  it('cancels only what the caller can see', async () => {
    const { user, token } = await userWith(server, 'canceller@demo.test', ['view.myapps', 'app.cancel']);
    const others = (await tenantApplications(server)).filter((row) => row.status !== 'Cancelled');
    const mine = others[10]!;
    await server.db.update(applications).set({ assigneeUserId: user.id, assigneeDisplayName: 'Test canceller' }).where(eq(applications.id, mine.id));
    const notMine = others.find((row) => row.id !== mine.id && row.assigneeUserId === null && row.ownerId !== null)!;
    const response = await cancel(token, [notMine.guid, mine.guid]);
    expect(response.json()).toEqual({
      Results: [
        { ApplicationGuid: notMine.guid, Success: false },
        { ApplicationGuid: mine.guid, Success: true },
      ],
    });
  });

  it('needs app.cancel and a body with at least one application', async () => {
    const staff = await accessTokenFor(server, 'staff@demo.test');
    expect((await cancel(staff, ['00000000-0000-4000-8000-000000000000'])).statusCode).toBe(403);
    expect((await api(server, 'POST', '/api/application/cancel', { body: { ApplicationCancellations: [] } })).statusCode).toBe(401);
    const empty = await api(server, 'POST', '/api/application/cancel', { token: admin, body: { ApplicationCancellations: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('ApplicationCancellations');
  });
});

describe('POST /api/application/new and the application form', () => {
  it('creates an application owned by the caller, in My Apps and All Apps at once, with a feed entry and a form page', async () => {
    const staff = await accessTokenFor(server, 'staff@demo.test');
    const mineBefore = await listPage(server, staff, '/api/application/list', {});
    const response = await api(server, 'POST', '/api/application/new', { token: staff });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ Result: string; Message: string; Url: string }>();
    expect(body.Result).toBe('Success');
    const url = new URL(body.Url);
    expect(url.origin).toBe('http://localhost');
    const guid = url.pathname.split('/').pop()!;

    const [created] = await server.db.select().from(applications).where(eq(applications.guid, guid));
    expect(created).toMatchObject({ tenantId: 'demo', status: 'Adviser edit', adviserName: 'Sam Staff' });
    expect((await activityOf(created!.id)).map((entry) => entry.activity)).toEqual(['Application created by Sam Staff']);

    const mineAfter = await listPage(server, staff, '/api/application/list', {});
    expect(mineAfter.TotalRows).toBe(mineBefore.TotalRows + 1);
    expect(mineAfter.Applications[0]!.ApplicationID).toBe(created!.id);
    const allNow = await listPage(server, admin, all, { rowsPerPage: '1' });
    expect(allNow.Applications[0]!.ApplicationGuid).toBe(guid);

    // The provider's form: a real page for that application, which saves what is typed in it.
    const page = await server.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { host: hosts.demo } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`Application ${created!.id}`);
    const token = url.searchParams.get('token')!;
    const saved = await server.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, AccountName: 'Nguyen Family Trust', ClientName: 'Lan Nguyen', PrimaryEmail: 'lan@example.com' }).toString(),
    });
    expect(saved.statusCode).toBe(303);
    const listed = await listPage(server, admin, all, { q: 'Nguyen Family Trust lan' });
    expect(listed.Applications.map((row) => [row.ApplicationID, row.AccountName, row.PrimaryEmail])).toContainEqual([
      created!.id,
      'Nguyen Family Trust',
      'lan@example.com',
    ]);
    expect((await activityOf(created!.id)).map((entry) => entry.activity)).toContain('Application details saved in the application form');

    // Without a valid link token: 403; from another tenant's host: 404.
    const tampered = await server.app.inject({ method: 'GET', url: `${url.pathname}?token=${token.replace(/.$/, token.endsWith('A') ? 'B' : 'A')}`, headers: { host: hosts.demo } });
    expect(tampered.statusCode).toBe(403);
    const elsewhere = await server.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { host: hosts.acme } });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('needs app.create', async () => {
    const readonly = await accessTokenFor(server, 'readonly@demo.test');
    expect((await api(server, 'POST', '/api/application/new', { token: readonly })).statusCode).toBe(403);
    expect((await api(server, 'POST', '/api/application/new')).statusCode).toBe(401);
  });
});

describe('POST /api/application/newonbehalf', () => {
  it('creates the application for the chosen owner', async () => {
    const { ApplicationOwners } = (await api(server, 'GET', '/api/owner/list', { token: admin })).json<{
      ApplicationOwners: { PublicId: string; DisplayName: string; GlobalUserId: string }[];
    }>();
    const owner = ApplicationOwners.find((candidate) => candidate.DisplayName !== 'Avery Admin')!;
    const response = await api(server, 'POST', '/api/application/newonbehalf', {
      token: admin,
      body: { GlobalUserId: owner.GlobalUserId, OwnerId: owner.PublicId },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ Result: string; Url: string }>();
    expect(body.Result).toBe('Success');
    const guid = new URL(body.Url).pathname.split('/').pop()!;
    const [created] = await server.db.select().from(applications).where(eq(applications.guid, guid));
    expect(created).toMatchObject({ ownerId: owner.PublicId, adviserName: owner.DisplayName });
    expect((await activityOf(created!.id)).map((entry) => entry.activity)).toEqual([`Application created by Avery Admin on behalf of ${owner.DisplayName}`]);
    const page = (await listPage(server, admin, all, { rowsPerPage: '1' })) satisfies ApplicationListResponse;
    expect(page.Applications[0]).toMatchObject({ ApplicationGuid: guid, AdviserName: owner.DisplayName });
  });

  it('answers 404 for an owner of no or another tenant, 400 for malformed ids, 403 without the claim', async () => {
    const [acmeOwner] = await server.db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, 'acme'));
    const other = await api(server, 'POST', '/api/application/newonbehalf', {
      token: admin,
      body: { GlobalUserId: acmeOwner!.globalUserId, OwnerId: acmeOwner!.id },
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('OwnerId: no such owner in this tenant.');
    const [demoOwner] = await server.db
      .select()
      .from(applicationOwners)
      .where(and(eq(applicationOwners.tenantId, 'demo')));
    const mismatched = await api(server, 'POST', '/api/application/newonbehalf', {
      token: admin,
      body: { GlobalUserId: '00000000-0000-4000-8000-000000000000', OwnerId: demoOwner!.id },
    });
    expect(mismatched.statusCode).toBe(404);
    const malformed = await api(server, 'POST', '/api/application/newonbehalf', { token: admin, body: { GlobalUserId: 'x', OwnerId: 'y' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/GlobalUserId|OwnerId/);
    const staff = await accessTokenFor(server, 'staff@demo.test');
    const refused = await api(server, 'POST', '/api/application/newonbehalf', { token: staff, body: { GlobalUserId: demoOwner!.globalUserId, OwnerId: demoOwner!.id } });
    expect(refused.statusCode).toBe(403);
  });
});

describe('visibility of All Apps by location and restriction group', () => {
  it('shows the applications of the user locations, or restriction groups, or both; and follows changes at once', async () => {
    const apps = (await tenantApplications(server)).filter((row) => row.status !== 'Cancelled');
    const { user, token } = await userWith(server, 'branch@demo.test', ['view.allapps.location']);
    const { userVisibility } = await import('../../server/db/schema.ts');
    await server.db.insert(userVisibility).values({ userId: user.id, tenantId: 'demo', locations: ['Perth', 'Hobart'], restrictionGroups: ['Retail'] });

    const byLocation = await listAll(server, token, all, {});
    const expectedLocation = apps.filter((row) => ['Perth', 'Hobart'].includes(row.location)).map((row) => row.id).sort((a, b) => b - a);
    expect(byLocation.rows.map((row) => row.ApplicationID)).toEqual(expectedLocation);

    const group = await userWith(server, 'group@demo.test', ['view.allapps.restrictiongroup']);
    await server.db.insert(userVisibility).values({ userId: group.user.id, tenantId: 'demo', locations: ['Perth'], restrictionGroups: ['Retail'] });
    const byGroup = await listAll(server, group.token, all, {});
    expect(byGroup.rows.map((row) => row.ApplicationID)).toEqual(apps.filter((row) => row.restrictionGroup === 'Retail').map((row) => row.id).sort((a, b) => b - a));

    const both = await userWith(server, 'both@demo.test', ['view.allapps.location', 'view.allapps.restrictiongroup']);
    await server.db.insert(userVisibility).values({ userId: both.user.id, tenantId: 'demo', locations: ['Perth'], restrictionGroups: ['Retail'] });
    const union = await listAll(server, both.token, all, {});
    expect(union.totalRows).toBe(apps.filter((row) => row.location === 'Perth' || row.restrictionGroup === 'Retail').length);

    // A change of the user's locations shows on the next request (it bumps the data version).
    await server.db.update(userVisibility).set({ locations: ['Perth'] }).where(eq(userVisibility.userId, user.id));
    const narrowed = await listPage(server, token, all, {});
    expect(narrowed.TotalRows).toBe(apps.filter((row) => row.location === 'Perth').length);

    // Without any visibility row: nothing.
    const nobody = await userWith(server, 'nowhere@demo.test', ['view.allapps.location']);
    expect((await listPage(server, nobody.token, all, {})).TotalRows).toBe(0);
  });

  it('refuses All Apps without an all-apps claim and My Apps without view.myapps', async () => {
    const staff = await accessTokenFor(server, 'staff@demo.test');
    expect((await api(server, 'GET', all, { token: staff })).statusCode).toBe(403);
    const readonly = await accessTokenFor(server, 'readonly@demo.test');
    expect((await api(server, 'GET', '/api/application/list', { token: readonly })).statusCode).toBe(403);
    expect((await api(server, 'GET', all)).statusCode).toBe(401);
    expect((await api(server, 'GET', all, { token: 'not.a.token' })).statusCode).toBe(401);
  });

  it('keeps tenants apart: another tenant token is refused, and each host lists its own applications', async () => {
    const acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    expect((await api(server, 'GET', all, { token: acme, host: hosts.demo })).statusCode).toBe(401);
    const acmeIds = new Set((await tenantApplications(server, 'acme')).filter((row) => row.status !== 'Cancelled').map((row) => row.id));
    const acmeList = await listAll(server, acme, all, {}, hosts.acme);
    expect(new Set(acmeList.rows.map((row) => row.ApplicationID))).toEqual(acmeIds);
  });
});
