import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import JSZip from 'jszip';
import type { LightMyRequestResponse } from 'fastify';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationComments,
  applicationDocuments,
  applicationIps,
  applications,
  applicationViolations,
} from '../../server/db/schema.ts';
import {
  ActivityFeedResponseSchema,
  ApplicationDetailSchema,
  ApplicationIpsResponseSchema,
  CommentsResponseSchema,
  UploadDocumentsResponseSchema,
  emptyCommentMessage,
  emptyFileMessage,
  invalidFileTypeMessage,
  longCommentMessage,
} from '../../src/schemas/application-detail.schema.ts';
import { samplePdf, samplePng } from '../../server/storage/sample-documents.ts';
import { tfnProvidedPlaceholder } from '../../server/db/application-detail-store.ts';

let server: TestServer;
let admin: string;
/** A demo application with every kind of record: applicants with a TFN, exceptions, documents. */
let rich: { id: number; guid: string };
let acmeApp: { id: number; guid: string };

const maxFile = 300_000;

beforeAll(async () => {
  server = await startTestServer({ DOCUMENT_MAX_FILE_BYTES: String(maxFile), DOCUMENT_MAX_REQUEST_BYTES: String(4 * maxFile), ...(process.env.DETAIL_LOG ? { LOG_LEVEL: 'error' } : {}) });
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [row] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
        sql`exists (select 1 from ${applicationViolations} v where v.application_id = ${applications.id})`,
        sql`exists (select 1 from ${applicationDocuments} d where d.application_id = ${applications.id})`,
        sql`exists (select 1 from ${applicationApplicants} i where i.application_id = ${applications.id} and i.tfn <> '')`,
      ),
    )
    .limit(1);
  rich = row!;
  const [other] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'acme'), sql`${applications.status} <> 'Cancelled'`))
    .limit(1);
  acmeApp = other!;
});
afterAll(() => server.close());

const detail = (token: string, id: number | string, host?: string) => api(server, 'GET', `/api/application/get/${id}`, { token, host });

