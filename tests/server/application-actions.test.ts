import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import { tenantApplications, type AppRow } from './applications-fixtures.ts';
import { applicationActivity, applicationApplicants, applicationLabels, applicationOwners, applications, users } from '../../server/db/schema.ts';
import { applicationNotFoundMessage } from '../../server/api/application-detail.routes.ts';
import { ActionResultSchema, RequestEditResponseSchema, RequestViewResponseSchema } from '../../src/schemas/application-actions.schema.ts';
import { ApplicationDetailSchema } from '../../src/schemas/application-detail.schema.ts';
import { SystemInformationSchema } from '../../src/schemas/configuration.schema.ts';
import { ApplicationListResponseSchema } from '../../src/schemas/applications.schema.ts';
import { actionRules } from '../../src/domain/application-actions.ts';
import { cancelledWriteMessage } from '../../src/domain/application-write-rule.ts';
import { allClaims } from '../../src/domain/claims.ts';

/**
 * Issue 13, server part: the detail screen's actions. Every route: 401 without a token, 403 per
 * claim, 409 per state rule with the rule's message, 404 for another tenant's, an invisible and a
 * cancelled application (the detail's message), 400 naming the field; and what each action changes,
 * with its activity entry, in one transaction.
 */

let server: TestServer;
let admin: string;
let apps: AppRow[];
const used = new Set<number>();
let acmeApp: AppRow;
let cancelled: AppRow;
let demoOwnerId: string;
const listClaim = 'view.allapps.instance';

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  apps = (await tenantApplications(server)).sort((a, b) => a.id - b.id);
  acmeApp = (await tenantApplications(server, 'acme')).find((row) => row.status !== 'Cancelled')!;
  cancelled = apps.find((row) => row.status === 'Cancelled')!;
  const [owner] = await server.db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, 'demo')).limit(1);
  demoOwnerId = owner!.id;
});
afterAll(() => server.close());

/** A demo application no other test has taken, matching `where`. */
function take(where: (row: AppRow) => boolean): AppRow {
  const row = apps.find((candidate) => !used.has(candidate.id) && candidate.status !== 'Cancelled' && where(candidate));
  if (!row) throw new Error('No such application left');
  used.add(row.id);
  return row;
}
const live = (row: AppRow) => row.status !== 'Depersonalised';
const incomplete = (row: AppRow) => live(row) && row.dateCompleted === null;

async function current(id: number) {
  const [row] = await server.db.select().from(applications).where(eq(applications.id, id));
  return row!;
}
async function feed(id: number) {
  const rows = await server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, id)).orderBy(asc(applicationActivity.id));
  return rows.map((row) => row.activity);
}
const detail = async (token: string, id: number) => ApplicationDetailSchema.parse((await api(server, 'GET', `/api/application/get/${id}`, { token })).json());

interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  claim: string;
  url: (app: AppRow) => string;
  body?: (app: AppRow) => unknown;
  /** A request whose body or parameters are wrong, and the field the 400 must name. */
  bad: { url: (app: AppRow) => string; body?: (app: AppRow) => unknown; field: string };
  /** Applications in a state the route acts on (so a refusal can only be the claim or the visibility). */
  fits: (row: AppRow) => boolean;
}

