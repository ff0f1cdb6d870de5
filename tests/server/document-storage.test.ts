import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { databaseStorage } from '../../server/storage/database-storage.ts';
import { applications, storedFileChunks } from '../../server/db/schema.ts';
import { samplePdf } from '../../server/storage/sample-documents.ts';
import { accessTokenFor, hosts, startTestServer, type TestServer } from './harness.ts';
import { databaseUrl, onPostgres, quoteIdentifier, templateDatabaseName, withAdminConnection } from './template.ts';

const collect = async (stream: Readable | undefined) => {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

describe('database storage: chunk rows written and read back a chunk at a time', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('round-trips a file of several chunks and an empty one, byte for byte, and deletes them', async () => {
    const storage = databaseStorage(server.db, 1000);
    const bytes = randomBytes(3500);
    const pieces = [bytes.subarray(0, 10), bytes.subarray(10, 2600), bytes.subarray(2600)];
    const { key, size } = await storage.put(Readable.from(pieces));
    expect(size).toBe(3500);
    expect((await collect(await storage.get(key)))?.equals(bytes)).toBe(true);
    const [count] = await server.db.select({ n: sql<number>`count(*)::int` }).from(storedFileChunks).where(eq(storedFileChunks.key, key));
    expect(count!.n).toBe(4);
    const empty = await storage.put(Readable.from([]));
    expect((await collect(await storage.get(empty.key)))?.length).toBe(0);
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    expect(await storage.has(empty.key)).toBe(true);
  });
});

/**
 * ARCHITECTURE §1: N instances on one PostgreSQL. Each instance has its own pool; documents live in
 * the database (no FILES_DIR), so one uploaded through A downloads through B.
 */
describe.skipIf(!onPostgres)(
  onPostgres ? 'two server instances on one PostgreSQL serve the same documents' : 'two server instances on one PostgreSQL [skipped on PGlite: one process owns a PGlite database, there is no second instance to share it]',
  () => {
    const name = `portal_test_docs_${process.pid}_${randomBytes(3).toString('hex')}`;
    let handles: DatabaseHandle[] = [];
    let apps: Awaited<ReturnType<typeof buildApp>>[] = [];
    beforeAll(async () => {
      await withAdminConnection((query) => query(`create database ${quoteIdentifier(name)} template ${quoteIdentifier(templateDatabaseName)}`));
      const url = databaseUrl(name);
      handles = [await openDatabase({ url }), await openDatabase({ url })];
      apps = await Promise.all(handles.map((handle) => buildApp({ db: handle.db, config: readConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url }) })));
      await Promise.all(apps.map((app) => app.ready()));
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const handle of handles) await handle.close();
      await withAdminConnection((query) => query(`drop database if exists ${quoteIdentifier(name)} with (force)`));
    });

    it('uploads through one instance and downloads and zips through the other', async () => {
      const [a, b] = apps;
      const serverA: TestServer = { app: a!, db: handles[0]!.db, filesDir: '', close: async () => undefined };
      const token = await accessTokenFor(serverA, 'admin@demo.test');
      const [target] = await handles[0]!.db
        .select({ id: applications.id, guid: applications.guid })
        .from(applications)
        .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
        .limit(1);
      const pdf = Buffer.concat([samplePdf('two instances'), randomBytes(3 * 1024 * 1024)]);
      const boundary = '----twoinstances';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="shared.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
        pdf,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const uploaded = await a!.inject({
        method: 'POST',
        url: `/api/document/upload/${target!.id}`,
        headers: { host: hosts.demo, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(uploaded.statusCode).toBe(200);
      const publicId = uploaded.json().UploadedDocuments[0].PublicId as string;

      const download = await b!.inject({
        method: 'GET',
        url: `/api/document?ApplicationGuid=${target!.guid}&LabDocsId=${publicId}`,
        headers: { host: hosts.demo, authorization: `Bearer ${token}` },
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(pdf)).toBe(true);
      const zip = await b!.inject({ method: 'GET', url: `/api/document/zip/${target!.id}`, headers: { host: hosts.demo, authorization: `Bearer ${token}` } });
      expect(zip.statusCode).toBe(200);
      expect(zip.rawPayload.includes(pdf.subarray(0, 64))).toBe(true);
    });
  },
);
