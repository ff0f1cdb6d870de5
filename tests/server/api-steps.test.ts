import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import { applicationActivity, applications } from '../../server/db/schema.ts';
import { TriggerApiResponseSchema } from '../../src/schemas/application-actions.schema.ts';
import { applicationNotFoundMessage } from '../../server/api/application-detail.routes.ts';
import { sandboxOutcomes } from '../../server/providers/api-steps/sandbox-api-steps.ts';

let server: TestServer;
let admin: string;
/** A demo application per last digit of its id, 0–9. */
const byDigit = new Map<number, { id: number; guid: string }>();
let acmeApp: { id: number; guid: string };

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  const rows = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
    .orderBy(asc(applications.id))
    .limit(40);
  for (const row of rows) if (!byDigit.has(row.id % 10)) byDigit.set(row.id % 10, row);
  const [other] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'acme'), sql`${applications.status} <> 'Cancelled'`))
    .limit(1);
  acmeApp = other!;
});
afterAll(() => server.close());

async function prepare(digit: number, state: { status: string; complete: boolean }) {
  const app = byDigit.get(digit)!;
  await server.db
    .update(applications)
    .set({ status: state.status, dateCompleted: state.complete ? new Date() : null })
    .where(eq(applications.id, app.id));
  return app;
}
const completed = (digit: number) => prepare(digit, { status: 'Complete', complete: true });

const trigger = (token: string | undefined, body: unknown, host?: string) =>
  api(server, 'POST', '/api/application/triggerapi', { token, body, host });

async function activityCount(applicationId: number) {
  const [row] = await server.db.select({ n: count() }).from(applicationActivity).where(eq(applicationActivity.applicationId, applicationId));
  return row!.n;
}

describe('POST /api/application/triggerapi', () => {
  it('is 401 without a bearer token, 400 naming the field for a bad body', async () => {
    const app = await completed(0);
    expect((await trigger(undefined, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' })).statusCode).toBe(401);
    for (const [body, field] of [
      [{ ApiName: 'CoreBanking' }, 'ApplicationGuid'],
      [{ ApplicationGuid: 'nope', ApiName: 'CoreBanking' }, 'ApplicationGuid'],
      [{ ApplicationGuid: app.guid }, 'ApiName'],
      [{ ApplicationGuid: app.guid, ApiName: '' }, 'ApiName'],
    ] as const) {
      const response = await trigger(admin, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(field);
    }
  });

  it('is 400 naming ApiName when it is not one of the application\'s ApiItems, and writes nothing', async () => {
    const app = await completed(0);
    const before = await activityCount(app.id);
    const response = await trigger(admin, { ApplicationGuid: app.guid, ApiName: 'DeleteEverything' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('ApiName: not an API step of this application (CoreBanking)');
    expect(await activityCount(app.id)).toBe(before);
  });

  it('is 403 without app.triggerapi or without a list claim', async () => {
    const app = await completed(1);
    const noClaim = await userWith(server, 'no-trigger@demo.test', ['view.allapps.instance']);
    const refused = await trigger(noClaim.token, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('app.triggerapi');
    const noList = await userWith(server, 'no-list-trigger@demo.test', ['app.triggerapi']);
    expect((await trigger(noList.token, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' })).statusCode).toBe(403);
    const both = await userWith(server, 'both-trigger@demo.test', ['view.allapps.instance', 'app.triggerapi']);
    expect((await trigger(both.token, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' })).statusCode).toBe(200);
  });

  it('is 409 on an incomplete or depersonalised application, and writes nothing', async () => {
    for (const [state, message] of [
      [{ status: 'Primary edit', complete: false }, 'API steps run on completed applications only.'],
      [{ status: 'Depersonalised', complete: true }, 'This application has been depersonalised.'],
    ] as const) {
      const app = await prepare(2, state);
      const before = await activityCount(app.id);
      const response = await trigger(admin, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(message);
      expect(await activityCount(app.id)).toBe(before);
    }
  });

  it('is 404 for another tenant\'s, an unknown and an invisible application', async () => {
    for (const guid of [acmeApp.guid, '00000000-0000-4000-8000-000000000000']) {
      const response = await trigger(admin, { ApplicationGuid: guid, ApiName: 'CoreBanking' });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(applicationNotFoundMessage);
    }
    const app = await completed(3);
    const mine = await userWith(server, 'mine-trigger@demo.test', ['view.myapps', 'app.triggerapi']);
    expect((await trigger(mine.token, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' })).statusCode).toBe(404);
    const acmeAdmin = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    expect((await trigger(acmeAdmin, { ApplicationGuid: app.guid, ApiName: 'CoreBanking' }, hosts.acme)).statusCode).toBe(404);
  });

  it.each([0, 4, 6, 7, 8, 9])('answers the sandbox outcome for an id ending in %i, and records it in the activity feed', async (digit) => {
    const app = await completed(digit);
    const response = await trigger(admin, { ApplicationGuid: app.guid.toUpperCase(), ApiName: 'CoreBanking' });
    expect(response.statusCode).toBe(200);
    const answer = TriggerApiResponseSchema.parse(response.json());
    const expected =
      digit === 7
        ? sandboxOutcomes.duplicate
        : digit === 8
          ? sandboxOutcomes.missingAccount
          : digit === 9
            ? sandboxOutcomes.timeout
            : sandboxOutcomes.success(`CB-DEMO-${app.id}`);
    expect(answer).toEqual(expected);
    const [activity] = await server.db
      .select()
      .from(applicationActivity)
      .where(eq(applicationActivity.applicationId, app.id))
      .orderBy(desc(applicationActivity.id))
      .limit(1);
    const outcome = expected.ErrorNo === 0 ? 'succeeded' : `failed (${expected.ErrorNo})`;
    expect(activity!.activity).toBe(`Send to core banking triggered by Avery Admin: ${outcome}. ${expected.Message}`);
  });
});