const routes: RouteCase[] = [
  {
    name: 'assign',
    method: 'POST',
    claim: actionRules.assign.claim,
    url: (app) => `/api/application/assign/${app.id}`,
    body: () => ({ GlobalUserId: null }),
    bad: { url: (app) => `/api/application/assign/${app.id}`, body: () => ({ GlobalUserId: 'someone' }), field: 'GlobalUserId' },
    fits: live,
  },
  {
    name: 'label save',
    method: 'POST',
    claim: actionRules.setLabel.claim,
    url: () => '/api/label/save',
    body: (app) => ({ ApplicationId: app.guid, Label: '' }),
    bad: { url: () => '/api/label/save', body: () => ({ ApplicationId: 'not-a-guid', Label: '' }), field: 'ApplicationId' },
    fits: live,
  },
  {
    name: 'update owner',
    method: 'POST',
    claim: actionRules.changeOwner.claim,
    url: (app) => `/api/application/updateowner/${app.id}`,
    body: () => ({ NewOwnerId: demoOwnerId }),
    bad: { url: (app) => `/api/application/updateowner/${app.id}`, body: () => ({ NewOwnerId: 42 }), field: 'NewOwnerId' },
    fits: live,
  },
  {
    name: 'change primary e-mail',
    method: 'POST',
    claim: actionRules.changePrimaryEmail.claim,
    url: (app) => `/api/application/changeprimaryemail/${app.id}`,
    body: () => ({ PrimaryEmail: 'changed@example.com' }),
    bad: { url: (app) => `/api/application/changeprimaryemail/${app.id}`, body: () => ({ PrimaryEmail: 'not an e-mail' }), field: 'PrimaryEmail' },
    fits: incomplete,
  },
  {
    name: 'change signing mode',
    method: 'POST',
    claim: actionRules.changeSigningMode.claim,
    url: (app) => `/api/application/changesigningmode/${app.id}/PrintandSign`,
    bad: { url: (app) => `/api/application/changesigningmode/${app.id}/Online`, field: 'mode' },
    fits: (row) => row.status === 'Adviser edit',
  },
  {
    name: 'unlock application',
    method: 'POST',
    claim: actionRules.unlockApplication.claim,
    url: (app) => `/api/application/unlockapplication/${app.id}`,
    bad: { url: () => '/api/application/unlockapplication/abc', field: 'id' },
    fits: (row) => row.status === 'Locked',
  },
  {
    name: 'unlock applicant',
    method: 'POST',
    claim: actionRules.unlockApplicant.claim,
    url: () => '/api/applicant/labformmfaunlock',
    body: (app) => ({ ApplicationId: app.guid, IndividualId: '00000000-0000-4000-8000-000000000000', InstanceName: app.tenantId }),
    bad: { url: () => '/api/applicant/labformmfaunlock', body: (app) => ({ ApplicationId: app.guid, IndividualId: '', InstanceName: 'demo' }), field: 'IndividualId' },
    fits: live,
  },
  {
    name: 'request edit',
    method: 'POST',
    claim: actionRules.edit.claim,
    url: (app) => `/api/application/requestedit/${app.guid}`,
    body: () => ({ ConfirmationAccepted: false }),
    bad: { url: (app) => `/api/application/requestedit/${app.guid}`, body: () => ({ ConfirmationAccepted: 'yes' }), field: 'ConfirmationAccepted' },
    fits: incomplete,
  },
  {
    name: 'request view',
    method: 'GET',
    claim: actionRules.view.claim,
    url: (app) => `/api/application/requestview/${app.guid}`,
    bad: { url: () => '/api/application/requestview/not-a-guid', field: 'guid: must be an ApplicationGuid' },
    fits: live,
  },
  {
    name: 'depersonalise',
    method: 'PUT',
    claim: actionRules.depersonalise.claim,
    url: (app) => `/api/application/depersonalise/${app.guid}`,
    bad: { url: () => '/api/application/depersonalise/12345', field: 'guid: must be an ApplicationGuid' },
    fits: live,
  },
];

const call = (route: RouteCase, app: AppRow, token?: string, host?: string) =>
  api(server, route.method, route.url(app), { token, host, body: route.body?.(app) });

