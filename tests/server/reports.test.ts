import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import { pdfText } from './pdf-text.ts';
import { applicationActivity, applicationApplicants, applicationDocuments, applications } from '../../server/db/schema.ts';
import { applicationNotFoundMessage } from '../../server/api/application-detail.routes.ts';
import { maxListRows, maxPages } from '../../server/pdf/application-report.ts';
import { fileNameFromDisposition } from '../../src/domain/content-disposition.ts';

let server: TestServer;
let admin: string;
let apps: { id: number; guid: string }[];
let acmeApp: { id: number; guid: string };

const listClaim = 'view.allapps.instance';

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  apps = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
        sql`exists (select 1 from ${applicationApplicants} i where i.application_id = ${applications.id})`,
        sql`exists (select 1 from ${applicationDocuments} d where d.application_id = ${applications.id})`,
      ),
    )
    .orderBy(asc(applications.id))
    .limit(4);
  const [other] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'acme'), sql`${applications.status} <> 'Cancelled'`))
    .limit(1);
  acmeApp = other!;
});
afterAll(() => server.close());

async function setComplete(index: number, complete: boolean) {
  const app = apps[index]!;
  await server.db
    .update(applications)
    .set(complete ? { status: 'Complete', dateCompleted: new Date('2025-06-07T08:09:00Z') } : { status: 'Primary edit', dateCompleted: null })
    .where(eq(applications.id, app.id));
  return app;
}

