import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { multipart, upload as bulkUpload } from './bulk-upload-fixtures.ts';
import { applicationDocuments, applications } from '../../server/db/schema.ts';
import { emptyCommentMessage } from '../../src/schemas/application-detail.schema.ts';
import { samplePdf } from '../../server/storage/sample-documents.ts';
import { invisibleFileNameMessage } from '../../server/api/documents.routes.ts';

/**
 * Issue 27 point 13: text a person typed comes back without bidi controls and with something to
 * see, on every route that stores names, labels, comments or file names.
 */
let server: TestServer;
let admin: string;
let app: { id: number; guid: string };
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [row] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
    .limit(1);
  app = row!;
});
afterAll(() => server.close());

const uploadDocument = (name: string) => {
  const { body, contentType } = multipart(name, samplePdf('x'));
  return server.app.inject({
    method: 'POST',
    url: `/api/document/upload/${app.id}`,
    headers: { host: hosts.demo, authorization: `Bearer ${admin}`, 'content-type': contentType },
    payload: body,
  });
};

describe('labels', () => {
  it('refuses a label of zero-width characters with 400 naming the field, and stores none', async () => {
    const refused = await api(server, 'POST', '/api/label/add', { token: admin, body: { LabelText: '\u200b\u200c\u200d' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('LabelText: must contain visible characters');
    const labels = (await api(server, 'GET', '/api/label/list', { token: admin })).json<{ Name: string }[]>();
    expect(labels.some((label) => !/\p{L}|\p{N}/u.test(label.Name))).toBe(false);
  });

  it('stores a label without its bidi controls', async () => {
    const added = await api(server, 'POST', '/api/label/add', { token: admin, body: { LabelText: 'vip\u202e\u2066x' } });
    expect(added.json()).toEqual({ Success: true, Message: 'Label vipx created.' });
  });
});

describe('comments', () => {
  it('refuses a comment of invisible characters with the spec text for an empty one', async () => {
    const refused = await api(server, 'POST', `/api/comment/${app.id}`, { token: admin, body: { Comment: '\u200b \u2060\u3164' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(emptyCommentMessage);
  });

  it('refuses a comment of Braille blanks (issue 38 point 15)', async () => {
    const refused = await api(server, 'POST', `/api/comment/${app.id}`, { token: admin, body: { Comment: '\u2800\u2800' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(emptyCommentMessage);
  });

  it('keeps the words of a comment and drops its direction overrides', async () => {
    const saved = await api(server, 'POST', `/api/comment/${app.id}`, { token: admin, body: { Comment: 'approved \u202edesrever\u202c ok' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ Comments: { Comment: string }[] }>().Comments[0]!.Comment).toBe('approved desrever ok');
  });
});

describe('uploaded file names', () => {
  it('lists report\\u202Excod.pdf as what it is, in the answer, the store and the activity feed', async () => {
    const answer = await uploadDocument('report\u202excod.pdf');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().UploadedDocuments[0]).toMatchObject({ Success: true, FileName: 'reportxcod.pdf' });
    const stored = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, app.id));
    expect(stored.map((document) => document.originalFileName)).toContain('reportxcod.pdf');
    expect(stored.some((document) => /[\u202a-\u202e]/.test(document.originalFileName))).toBe(false);
    const feed = await api(server, 'GET', `/api/application/activityfeed/${app.id}`, { token: admin });
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain('reportxcod.pdf');
    expect(feed.body).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('refuses a document whose name has nothing visible before its extension', async () => {
    const answer = await uploadDocument('\u200b\u200b.pdf');
    expect(answer.json().UploadedDocuments[0]).toMatchObject({ Success: false, Message: invisibleFileNameMessage });
  });

  it('refuses a bulk upload whose name has nothing visible', async () => {
    const answer = await bulkUpload(server, admin, '\u2060\u3164.xlsx', Buffer.from('PK\u0003\u0004'));
    expect(answer.json()).toMatchObject({ Success: false, ResponseType: 'InvalidFile', Message: invisibleFileNameMessage });
  });
});

describe('the application form', () => {
  it('saves names without bidi controls and refuses a name of zero-width characters', async () => {
    const created = (await api(server, 'POST', '/api/application/new', { token: admin })).json<{ Url: string }>();
    const url = new URL(created.Url);
    const save = (fields: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: url.pathname,
        headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: url.searchParams.get('token')!, PrimaryEmail: '', ...fields }).toString(),
      });
    const refused = await save({ AccountName: '\u200b', ClientName: 'Ada' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('AccountName: must contain visible characters');
    expect((await save({ AccountName: 'Okafor \u202eHoldings', ClientName: '\u2067Ada\u2069' })).statusCode).toBe(303);
    const [row] = await server.db.select().from(applications).where(eq(applications.guid, url.pathname.split('/').pop()!));
    expect([row!.accountName, row!.clientName]).toEqual(['Okafor Holdings', 'Ada']);
  });
});