/** A multipart body of files, as a browser's FormData sends it. */
function multipart(files: readonly { name: string; bytes: Buffer; type?: string }[]) {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`;
  const parts = files.map((file) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    ]),
  );
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(token: string | undefined, id: number, files: readonly { name: string; bytes: Buffer; type?: string }[], host: string = hosts.demo) {
  const body = multipart(files);
  return server.app.inject({
    method: 'POST',
    url: `/api/document/upload/${id}`,
    headers: { host, 'content-type': body.contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: body.payload,
  });
}

const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(400, 1)]);
const pe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(400, 2)]);

describe('every detail route: 401 without a token, 400 for a bad id', () => {
  const routes = [
    ['GET', '/api/application/get/1'],
    ['GET', '/api/application/get/ips/1'],
    ['GET', '/api/application/activityfeed/1'],
    ['POST', '/api/application/reload/1'],
    ['GET', '/api/comment/1'],
    ['POST', '/api/comment/1'],
    ['POST', '/api/document/upload/1'],
    ['GET', '/api/document?ApplicationGuid=00000000-0000-4000-8000-000000000000&LabDocsId=00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/document/zip/1'],
  ] as const;
  it.each(routes)('%s %s is 401 without a bearer token', async (method, url) => {
    const response = await api(server, method, url, method === 'POST' ? { body: { Comment: 'x' } } : {});
    expect(response.statusCode).toBe(401);
  });
  it.each(routes.filter(([, url]) => !url.includes('?')))('%s %s is 400 naming the id when it is not an ApplicationID', async (method, url) => {
    // Digits only, the whole id: letters before or after digits are refused too.
    for (const id of ['abc', '12x', 'x12']) {
      const response = await api(server, method, url.replace(/1$/, id), { token: admin, ...(method === 'POST' ? { body: { Comment: 'x' } } : {}) });
      expect(response.statusCode, id).toBe(400);
      expect(response.json().message).toContain('id: must be an ApplicationID (digits)');
    }
  });
});

describe('claims: each route refuses a caller without its claim (403)', () => {
  const listClaim = 'view.allapps.instance';
  const cases: [string, string, string, () => Promise<{ statusCode: number }>][] = [];
  it.each([
    ['GET /api/application/get/{id} needs a list claim', ['comments.view', 'vpnsummary.view'], (token: string) => detail(token, rich.id)],
    ['GET /api/application/get/ips/{id} needs vpnsummary.view', [listClaim], (token: string) => api(server, 'GET', `/api/application/get/ips/${rich.id}`, { token })],
    ['GET /api/application/activityfeed/{id} needs a list claim', ['comments.view'], (token: string) => api(server, 'GET', `/api/application/activityfeed/${rich.id}`, { token })],
    ['POST /api/application/reload/{id} needs a list claim', ['comments.view'], (token: string) => api(server, 'POST', `/api/application/reload/${rich.id}`, { token })],
    ['GET /api/comment/{id} needs comments.view', [listClaim, 'comment.add'], (token: string) => api(server, 'GET', `/api/comment/${rich.id}`, { token })],
    ['POST /api/comment/{id} needs comment.add', [listClaim, 'comments.view'], (token: string) => api(server, 'POST', `/api/comment/${rich.id}`, { token, body: { Comment: 'hello' } })],
    ['POST /api/document/upload/{id} needs document.upload', [listClaim, 'document.view', 'document.download'], (token: string) => upload(token, rich.id, [{ name: 'a.pdf', bytes: samplePdf('a') }])],
    ['GET /api/document needs document.download', [listClaim, 'document.view', 'document.upload'], (token: string) => api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid}&LabDocsId=${rich.guid}`, { token })],
    ['GET /api/document/zip/{id} needs document.download', [listClaim, 'document.view'], (token: string) => api(server, 'GET', `/api/document/zip/${rich.id}`, { token })],
  ] as const)('%s', async (name, claims, call) => {
    const { token } = await userWith(server, `c${cases.length}-${name.length}-${Math.random().toString(16).slice(2, 8)}@demo.test`, claims);
    const response = await call(token);
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/application/get/{id}', () => {
  it('answers the whole detail, in the contract, for a caller with every claim', async () => {
    const response = await detail(admin, rich.id);
    expect(response.statusCode).toBe(200);
    // The detail changes with every action: never kept by a cache on the way.
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = ApplicationDetailSchema.parse(response.json());
    expect(body).toMatchObject({ ApplicationID: rich.id, ApplicationId: rich.id, ApplicationGuid: rich.guid, InstanceName: 'demo' });
    expect(body.BusinessRuleViolations.length).toBeGreaterThan(0);
    expect(body.Documents.length).toBeGreaterThan(0);
    expect(body.ApplicantApprovals.length).toBeGreaterThan(0);
    expect(body.Requirements.map((requirement) => requirement.EntityGuid)).toEqual(body.ApplicantApprovals.map((approval) => approval.IndividualId));
    expect(body.ApplicationTaxInformations.some((tax) => /^[0-9]{9}$/.test(tax.Tfn))).toBe(true);
    expect(['Online', 'Print & Sign']).toContain(body.ApplicationModeCode);
  });

  it('is 404 with the spec text for an unknown id and another tenant\'s id', async () => {
    for (const id of [999_999_999, acmeApp.id]) {
      const response = await detail(admin, id);
      expect(response.statusCode, String(id)).toBe(404);
      // AM §8, letter for letter.
      expect(response.json().message).toBe(
        'This application cannot be found. The application may no longer exist or you might not have permission to view it.',
      );
    }
    // The acme application is there for acme's own admin.
    expect((await detail(await accessTokenFor(server, 'admin@acme.test', hosts.acme), acmeApp.id, hosts.acme)).statusCode).toBe(200);
  });

  it('still opens a cancelled application at its address, marked Cancelled, with who cancelled it in its feed (issue 32)', async () => {
    const [target] = await server.db
      .select({ id: applications.id, guid: applications.guid, status: applications.status })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`, sql`${applications.dateCompleted} is not null`))
      .limit(1);
    const cancel = await api(server, 'POST', '/api/application/cancel', { token: admin, body: { ApplicationCancellations: [{ ApplicationGuid: target!.guid }] } });
    expect(cancel.json().Results).toEqual([{ ApplicationGuid: target!.guid, Success: true }]);
    const response = await detail(admin, target!.id);
    expect(response.statusCode).toBe(200);
    const body = ApplicationDetailSchema.parse(response.json());
    expect(body).toMatchObject({ Status: 'Cancelled', LastApplicationStatus: target!.status, ApiItems: [] });
    const feedResponse = await api(server, 'GET', `/api/application/activityfeed/${target!.id}`, { token: admin });
    expect(feedResponse.statusCode).toBe(200);
    expect(JSON.stringify(feedResponse.json())).toContain('Application cancelled by Avery Admin');
    // Still in no listing, and closed to writes.
    const comment = await api(server, 'POST', `/api/comment/${target!.id}`, { token: admin, body: { Comment: 'too late' } });
    expect(comment.statusCode).toBe(409);
    expect(comment.json().message).toBe('This application has been cancelled.');
  });

  it('leaves out exceptions, documents and tax without their claims, and never sends TFN digits without viewsensitive', async () => {
    const bare = await userWith(server, 'bare@demo.test', ['view.allapps.instance']);
    const body = ApplicationDetailSchema.parse((await detail(bare.token, rich.id)).json());
    expect(body.BusinessRuleViolations).toEqual([]);
    expect(body.Documents).toEqual([]);
    expect(body.ApplicationTaxInformations).toEqual([]);
    expect(body.ApplicantApprovals.length).toBeGreaterThan(0);

    const summary = await userWith(server, 'summary@demo.test', ['view.allapps.instance', 'app.taxdetails.viewsummary']);
    const taxes = ApplicationDetailSchema.parse((await detail(summary.token, rich.id)).json()).ApplicationTaxInformations;
    expect(taxes.length).toBeGreaterThan(0);
    expect(taxes.some((tax) => tax.Tfn === tfnProvidedPlaceholder)).toBe(true);
    for (const tax of taxes) expect(['', tfnProvidedPlaceholder]).toContain(tax.Tfn);
    expect(JSON.stringify(taxes)).not.toMatch(/[0-9]/);
  });

  it('answers reads made at once (batched into one statement) each with its own application, claims and visibility', async () => {
    const bare = await userWith(server, 'batched-bare@demo.test', ['view.allapps.instance']);
    const mine = await userWith(server, 'batched-mine@demo.test', ['view.myapps']);
    const others = await server.db
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} <> 'Cancelled'`, sql`${applications.id} <> ${rich.id}`))
      .limit(6);
    const reads = [
      ...others.map(({ id }) => ({ token: admin, id, status: 200 })),
      { token: admin, id: rich.id, status: 200 },
      { token: bare.token, id: rich.id, status: 200 },
      { token: mine.token, id: rich.id, status: 404 },
      { token: admin, id: acmeApp.id, status: 404 },
      { token: admin, id: 999_999_999, status: 404 },
    ];
    const responses = await Promise.all(reads.map((read) => detail(read.token, read.id)));
    responses.forEach((response, index) => {
      const read = reads[index]!;
      expect(response.statusCode, `read ${index}`).toBe(read.status);
      if (read.status === 200) expect(ApplicationDetailSchema.parse(response.json()).ApplicationID).toBe(read.id);
    });
    const [asAdmin, asBare] = [responses[others.length]!, responses[others.length + 1]!].map((response) => ApplicationDetailSchema.parse(response.json()));
    expect(asAdmin!.Documents.length).toBeGreaterThan(0);
    expect(asBare!.Documents).toEqual([]);
    expect(responses[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('is 404 for an application a view.myapps-only user neither owns nor is assigned, and 200 for one they own', async () => {
    const mine = await userWith(server, 'mine@demo.test', ['view.myapps', 'vpnsummary.view', 'comments.view', 'comment.add', 'document.upload', 'document.download']);
    const notMine = (id: number) => [
      detail(mine.token, id),
      api(server, 'GET', `/api/application/get/ips/${id}`, { token: mine.token }),
      api(server, 'GET', `/api/application/activityfeed/${id}`, { token: mine.token }),
      api(server, 'POST', `/api/application/reload/${id}`, { token: mine.token }),
      api(server, 'GET', `/api/comment/${id}`, { token: mine.token }),
      api(server, 'POST', `/api/comment/${id}`, { token: mine.token, body: { Comment: 'hello' } }),
      upload(mine.token, id, [{ name: 'a.pdf', bytes: samplePdf('a') }]),
      api(server, 'GET', `/api/document/zip/${id}`, { token: mine.token }),
    ];
    for (const response of await Promise.all(notMine(rich.id))) expect(response.statusCode).toBe(404);
    const [firstDocument] = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, rich.id)).limit(1);
    const download = await api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid}&LabDocsId=${firstDocument!.publicId}`, { token: mine.token });
    expect(download.statusCode).toBe(404);
    expect(await server.db.select().from(applicationComments).where(eq(applicationComments.comment, 'hello'))).toEqual([]);

    // Once assigned to them, the same application opens.
    await server.db.update(applications).set({ assigneeUserId: mine.user.id }).where(eq(applications.id, rich.id));
    try {
      expect((await detail(mine.token, rich.id)).statusCode).toBe(200);
    } finally {
      await server.db.update(applications).set({ assigneeUserId: null }).where(eq(applications.id, rich.id));
    }
  });
});

describe('IPs, activity feed and reload', () => {
  it('lists the IP addresses and the activity newest first; reload answers Success', async () => {
    const ips = ApplicationIpsResponseSchema.parse((await api(server, 'GET', `/api/application/get/ips/${rich.id}`, { token: admin })).json());
    expect(ips.ApplicationIps.length).toBeGreaterThan(0);
    const [vpn] = await server.db.select({ n: sql<number>`count(*)::int` }).from(applicationIps).where(eq(applicationIps.isVpn, true));
    expect(vpn!.n).toBeGreaterThan(0);

    const feed = ActivityFeedResponseSchema.parse((await api(server, 'GET', `/api/application/activityfeed/${rich.id}`, { token: admin })).json());
    expect(feed.ActivityFeedItems.length).toBeGreaterThan(0);
    const times = feed.ActivityFeedItems.map((item) => item.TimeStamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    expect((await api(server, 'POST', `/api/application/reload/${rich.id}`, { token: admin })).json()).toEqual({ Success: true });
  });
});

describe('comments', () => {
  it('refuses empty, whitespace and over-500-character comments with the spec texts; adds one with its activity item', async () => {
    for (const [Comment, message] of [
      ['', emptyCommentMessage],
      ['   \n\t ', emptyCommentMessage],
      ['x'.repeat(501), longCommentMessage],
    ] as const) {
      const response = await api(server, 'POST', `/api/comment/${rich.id}`, { token: admin, body: { Comment } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await api(server, 'POST', `/api/comment/${rich.id}`, { token: admin, body: {} })).statusCode).toBe(400);

    const text = `${'y'.repeat(499)}z`;
    const added = await api(server, 'POST', `/api/comment/${rich.id}`, { token: admin, body: { Comment: `  ${text}  ` } });
    expect(added.statusCode).toBe(200);
    const comments = CommentsResponseSchema.parse((await api(server, 'GET', `/api/comment/${rich.id}`, { token: admin })).json()).Comments;
    expect(comments[0]).toMatchObject({ Comment: text, UserDisplayName: 'Avery Admin' });
    const [activity] = await server.db
      .select()
      .from(applicationActivity)
      .where(eq(applicationActivity.applicationId, rich.id))
      .orderBy(desc(applicationActivity.id))
      .limit(1);
    expect(activity!.activity).toBe('Comment added by Avery Admin');
  });
});

describe('documents', () => {
  const docx = async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file('word/document.xml', '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>');
    return zip.generateAsync({ type: 'nodebuffer' });
  };

  it('stores accepted files, refuses wrong extensions and sniffed content (renamed executables, a PNG named .pdf) and oversized files, one result each', async () => {
    const pdf = samplePdf('Uploaded statement');
    const png = samplePng(20, 20, [200, 10, 10]);
    const big = Buffer.concat([samplePdf('big'), Buffer.alloc(maxFile, 0x20)]);
    const response = await upload(admin, rich.id, [
      { name: "statement ü 'q'.pdf", bytes: pdf, type: 'application/pdf' },
      { name: 'virus.exe', bytes: pe },
      { name: 'elf.pdf', bytes: elf, type: 'application/pdf' },
      { name: 'pe.png', bytes: pe, type: 'image/png' },
      { name: 'picture.pdf', bytes: png },
      { name: 'photo.PNG', bytes: png },
      { name: 'letter.docx', bytes: await docx() },
      { name: 'huge.pdf', bytes: big },
      { name: 'empty.pdf', bytes: Buffer.alloc(0), type: 'application/pdf' },
    ]);
    expect(response.statusCode).toBe(200);
    const body = UploadDocumentsResponseSchema.parse(response.json());
    expect(body.UploadedDocuments.map((result) => [result.FileName, result.Success, result.Message])).toEqual([
      ["statement ü 'q'.pdf", true, ''],
      ['virus.exe', false, invalidFileTypeMessage],
      ['elf.pdf', false, invalidFileTypeMessage],
      ['pe.png', false, invalidFileTypeMessage],
      ['picture.pdf', false, invalidFileTypeMessage],
      ['photo.PNG', true, ''],
      ['letter.docx', true, ''],
      ['huge.pdf', false, 'The file is larger than 0.3 MB.'],
      // Issue 32: an empty file of an accepted type is said to be empty, not of the wrong type.
      ['empty.pdf', false, emptyFileMessage],
    ]);
    expect(body.ErrorNo).not.toBe(0);
    const stored = body.UploadedDocuments.filter((result) => result.Success);
    for (const result of stored) expect(result.PublicId).toMatch(/^[0-9a-f-]{36}$/);

    // Each stored file has its activity item, written with it.
    const activity = (await server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, rich.id))).map((row) => row.activity);
    expect(activity).toContain("Document statement ü 'q'.pdf uploaded by Avery Admin");
    expect(activity).toContain('Document letter.docx uploaded by Avery Admin');
    expect(activity.filter((entry) => entry.includes('virus.exe') || entry.includes('huge.pdf'))).toEqual([]);

    // Read back byte for byte, as an attachment, never sniffed by the browser.
    const download = await api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid.toUpperCase()}&LabDocsId=${stored[0]!.PublicId}`, { token: admin });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['cache-control']).toBe('no-store');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="statement _ 'q'.pdf"; filename*=UTF-8''statement%20%C3%BC%20%27q%27.pdf`,
    );

    // The detail lists them, newest first.
    const documents = ApplicationDetailSchema.parse((await detail(admin, rich.id)).json()).Documents;
    expect(documents.map((document) => document.LabDocsId)).toEqual(expect.arrayContaining(stored.map((result) => result.PublicId)));
    expect(documents.find((document) => document.LabDocsId === stored[0]!.PublicId)?.ArtifactFriendlyName).toBe('User upload');

    // The zip holds every document of the application, the uploaded ones byte for byte.
    const zipResponse = await api(server, 'GET', `/api/document/zip/${rich.id}`, { token: admin });
    expect(zipResponse.statusCode).toBe(200);
    expect(zipResponse.headers['content-type']).toBe('application/zip');
    expect(zipResponse.headers['content-disposition']).toBe(
      `attachment; filename="application-${rich.id}-documents.zip"; filename*=UTF-8''application-${rich.id}-documents.zip`,
    );
    expect(zipResponse.headers['x-content-type-options']).toBe('nosniff');
    expect(zipResponse.headers['cache-control']).toBe('no-store');
    const zip = await JSZip.loadAsync(zipResponse.rawPayload);
    const names = Object.keys(zip.files);
    expect(names).toHaveLength(documents.length);
    expect(new Set(names).size).toBe(names.length);
    expect((await zip.file("statement ü 'q'.pdf")!.async('nodebuffer')).equals(pdf)).toBe(true);
    expect((await zip.file('photo.PNG')!.async('nodebuffer')).equals(png)).toBe(true);
    for (const name of names) expect((await zip.file(name)!.async('nodebuffer')).length).toBeGreaterThan(0);
  });

  it('answers 400 for a request that is not multipart or carries no file, and for a bad guid; 404 for an unknown document or another tenant\'s', async () => {
    const refused = async (response: Promise<LightMyRequestResponse>, status: number, message: string) => {
      const answer = await response;
      expect(answer.statusCode).toBe(status);
      expect(answer.json().message).toBe(message);
    };
    await refused(api(server, 'POST', `/api/document/upload/${rich.id}`, { token: admin, body: { file: 'x' } }), 400, 'body: must be multipart/form-data with one or more files');
    await refused(upload(admin, rich.id, []), 400, 'files: no file in the upload');
    await refused(api(server, 'GET', `/api/document?ApplicationGuid=nope&LabDocsId=${rich.guid}`, { token: admin }), 400, 'ApplicationGuid: must be a GUID');
    await refused(api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid}&LabDocsId=nope`, { token: admin }), 400, 'LabDocsId: must be a GUID');
    expect((await api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid}`, { token: admin })).statusCode).toBe(400);
    await refused(api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid}&LabDocsId=${rich.guid}`, { token: admin }), 404, 'LabDocsId: no such document on this application.');
    const [acmeDocument] = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, acmeApp.id)).limit(1);
    if (acmeDocument) {
      expect((await api(server, 'GET', `/api/document?ApplicationGuid=${acmeApp.guid}&LabDocsId=${acmeDocument.publicId}`, { token: admin })).statusCode).toBe(404);
    }
    expect((await upload(admin, acmeApp.id, [{ name: 'a.pdf', bytes: samplePdf('a') }])).statusCode).toBe(404);
    expect((await api(server, 'GET', `/api/document/zip/${acmeApp.id}`, { token: admin })).statusCode).toBe(404);
  });

  describe('the limits of one upload', () => {
    /** A valid PDF of exactly `size` bytes. */
    const pdfOf = (size: number) => {
      const pdf = samplePdf('padded');
      return Buffer.concat([pdf, Buffer.alloc(size - pdf.length, 0x20)]);
    };
    /** Another demo application, so that these uploads change nothing the other tests read. */
    const another = async () => {
      const [row] = await server.db
        .select({ id: applications.id, guid: applications.guid })
        .from(applications)
        .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`, sql`${applications.id} <> ${rich.id}`))
        .limit(1);
      return row!;
    };
    const documentCount = async (id: number) => (await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, id))).length;

    it('stores the files that fit the upload budget and says why the rest did not', async () => {
      const app = await another();
      const files = [1, 2, 3, 4].map((n) => ({ name: `part ${n}.pdf`, bytes: pdfOf(299_000) }));
      const response = await upload(admin, app.id, [...files, { name: 'one more.pdf', bytes: pdfOf(60_000) }]);
      expect(response.statusCode).toBe(200);
      const body = UploadDocumentsResponseSchema.parse(response.json());
      expect(body.UploadedDocuments.map((result) => [result.FileName, result.Success, result.Message])).toEqual([
        ['part 1.pdf', true, ''],
        ['part 2.pdf', true, ''],
        ['part 3.pdf', true, ''],
        ['part 4.pdf', true, ''],
        ['one more.pdf', false, 'The upload is larger than 1.1 MB in all.'],
      ]);
      expect(body).toMatchObject({ ErrorNo: 1, Message: '1 of 5 files could not be uploaded.' });
    });

    it('takes a file of exactly the size limit, and answers an upload with no refusal with ErrorNo 0, no message and the time of each', async () => {
      const app = await another();
      const before = Date.now();
      const response = await upload(admin, app.id, [{ name: 'exact.pdf', bytes: pdfOf(maxFile) }]);
      const body = UploadDocumentsResponseSchema.parse(response.json());
      expect(body).toMatchObject({ ErrorNo: 0, Message: '' });
      expect(body.UploadedDocuments.map((result) => [result.FileName, result.Success, result.Message])).toEqual([['exact.pdf', true, '']]);
      // Whole seconds or milliseconds, the time of the upload: not 0.
      expect(body.UploadedDocuments[0]!.UploadedTimestamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) - 1);
    });

    it('refuses a request that declares more than the budget with 413, before reading it', async () => {
      const app = await another();
      const before = await documentCount(app.id);
      const response = await upload(admin, app.id, [1, 2, 3, 4, 5].map((n) => ({ name: `part ${n}.pdf`, bytes: pdfOf(299_000) })));
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe('body: an upload may carry at most 1.1 MB');
      expect(await documentCount(app.id)).toBe(before);
    });

    it('refuses more than 20 files with 400, keeping none of them', async () => {
      const app = await another();
      const before = await documentCount(app.id);
      const response = await upload(admin, app.id, Array.from({ length: 21 }, (_, n) => ({ name: `page ${n}.pdf`, bytes: samplePdf(`page ${n}`) })));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('files: at most 20 files per upload');
      expect(await documentCount(app.id)).toBe(before);
    });

    it('names documents of the same name apart in the zip', async () => {
      const app = await another();
      const response = await upload(admin, app.id, [
        { name: 'same.pdf', bytes: samplePdf('first') },
        { name: 'SAME.pdf', bytes: samplePdf('second') },
        { name: 'same', bytes: samplePdf('third') },
        { name: 'Same.pdf', bytes: samplePdf('fourth') },
      ]);
      expect(UploadDocumentsResponseSchema.parse(response.json()).UploadedDocuments.map((result) => result.Success)).toEqual([true, true, false, true]);
      const zip = await JSZip.loadAsync((await api(server, 'GET', `/api/document/zip/${app.id}`, { token: admin })).rawPayload);
      const names = Object.keys(zip.files);
      // Which one is second follows the zip's order (newest first); names differing in case only clash on most disks.
      expect(names.filter((name) => name.toLowerCase().startsWith('same')).map((name) => name.toLowerCase()).sort()).toEqual(['same (2).pdf', 'same (3).pdf', 'same.pdf']);
    });
  });

  it('a seeded document downloads as a valid sample file', async () => {
    const [seeded] = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, rich.id)).limit(1);
    const response = await api(server, 'GET', `/api/document?ApplicationGuid=${rich.guid}&LabDocsId=${seeded!.publicId}`, { token: admin });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBe(seeded!.size);
    expect(response.rawPayload.subarray(0, 4).toString('latin1')).toMatch(/^(%PDF|.PNG)$/);
  });
});