const report = (token: string | undefined, guid: string, name: string, host?: string) =>
  server.app.inject({
    method: 'GET',
    url: `/api/report?ApplicationGuid=${encodeURIComponent(guid)}&ReportName=${encodeURIComponent(name)}`,
    headers: { host: host ?? hosts.demo, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

async function activityCount(applicationId: number) {
  const [row] = await server.db.select({ n: count() }).from(applicationActivity).where(eq(applicationActivity.applicationId, applicationId));
  return row!.n;
}

describe('GET /api/report: 401, 400, 403, 404', () => {
  it('is 401 without a bearer token', async () => {
    expect((await report(undefined, apps[0]!.guid, 'DraftReport')).statusCode).toBe(401);
  });

  it('is 400 naming the field for a bad guid, a missing name, or a report the application does not have', async () => {
    const app = await setComplete(0, false);
    const badGuid = await report(admin, 'not-a-guid', 'DraftReport');
    expect(badGuid.statusCode).toBe(400);
    expect(badGuid.json().message).toMatch(/ApplicationGuid/);
    const missing = await api(server, 'GET', `/api/report?ApplicationGuid=${app.guid}`, { token: admin });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/ReportName/);
    // A draft application has the Draft Report only; the final one is not among its ReportItems.
    const before = await activityCount(app.id);
    for (const name of ['FinalReport', 'Anything']) {
      const response = await report(admin, app.guid, name);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().message).toMatch(/^ReportName: .*DraftReport/);
    }
    expect(await activityCount(app.id)).toBe(before);
  });

  it('needs app.generatedraftreport for a draft and app.generatefinalreport for a final report (403), and a list claim', async () => {
    const draft = await setComplete(1, false);
    const final = await setComplete(2, true);
    const finalOnly = await userWith(server, 'final-only@demo.test', [listClaim, 'app.generatefinalreport']);
    const draftOnly = await userWith(server, 'draft-only@demo.test', [listClaim, 'app.generatedraftreport']);
    const noList = await userWith(server, 'no-list-report@demo.test', ['app.generatedraftreport', 'app.generatefinalreport']);
    const refusedDraft = await report(finalOnly.token, draft.guid, 'DraftReport');
    expect(refusedDraft.statusCode).toBe(403);
    expect(refusedDraft.json().message).toContain('app.generatedraftreport');
    const refusedFinal = await report(draftOnly.token, final.guid, 'FinalReport');
    expect(refusedFinal.statusCode).toBe(403);
    expect(refusedFinal.json().message).toContain('app.generatefinalreport');
    expect((await report(noList.token, draft.guid, 'DraftReport')).statusCode).toBe(403);
    expect((await report(draftOnly.token, draft.guid, 'DraftReport')).statusCode).toBe(200);
    expect((await report(finalOnly.token, final.guid, 'FinalReport')).statusCode).toBe(200);
  });

  it('is 404 for another tenant\'s, an unknown and an invisible application', async () => {
    for (const guid of [acmeApp.guid, '00000000-0000-4000-8000-000000000000']) {
      const response = await report(admin, guid, 'DraftReport');
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(applicationNotFoundMessage);
    }
    const draft = await setComplete(1, false);
    const mine = await userWith(server, 'mine-report@demo.test', ['view.myapps', 'app.generatedraftreport', 'app.generatefinalreport']);
    expect((await report(mine.token, draft.guid, 'DraftReport')).statusCode).toBe(404);
    // acme's own admin reads acme's report.
    const acmeAdmin = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    const acmeDetail = (await api(server, 'GET', `/api/application/get/${acmeApp.id}`, { token: acmeAdmin, host: hosts.acme })).json();
    expect((await report(acmeAdmin, acmeApp.guid, acmeDetail.ReportItems[0].ReportName, hosts.acme)).statusCode).toBe(200);
  });
});

describe('GET /api/report: the PDF', () => {
  it('a draft report: an attachment named for it, parsed back with its text and the activity item', async () => {
    const app = await setComplete(0, false);
    const detail = (await api(server, 'GET', `/api/application/get/${app.id}`, { token: admin })).json();
    expect(detail.ReportItems).toEqual([{ ReportName: 'DraftReport', DisplayName: 'Draft Report' }]);
    const response = await report(admin, app.guid, 'DraftReport');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    const disposition = String(response.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment;/);
    expect(fileNameFromDisposition(disposition, '')).toBe(`application-${app.id}-draft-report.pdf`);
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, text, document } = await pdfText(bytes);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(document.getTitle()).toBe(`Draft Report: Application ${app.id}`);
    const all = text.join('\n');
    expect(all).toContain(`Draft Report: Application ${app.id}`);
    expect(all).toContain('DRAFT');
    expect(all).toContain('Draft: the application is not complete');
    for (const heading of ['Details', 'Applicants and approvals', 'Requirements', 'Outstanding documents', 'Documents']) expect(all).toContain(heading);
    for (const approval of detail.ApplicantApprovals) expect(all).toContain(approval.ApplicantName);
    for (const document of detail.Documents) expect(all).toContain(document.OriginalFileName);
    expect(all).toContain(detail.Status);
    expect(text.at(-1)).toContain(`Page ${pages} of ${pages}`);
    const [activity] = await server.db
      .select()
      .from(applicationActivity)
      .where(eq(applicationActivity.applicationId, app.id))
      .orderBy(desc(applicationActivity.id))
      .limit(1);
    expect(activity!.activity).toBe('Draft Report generated by Avery Admin');
  });

  it('HEAD answers the headers and records nothing', async () => {
    const app = await setComplete(0, false);
    const before = await activityCount(app.id);
    const head = await server.app.inject({
      method: 'HEAD',
      url: `/api/report?ApplicationGuid=${app.guid}&ReportName=DraftReport`,
      headers: { host: hosts.demo, authorization: `Bearer ${admin}` },
    });
    expect(head.statusCode).toBe(200);
    expect(String(head.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(await activityCount(app.id)).toBe(before);
  });

  it('a final report once the application is complete: no draft marks', async () => {
    const app = await setComplete(3, true);
    const response = await report(admin, app.guid, 'FinalReport');
    expect(response.statusCode).toBe(200);
    expect(fileNameFromDisposition(String(response.headers['content-disposition']), '')).toBe(`application-${app.id}-final-report.pdf`);
    const all = (await pdfText(response.rawPayload)).text.join('\n');
    expect(all).toContain(`Final Report: Application ${app.id}`);
    expect(all).toContain('07/06/2025 08:09');
    expect(all).not.toContain('DRAFT');
    expect(all).not.toContain('Draft');
    // The draft report is no longer one of its items.
    expect((await report(admin, app.guid, 'DraftReport')).statusCode).toBe(400);
  });

  it('leaves out what the caller may not read: documents without document.view', async () => {
    const app = await setComplete(0, false);
    const noDocuments = await userWith(server, 'no-docs-report@demo.test', [listClaim, 'app.generatedraftreport']);
    const all = (await pdfText((await report(noDocuments.token, app.guid, 'DraftReport')).rawPayload)).text.join('\n');
    expect(all).toContain('No documents uploaded');
  });

  it('stays bounded: hundreds of documents and long names give at most the page limit, and say what was left out', async () => {
    const app = await setComplete(1, false);
    const [sample] = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, app.id)).limit(1);
    const many = maxListRows + 100;
    await server.db.insert(applicationDocuments).values(
      Array.from({ length: many }, (_, index) => ({
        applicationId: app.id,
        friendlyName: 'User upload',
        originalFileName: `${'very-long-name-'.repeat(index % 3 === 0 ? 30 : 1)}${index}-☃.pdf`,
        contentType: 'application/pdf',
        size: sample!.size,
        storageKey: sample!.storageKey,
      })),
    );
    const started = performance.now();
    const response = await report(admin, app.guid, 'DraftReport');
    const elapsed = performance.now() - started;
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(1_000_000);
    const { pages, text } = await pdfText(response.rawPayload);
    expect(pages).toBeLessThanOrEqual(maxPages);
    const all = text.join('\n');
    expect(all).toMatch(/\.\.\. and \d+ more|the rest is left out/);
    expect(all).toContain('-?.pdf');
    expect(elapsed).toBeLessThan(5_000);
  });
});
