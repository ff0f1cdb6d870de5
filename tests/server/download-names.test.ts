import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, userWith, type TestServer } from './harness.ts';
import { filled, multipart, template, upload as bulkUpload, validRow } from './bulk-upload-fixtures.ts';
import { applicationOwners, applications } from '../../server/db/schema.ts';
import { samplePdf } from '../../server/storage/sample-documents.ts';

/**
 * Issue 27 points 12 and 15: every download is named through attachmentHeader, so a name in any
 * script or with emoji is a valid header (an ASCII fallback and the real name in filename*), never
 * a 500; and an error workbook is its uploader's alone.
 */
let server: TestServer;
let admin: string;
let app: { id: number; guid: string };
let owner: string;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_WRITES_PER_ACCOUNT: '100000', RATE_LIMIT_WRITES_PER_ADDRESS: '100000' });
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [row] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
    .limit(1);
  app = row!;
  const [first] = await server.db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, 'demo')).limit(1);
  owner = first!.displayName;
});
afterAll(() => server.close());

const names = { cjk: '申请表', arabic: 'طلب التقديم', emoji: 'emoji😀' };

/** A content-disposition as attachmentHeader writes it, for `name`. */
function expectNamed(header: unknown, name: string) {
  const value = String(header);
  expect(value).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]+$/);
  expect(decodeURIComponent(value.split("filename*=UTF-8''")[1]!)).toBe(name);
}

describe('documents', () => {
  it.each(Object.entries(names))('%s: a document, and the zip holding it, download with the name as uploaded', async (_kind, stem) => {
    const { body, contentType } = multipart(`${stem}.pdf`, samplePdf(stem));
    const uploaded = await server.app.inject({
      method: 'POST',
      url: `/api/document/upload/${app.id}`,
      headers: { host: hosts.demo, authorization: `Bearer ${admin}`, 'content-type': contentType },
      payload: body,
    });
    const [result] = uploaded.json<{ UploadedDocuments: { PublicId: string }[] }>().UploadedDocuments;
    const download = await api(server, 'GET', `/api/document?ApplicationGuid=${app.guid}&LabDocsId=${result!.PublicId}`, { token: admin });
    expect(download.statusCode).toBe(200);
    expectNamed(download.headers['content-disposition'], `${stem}.pdf`);
    const zip = await api(server, 'GET', `/api/document/zip/${app.id}`, { token: admin });
    expect(zip.statusCode).toBe(200);
    expectNamed(zip.headers['content-disposition'], `application-${app.id}-documents.zip`);
  });
});

describe('the bulk upload error workbook', () => {
  it.each(Object.entries(names))('%s: downloads named after the upload, for its uploader only', async (kind, stem) => {
    const file = await filled(await template(server, admin), [validRow(700 + Object.keys(names).indexOf(kind), owner, { Email: 'not-an-email' })]);
    const answer = (await bulkUpload(server, admin, `${stem}.xlsx`, file)).json<{ TemporaryErrorFileId: string }>();
    expect(answer.TemporaryErrorFileId).toMatch(/^[0-9a-f-]{36}$/);
    const url = `/api/application/bulkupload/errorfile/${answer.TemporaryErrorFileId}`;
    const download = await api(server, 'GET', url, { token: admin });
    expect(download.statusCode).toBe(200);
    expectNamed(download.headers['content-disposition'], `${stem}-issues.xlsx`);

    // Another person of the same tenant, with the same claim: the applicants in it are not theirs to read.
    const colleague = await userWith(server, `bulk-${kind}@demo.test`, ['app.bulkupload']);
    expect((await api(server, 'GET', url, { token: colleague.token })).statusCode).toBe(404);
  });
});

describe('fixed names', () => {
  it('the template and the list export are named through the same helper', async () => {
    const templateDownload = await api(server, 'GET', '/api/application/bulkupload/template', { token: admin });
    expectNamed(templateDownload.headers['content-disposition'], 'application-upload-template.xlsx');
    const exportDownload = await api(server, 'GET', '/api/application/export/all', { token: admin });
    expect(exportDownload.statusCode).toBe(200);
    expectNamed(exportDownload.headers['content-disposition'], 'export.csv');
  });
});