describe.each(routes)('$method $name: the refusals', (route) => {
  it('is 401 without a bearer token', async () => {
    const response = await call(route, take(route.fits));
    expect(response.statusCode).toBe(401);
  });

  it(`is 403 without ${route.claim}, with every other claim, and changes nothing`, async () => {
    const app = take(route.fits);
    const before = await feed(app.id);
    const { token } = await userWith(server, `no-${route.name.replaceAll(' ', '-')}@demo.test`, allClaims.filter((claim) => claim !== route.claim));
    const response = await call(route, app, token);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain(route.claim);
    // The claim is checked before the body and parameters are read: a bad request is refused for it too.
    const bad = await api(server, route.method, route.bad.url(app), { token, body: route.bad.body?.(app) });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().message).toContain(route.claim);
    expect(await feed(app.id)).toEqual(before);
  });

  it('is 403 with the claim but no list claim (it could open no application)', async () => {
    const { token } = await userWith(server, `nolist-${route.name.replaceAll(' ', '-')}@demo.test`, [route.claim]);
    expect((await call(route, take(route.fits), token)).statusCode).toBe(403);
  });

  it('is 404 with the detail\'s message for another tenant\'s, an unknown and an invisible application, 409 for a cancelled one (depersonalise: 200)', async () => {
    for (const app of [acmeApp, { ...cancelled, id: 999_999_999, guid: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f' }]) {
      const response = await call(route, app, admin);
      expect(response.statusCode, `${app.tenantId} ${app.id}`).toBe(404);
      expect(response.json().message).toBe(applicationNotFoundMessage);
    }
    if (route.name === 'depersonalise') {
      // Issue 38 point 6: cancelled is closed for work, not for erasure (one cancelled here, so the shared one stays cancelled).
      const own = take(route.fits);
      const cancelling = await api(server, 'POST', '/api/application/cancel', { token: admin, body: { ApplicationCancellations: [{ ApplicationGuid: own.guid }] } });
      expect(cancelling.json()).toEqual({ Results: [{ ApplicationGuid: own.guid, Success: true }] });
      const erased = await call(route, own, admin);
      expect(erased.statusCode, erased.body).toBe(200);
    } else {
      // Issue 32: a cancelled application still opens at its address, so the write rule refuses it by name.
      const closed = await call(route, cancelled, admin);
      expect(closed.statusCode).toBe(409);
      expect(closed.json().message).toBe(cancelledWriteMessage);
    }
    // view.myapps only: an application the user neither owns nor is assigned is not theirs to act on.
    const { token } = await userWith(server, `mine-${route.name.replaceAll(' ', '-')}@demo.test`, ['view.myapps', route.claim]);
    const response = await call(route, take(route.fits), token);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(applicationNotFoundMessage);
    // The acme application is there for acme's own admin (the 404 was the tenant, not the request).
    const acmeAdmin = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    const own = await call(route, acmeApp, acmeAdmin, hosts.acme);
    expect(own.statusCode).toBeLessThan(500);
    expect(own.json().message).not.toBe(applicationNotFoundMessage);
  });

  it('is 400 naming the field for a bad body or parameter', async () => {
    const app = take(route.fits);
    const response = await api(server, route.method, route.bad.url(app), { token: admin, body: route.bad.body?.(app) });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(route.bad.field);
  });
});

const post = (url: string, body: unknown, token = admin) => api(server, 'POST', url, { token, body });
const expectConflict = async (response: Awaited<ReturnType<typeof post>>, message: string) => {
  expect(response.statusCode).toBe(409);
  expect(response.json().message).toBe(message);
};

describe('409: the state rules of AM §6, with their messages, change nothing', () => {
  it('no action but depersonalise itself on a depersonalised application', async () => {
    const gone = take((row) => row.status === 'Depersonalised');
    const before = await feed(gone.id);
    const message = 'This application has been depersonalised.';
    await expectConflict(await post(`/api/application/assign/${gone.id}`, { GlobalUserId: null }), message);
    await expectConflict(await post('/api/label/save', { ApplicationId: gone.guid, Label: '' }), message);
    await expectConflict(await post(`/api/application/updateowner/${gone.id}`, { NewOwnerId: demoOwnerId }), message);
    await expectConflict(await post(`/api/application/changeprimaryemail/${gone.id}`, { PrimaryEmail: 'a@example.com' }), message);
    await expectConflict(
      await post('/api/applicant/labformmfaunlock', { ApplicationId: gone.guid, IndividualId: '00000000-0000-4000-8000-000000000000', InstanceName: 'demo' }),
      message,
    );
    await expectConflict(await post(`/api/application/requestedit/${gone.guid}`, { ConfirmationAccepted: true }), message);
    await expectConflict(await api(server, 'GET', `/api/application/requestview/${gone.guid}`, { token: admin }), message);
    await expectConflict(
      await api(server, 'PUT', `/api/application/depersonalise/${gone.guid}`, { token: admin }),
      // The one write rule answers before the action's own (issue 27).
      message,
    );
    expect(await feed(gone.id)).toEqual(before);
  });

  it('the e-mail address only while incomplete', async () => {
    const complete = take((row) => live(row) && row.dateCompleted !== null);
    await expectConflict(
      await post(`/api/application/changeprimaryemail/${complete.id}`, { PrimaryEmail: 'a@example.com' }),
      'The e-mail address can only be changed while the application is incomplete.',
    );
    expect((await current(complete.id)).primaryEmail).toBe(complete.primaryEmail);
  });

  it('the signing mode only in status Adviser edit', async () => {
    const other = take((row) => live(row) && row.status !== 'Adviser edit');
    await expectConflict(await post(`/api/application/changesigningmode/${other.id}/PrintandSign`, undefined), 'The signing mode can only be changed in status Adviser edit.');
    expect((await current(other.id)).applicationModeCode).toBe(other.applicationModeCode);
  });

  it('unlock only a Locked application', async () => {
    const other = take((row) => live(row) && row.status !== 'Locked');
    await expectConflict(await post(`/api/application/unlockapplication/${other.id}`, undefined), 'Only a locked application can be unlocked.');
    expect((await current(other.id)).status).toBe(other.status);
  });

  it('editing a completed application needs app.editcompleted', async () => {
    const complete = take((row) => live(row) && row.dateCompleted !== null);
    const { token } = await userWith(server, 'editor@demo.test', [listClaim, 'app.edit']);
    await expectConflict(
      await post(`/api/application/requestedit/${complete.guid}`, { ConfirmationAccepted: true }, token),
      'Editing a completed application needs the app.editcompleted permission.',
    );
    expect((await current(complete.id)).status).toBe(complete.status);
  });
});

describe('POST /api/application/assign/{id}', () => {
  it('assigns a user of the tenant, shows them on the detail and in the feed, and clears with null', async () => {
    const app = take(live);
    const [manager] = await server.db.select().from(users).where(eq(users.email, 'manager@demo.test'));
    const response = await post(`/api/application/assign/${app.id}`, { GlobalUserId: manager!.id.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(ActionResultSchema.parse(response.json())).toEqual({ Success: true, Message: 'Assigned to Morgan Manager by Avery Admin.' });
    const body = await detail(admin, app.id);
    expect(body).toMatchObject({ AssigneeUserId: manager!.id, AssigneeDisplayName: 'Morgan Manager' });
    expect((await feed(app.id)).at(-1)).toBe('Assigned to Morgan Manager by Avery Admin');
    // The list (its caches keyed by the data version) shows the new assignee at once.
    const list = ApplicationListResponseSchema.parse(
      (await api(server, 'GET', `/api/application/list/all?q=${app.id}&assignee=${encodeURIComponent(JSON.stringify([manager!.id]))}`, { token: admin })).json(),
    );
    expect(list.Applications.map((row) => row.ApplicationID)).toContain(app.id);

    expect((await post(`/api/application/assign/${app.id}`, { GlobalUserId: null })).statusCode).toBe(200);
    expect(await current(app.id)).toMatchObject({ assigneeUserId: null, assigneeDisplayName: '' });
    expect((await feed(app.id)).at(-1)).toBe('Assignee cleared by Avery Admin');
  });

  it('refuses a user who is not assignable or not of this tenant (400), and changes nothing', async () => {
    const app = take(live);
    const { user } = await userWith(server, 'not-assignable@demo.test', ['comments.view']);
    const [acmeAdmin] = await server.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    for (const id of [user.id, acmeAdmin!.id, '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f']) {
      const response = await post(`/api/application/assign/${app.id}`, { GlobalUserId: id });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('GlobalUserId');
    }
    expect((await current(app.id)).assigneeUserId).toBe(app.assigneeUserId);
  });

  it('two users assigning one application at once: one consistent result and two activity entries', async () => {
    const app = take(live);
    const manager = await accessTokenFor(server, 'manager@demo.test');
    const assignees = await server.db.select().from(users).where(sql`${users.email} in ('staff@demo.test', 'readonly@demo.test')`);
    const before = (await feed(app.id)).length;
    const [first, second] = await Promise.all([
      post(`/api/application/assign/${app.id}`, { GlobalUserId: assignees[0]!.id }, admin),
      post(`/api/application/assign/${app.id}`, { GlobalUserId: assignees[1]!.id }, manager),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const after = await current(app.id);
    const winner = assignees.find((user) => user.id === after.assigneeUserId)!;
    expect(winner).toBeDefined();
    expect(after.assigneeDisplayName).toBe(`${winner.firstName} ${winner.lastName}`);
    const entries = (await feed(app.id)).slice(before);
    expect(entries).toHaveLength(2);
    expect(entries.every((entry) => entry.startsWith('Assigned to '))).toBe(true);
    // The last entry is the assignment that stands.
    expect(entries.at(-1)).toContain(`Assigned to ${after.assigneeDisplayName} by `);
  });

  it('assigns made at once on several applications (their reads batched) each change their own application', async () => {
    const apps = [take(live), take(live), take(live), take(live)];
    const assignees = await server.db.select().from(users).where(sql`${users.email} in ('staff@demo.test', 'manager@demo.test')`);
    const chosen = apps.map((_, n) => assignees[n % assignees.length]!);
    const answers = await Promise.all(apps.map((app, n) => post(`/api/application/assign/${app.id}`, { GlobalUserId: chosen[n]!.id })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    for (const [n, app] of apps.entries()) {
      expect((await current(app.id)).assigneeUserId).toBe(chosen[n]!.id);
      expect((await feed(app.id)).at(-1)).toBe(`Assigned to ${chosen[n]!.firstName} ${chosen[n]!.lastName} by Avery Admin`);
    }
  });

  it('a failure writing the activity entry leaves the assignment as it was', async () => {
    const app = take(live);
    const [manager] = await server.db.select().from(users).where(eq(users.email, 'manager@demo.test'));
    const before = await feed(app.id);
    await server.db.execute(sql.raw(`alter table application_activity add constraint test_refuse_assign check (application_id <> ${app.id}) not valid`));
    try {
      const response = await post(`/api/application/assign/${app.id}`, { GlobalUserId: manager!.id });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('test_refuse_assign');
    } finally {
      await server.db.execute(sql.raw('alter table application_activity drop constraint test_refuse_assign'));
    }
    expect(await current(app.id)).toMatchObject({ assigneeUserId: app.assigneeUserId, assigneeDisplayName: app.assigneeDisplayName });
    expect(await feed(app.id)).toEqual(before);
  });
});

describe('labels', () => {
  it('POST /api/label/add creates labels up to MaximumLabelLimit, then answers Success false with a Message', async () => {
    const information = SystemInformationSchema.parse((await api(server, 'GET', '/api/configuration/information', { token: admin })).json());
    const limit = information.MaximumLabelLimit;
    const count = async () =>
      (await server.db.select().from(applicationLabels).where(and(eq(applicationLabels.tenantId, 'demo'), eq(applicationLabels.kind, 'label')))).length;
    const existing = await count();
    expect(existing).toBeLessThan(limit - 1);

    const added = await post('/api/label/add', { LabelText: '  Fifteen chars  '.replace('chars', 'chars!!') });
    expect(added.json()).toEqual({ Success: true, Message: 'Label Fifteen chars!! created.' });
    expect((await api(server, 'GET', '/api/label/list', { token: admin })).json()).toContainEqual({ Name: 'Fifteen chars!!', Value: 'Fifteen chars!!' });
    expect((await post('/api/label/add', { LabelText: 'Fifteen chars!!' })).json()).toEqual({ Success: false, Message: 'A label named Fifteen chars!! already exists.' });

    for (let n = existing + 1; n < limit - 1; n++) expect((await post('/api/label/add', { LabelText: `Label ${n}` })).json().Success).toBe(true);
    // Five people add the last free label at once: exactly one gets it.
    const racing = await Promise.all(Array.from({ length: 5 }, (_, n) => post('/api/label/add', { LabelText: `Last ${n}` })));
    expect(racing.filter((response) => response.json().Success === true)).toHaveLength(1);
    expect(await count()).toBe(limit);
    expect((await post('/api/label/add', { LabelText: 'One too many' })).json()).toEqual({ Success: false, Message: `The maximum of ${limit} labels has been reached.` });
    expect(await count()).toBe(limit);
  });

  it('POST /api/label/add needs label.add (403), a token (401) and a label of 1 to 15 characters (400)', async () => {
    const { token } = await userWith(server, 'no-label-add@demo.test', allClaims.filter((claim) => claim !== 'label.add'));
    expect((await post('/api/label/add', { LabelText: 'x' }, token)).statusCode).toBe(403);
    expect((await api(server, 'POST', '/api/label/add', { body: { LabelText: 'x' } })).statusCode).toBe(401);
    for (const LabelText of ['', '   ', 'x'.repeat(16)]) {
      const response = await post('/api/label/add', { LabelText });
      expect(response.statusCode, LabelText).toBe(400);
      expect(response.json().message).toContain('LabelText');
    }
  });

  it('POST /api/label/save sets a label of the tenant, clears it with an empty one, and refuses an unknown one', async () => {
    const app = take(live);
    const [label] = await server.db.select().from(applicationLabels).where(and(eq(applicationLabels.tenantId, 'demo'), eq(applicationLabels.kind, 'label'))).limit(1);
    const set = await post('/api/label/save', { ApplicationId: app.guid.toUpperCase(), Label: label!.name });
    expect(set.statusCode).toBe(200);
    expect((await detail(admin, app.id)).Label).toBe(label!.name);
    expect((await feed(app.id)).at(-1)).toBe(`Label set to ${label!.name} by Avery Admin`);
    expect((await post('/api/label/save', { ApplicationId: app.guid, Label: '' })).statusCode).toBe(200);
    expect((await current(app.id)).label).toBe('');
    expect((await feed(app.id)).at(-1)).toBe('Label cleared by Avery Admin');
    const unknown = await post('/api/label/save', { ApplicationId: app.guid, Label: 'No such label' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('Label');
  });
});

describe('owner, e-mail, signing mode', () => {
  it('POST /api/application/updateowner/{id} sets an owner of the tenant by PublicId', async () => {
    const app = take((row) => live(row) && row.ownerId !== null);
    const owners = (await api(server, 'GET', '/api/owner/list', { token: admin })).json().ApplicationOwners as { PublicId: string; DisplayName: string }[];
    const other = owners.find((owner) => owner.PublicId !== app.ownerId)!;
    const response = await post(`/api/application/updateowner/${app.id}`, { NewOwnerId: other.PublicId });
    expect(response.statusCode).toBe(200);
    expect(await current(app.id)).toMatchObject({ ownerId: other.PublicId, adviserName: other.DisplayName });
    expect((await detail(admin, app.id)).AdviserName).toBe(other.DisplayName);
    expect((await feed(app.id)).at(-1)).toBe(`Owner changed from ${app.adviserName} to ${other.DisplayName} by Avery Admin`);

    const [acmeOwner] = await server.db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, 'acme')).limit(1);
    const foreign = await post(`/api/application/updateowner/${app.id}`, { NewOwnerId: acmeOwner!.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toContain('NewOwnerId');
    expect((await current(app.id)).ownerId).toBe(other.PublicId);
  });

  it('POST /api/application/changeprimaryemail/{id} changes the e-mail the detail, the primary applicant and the search show; the feed keeps no address', async () => {
    const app = take(incomplete);
    const email = `new.address.${app.id}@example.org`;
    expect((await post(`/api/application/changeprimaryemail/${app.id}`, { PrimaryEmail: email })).statusCode).toBe(200);
    expect((await detail(admin, app.id)).Email).toBe(email);
    const [primary] = await server.db
      .select()
      .from(applicationApplicants)
      .where(eq(applicationApplicants.applicationId, app.id))
      .orderBy(asc(applicationApplicants.position))
      .limit(1);
    expect(primary!.email).toBe(email);
    const found = ApplicationListResponseSchema.parse(
      (await api(server, 'GET', `/api/application/list/all?q=${encodeURIComponent(`address.${app.id}`)}`, { token: admin })).json(),
    );
    expect(found.Applications.map((row) => row.ApplicationID)).toEqual([app.id]);
    expect((await feed(app.id)).at(-1)).toBe('Primary e-mail address changed by Avery Admin');
  });

  it('POST /api/application/changesigningmode/{id}/{mode}: Pin is Online, PrintandSign is Print & Sign', async () => {
    const app = take((row) => row.status === 'Adviser edit');
    expect((await post(`/api/application/changesigningmode/${app.id}/PrintandSign`, undefined)).statusCode).toBe(200);
    expect((await detail(admin, app.id)).ApplicationModeCode).toBe('Print & Sign');
    expect((await feed(app.id)).at(-1)).toBe('Signing mode changed to Print & Sign by Avery Admin');
    expect((await post(`/api/application/changesigningmode/${app.id}/Pin`, undefined)).statusCode).toBe(200);
    expect((await current(app.id)).applicationModeCode).toBe('Pin');
    expect((await feed(app.id)).at(-1)).toBe('Signing mode changed to Online by Avery Admin');
  });
});

describe('unlocks', () => {
  it('POST /api/application/unlockapplication/{id} returns a Locked application to its previous status', async () => {
    const app = take((row) => row.status === 'Locked');
    await server.db.update(applications).set({ previousStatus: 'Secondary review' }).where(eq(applications.id, app.id));
    const response = await post(`/api/application/unlockapplication/${app.id}`, undefined);
    expect(response.statusCode).toBe(200);
    expect(await current(app.id)).toMatchObject({ status: 'Secondary review', previousStatus: 'Locked' });
    expect((await detail(admin, app.id)).LastApplicationStatus).toBe('Locked');
    expect((await feed(app.id)).at(-1)).toBe('Application unlocked (back to Secondary review) by Avery Admin');
    await expectConflict(await post(`/api/application/unlockapplication/${app.id}`, undefined), 'Only a locked application can be unlocked.');
  });

  it('two people unlocking one application at once: one unlocks it, the other is told it is no longer locked', async () => {
    const app = take((row) => row.status === 'Locked');
    const manager = await accessTokenFor(server, 'manager@demo.test');
    const before = (await feed(app.id)).length;
    const answers = await Promise.all([admin, manager].map((token) => post(`/api/application/unlockapplication/${app.id}`, undefined, token)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toBe('Only a locked application can be unlocked.');
    expect((await feed(app.id)).slice(before)).toHaveLength(1);
    expect((await current(app.id)).previousStatus).toBe('Locked');
  });

  it('a Locked application with no previous status recorded goes back to the applicant\'s form', async () => {
    const app = take((row) => row.status === 'Locked' && row.dateCompleted === null && row.previousStatus === '');
    expect((await post(`/api/application/unlockapplication/${app.id}`, undefined)).statusCode).toBe(200);
    expect((await current(app.id)).status).toBe('Primary edit');
  });

  it('POST /api/applicant/labformmfaunlock unlocks an MFA-locked applicant once', async () => {
    const [locked] = await server.db
      .select({ id: applicationApplicants.id, applicationId: applicationApplicants.applicationId, position: applicationApplicants.position })
      .from(applicationApplicants)
      .innerJoin(applications, eq(applications.id, applicationApplicants.applicationId))
      .where(and(eq(applicationApplicants.isMfaLocked, true), eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
      .limit(1);
    const app = (await current(locked!.applicationId)) as AppRow;
    used.add(app.id);
    const body = { ApplicationId: app.guid, IndividualId: locked!.id, InstanceName: 'demo' };
    expect((await detail(admin, app.id)).ApplicantApprovals.find((approval) => approval.IndividualId === locked!.id)?.IsMFALocked).toBe(true);

    const wrongInstance = await post('/api/applicant/labformmfaunlock', { ...body, InstanceName: 'acme' });
    expect(wrongInstance.statusCode).toBe(400);
    expect(wrongInstance.json().message).toContain('InstanceName');
    const notAnId = await post('/api/applicant/labformmfaunlock', { ...body, IndividualId: 'applicant-1' });
    expect(notAnId.statusCode).toBe(400);
    expect(notAnId.json().message).toBe('IndividualId: must be an applicant IndividualId');
    const unknown = await post('/api/applicant/labformmfaunlock', { ...body, IndividualId: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('IndividualId');

    const response = await post('/api/applicant/labformmfaunlock', body);
    expect(response.statusCode).toBe(200);
    expect((await detail(admin, app.id)).ApplicantApprovals.find((approval) => approval.IndividualId === locked!.id)?.IsMFALocked).toBe(false);
    expect((await feed(app.id)).at(-1)).toBe(`Applicant ${locked!.position + 1} unlocked (multi-factor lock) by Avery Admin`);
    await expectConflict(await post('/api/applicant/labformmfaunlock', body), 'This applicant is not locked.');
  });
});

describe('request edit and request view', () => {
  it('an incomplete application: Success and the application form\'s Url, which opens the form', async () => {
    const app = take(incomplete);
    const response = await post(`/api/application/requestedit/${app.guid}`, { ConfirmationAccepted: false });
    const body = RequestEditResponseSchema.parse(response.json());
    expect(body.Result).toBe('Success');
    const url = new URL(body.Url);
    expect(url.pathname).toBe(`/external/application-form/${app.guid}`);
    const page = await api(server, 'GET', url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect((await current(app.id)).status).toBe(app.status);
    expect((await feed(app.id)).at(-1)).toBe('Application opened for editing by Avery Admin');
  });

  it('a completed application: RequireConfirmation until confirmed; confirming resets approvals and reopens it for editing', async () => {
    const app = take((row) => row.status === 'Complete' && row.dateCompleted !== null);
    const before = await feed(app.id);
    const first = RequestEditResponseSchema.parse((await post(`/api/application/requestedit/${app.guid}`, { ConfirmationAccepted: false })).json());
    expect(first).toEqual({ Result: 'RequireConfirmation', Url: '' });
    expect(await current(app.id)).toMatchObject({ status: 'Complete' });
    expect(await feed(app.id)).toEqual(before);
    expect((await detail(admin, app.id)).ApplicantApprovals.every((approval) => approval.Status === 'Approved')).toBe(true);

    const confirmed = RequestEditResponseSchema.parse((await post(`/api/application/requestedit/${app.guid}`, { ConfirmationAccepted: true })).json());
    expect(confirmed.Result).toBe('Success');
    expect(confirmed.Url).toContain(`/external/application-form/${app.guid}?token=`);
    const after = await detail(admin, app.id);
    expect(after).toMatchObject({ Status: 'Adviser edit', LastApplicationStatus: 'Complete', IsComplete: false });
    expect(after.ApplicantApprovals.length).toBeGreaterThan(0);
    expect(after.ApplicantApprovals.every((approval) => approval.Status === 'Pending')).toBe(true);
    expect((await feed(app.id)).at(-1)).toBe('Completed application reopened for editing by Avery Admin; approvals reset');
  });

  it('GET /api/application/requestview/{guid}: a Url to the form that only shows the application', async () => {
    const app = take(incomplete);
    const body = RequestViewResponseSchema.parse((await api(server, 'GET', `/api/application/requestview/${app.guid}`, { token: admin })).json());
    const url = new URL(body.Url);
    const page = await api(server, 'GET', url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Application ${app.id}`);
    expect(page.body).not.toContain('<form');
    const token = url.searchParams.get('token') ?? '';
    const save = await server.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, AccountName: 'Changed', ClientName: 'Changed', PrimaryEmail: '' }).toString(),
    });
    expect(save.statusCode).toBe(403);
    expect((await current(app.id)).accountName).toBe(app.accountName);
  });
});
