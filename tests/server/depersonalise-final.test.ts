import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { pdfText } from './pdf-text.ts';
import { applicationActivity, applications, outbox } from '../../server/db/schema.ts';
import { ApplicationDetailSchema } from '../../src/schemas/application-detail.schema.ts';
import { depersonalisedLinkMessage } from '../../src/domain/application-write-rule.ts';

/**
 * Issue 27 points 1 and 3, as the issue found them: links e-mailed or opened before depersonalising
 * bring nothing back (opening one says the application is no longer available, saving through one
 * is refused), and the kept history holds no value the application had earlier (an e-mail address
 * changed after a resume link went to it), nor its External ID (detail, report, search).
 */

let server: TestServer;
let admin: string;
/** The application the first test depersonalises; the second reads what is left of it. */
let gone: { id: number; guid: string } | undefined;
beforeAll(async () => {
  // Every step below is a write of the admin's: the per-account limit is tested on its own.
  server = await startTestServer({ RATE_LIMIT_WRITES_PER_ACCOUNT: '100000' });
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

const earlierEmail = 'wendeline.oxcroft-earlier@privacy-final.example';
const currentEmail = 'wendeline.oxcroft@privacy-final.example';
const externalId = 'EXT-QZ-77413';

/** An application a resume link can be e-mailed for (AM §6), made to hold values nothing else holds. */
async function resumableApplication() {
  const [row] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        eq(applications.status, 'Primary edit'),
        eq(applications.applicationModeCode, 'Pin'),
        isNull(applications.dateCompleted),
      ),
    )
    .orderBy(asc(applications.id))
    .limit(1);
  await server.db
    .update(applications)
    .set({ externalId, accountName: 'Oxcroft Family Trust', clientName: 'Wendeline Oxcroft' })
    .where(eq(applications.id, row!.id));
  return row!;
}

const form = (path: string) => server.app.inject({ method: 'GET', url: path, headers: { host: hosts.demo } });
const saveThrough = (link: URL) =>
  server.app.inject({
    method: 'POST',
    url: link.pathname,
    headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      token: link.searchParams.get('token') ?? '',
      AccountName: 'Oxcroft Family Trust',
      ClientName: 'Wendeline Oxcroft',
      PrimaryEmail: currentEmail,
    }).toString(),
  });

const feedOf = async (id: number) =>
  (await server.db.select({ activity: applicationActivity.activity }).from(applicationActivity).where(eq(applicationActivity.applicationId, id))).map(
    (entry) => entry.activity,
  );

describe('depersonalisation is final (issue 27)', { timeout: 120_000 }, () => {
  it('ends every link: the e-mailed resume link, the edit and the view link say it is no longer available and save nothing', async () => {
    const application = await resumableApplication();
    const post = (url: string, body: unknown) => api(server, 'POST', url, { token: admin, body });
    expect((await post(`/api/application/changeprimaryemail/${application.id}`, { PrimaryEmail: earlierEmail })).statusCode).toBe(200);
    expect((await post(`/api/application/emailresumelink/${application.id}`, { PersonalisedMessage: '' })).statusCode).toBe(200);
    expect((await post(`/api/application/changeprimaryemail/${application.id}`, { PrimaryEmail: currentEmail })).statusCode).toBe(200);
    const [message] = await server.db.select({ body: outbox.body }).from(outbox).where(eq(outbox.applicationId, application.id)).orderBy(desc(outbox.id)).limit(1);
    const resume = new URL(/https?:\/\/\S+/.exec(message!.body)![0]);
    const edit = new URL((await post(`/api/application/requestedit/${application.guid}`, { ConfirmationAccepted: true })).json<{ Url: string }>().Url);
    const view = new URL((await api(server, 'GET', `/api/application/requestview/${application.guid}`, { token: admin })).json<{ Url: string }>().Url);
    // Before: each link opens the application (so the checks after could fail).
    for (const link of [resume, edit, view]) {
      const page = await form(link.pathname + link.search);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Wendeline Oxcroft');
    }

    const done = await api(server, 'PUT', `/api/application/depersonalise/${application.guid}`, { token: admin });
    expect(done.statusCode).toBe(200);
    gone = application;

    for (const link of [resume, edit, view]) {
      const page = await form(link.pathname + link.search);
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain(depersonalisedLinkMessage);
      expect(page.body).not.toMatch(/Oxcroft|Wendeline|privacy-final|<form/);
    }
    const saved = await saveThrough(resume);
    expect(saved.statusCode).toBe(409);
    expect(saved.json<{ message: string }>().message).toBe(depersonalisedLinkMessage);

    // Nothing came back: the detail, the list's search, and a second depersonalise is still refused as done.
    const detail = ApplicationDetailSchema.parse((await api(server, 'GET', `/api/application/get/${application.id}`, { token: admin })).json());
    expect(detail).toMatchObject({ Status: 'Depersonalised', AccountName: 'Depersonalised', Email: '', ExternalID: '' });
    const found = await api(server, 'GET', `/api/application/list/all?pageNo=1&rowsPerPage=20&q=Oxcroft`, { token: admin });
    expect(found.json<{ Applications: unknown[] }>().Applications).toEqual([]);
  });

  it('keeps no earlier value in the history, and no External ID in the detail, the report or the search', async () => {
    const application = gone;
    expect(application).toBeDefined();
    const feed = await feedOf(application!.id);
    // The earlier address was the one the resume link went to.
    expect(feed.some((entry) => entry.startsWith('Resume link e-mailed to [removed] by '))).toBe(true);
    expect(feed.join('\n')).not.toMatch(/oxcroft|wendeline|privacy-final|@/i);

    const byExternalId = await api(server, 'GET', `/api/application/list/all?pageNo=1&rowsPerPage=20&q=${externalId}`, { token: admin });
    expect(byExternalId.json<{ Applications: unknown[] }>().Applications).toEqual([]);
    const report = await server.app.inject({
      method: 'GET',
      url: `/api/report?ApplicationGuid=${application!.guid}&ReportName=DraftReport`,
      headers: { host: hosts.demo, authorization: `Bearer ${admin}` },
    });
    expect(report.statusCode).toBe(200);
    const text = (await pdfText(report.rawPayload)).text.join('\n');
    expect(text).toContain('Depersonalised');
    expect(text).not.toContain(externalId);
    const [row] = await server.db.select({ search: sql<string>`document::text` }).from(sql`application_search`).where(sql`id = ${application!.id}`);
    expect(row?.search ?? '').not.toMatch(/qz|77413|oxcroft/);
  });
});
