import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { accessTokenFor, api, type TestServer } from './harness.ts';
import { templateDumpPath } from './template.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { applications } from '../../server/db/schema.ts';
import { freedSpaceScrubberFor } from '../../server/db/freed-space.ts';

/**
 * Issue 27 point 4: after depersonalising, the embedded database's files (table and index pages,
 * the write-ahead log) hold no copy of the old values. The server runs as `npm start` runs it: PGlite
 * on a data directory, on its own thread; the test reads the directory's raw bytes.
 */

const marker = 'Quillfeather Zandrovic';
const markerEmail = 'quillfeather.zandrovic@disk-scrub.example';

let dataDir: string;
let filesDir: string;
let handle: DatabaseHandle;
let server: TestServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'portal-disk-'));
  filesDir = await mkdtemp(join(tmpdir(), 'portal-disk-files-'));
  // The seeded template, unpacked into a data directory.
  const unpack = await PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(templateDumpPath)]) });
  await unpack.close();
  handle = await openDatabase({ dataDir });
  const config = readConfig({ LOG_LEVEL: 'silent', FILES_DIR: filesDir, DATA_DIR: dataDir, DEPERSONALISE_SCRUB: 'on' });
  const app = await buildApp({ db: handle.db, config });
  await app.ready();
  server = { app, db: handle.db, filesDir, close: async () => app.close() };
}, 120_000);

afterAll(async () => {
  await server.close();
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(filesDir, { recursive: true, force: true });
});

/** The files of the data directory whose raw bytes hold `text`. */
async function filesHolding(text: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(text)) hits.push(path.slice(dataDir.length));
  }
  return hits;
}

describe('depersonalise on the embedded database', { timeout: 180_000 }, () => {
  it('leaves no copy of the old values in the table, index or WAL files', async () => {
    const admin = await accessTokenFor(server, 'admin@demo.test');
    const [row] = await server.db
      .select({ id: applications.id, guid: applications.guid })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
      .orderBy(asc(applications.id))
      .limit(1);
    await server.db.update(applications).set({ clientName: marker, primaryEmail: markerEmail }).where(eq(applications.id, row!.id));
    expect((await api(server, 'POST', `/api/comment/${row!.id}`, { token: admin, body: { Comment: `Spoke with ${marker}` } })).statusCode).toBe(200);
    await server.db.execute(sql.raw('checkpoint'));
    // Before: the values are on disk (so that the check after could fail).
    expect(await filesHolding(marker)).not.toEqual([]);
    expect(await filesHolding(markerEmail)).not.toEqual([]);

    const started = performance.now();
    const response = await api(server, 'PUT', `/api/application/depersonalise/${row!.guid}`, { token: admin });
    const answered = performance.now() - started;
    expect(response.statusCode).toBe(200);
    await freedSpaceScrubberFor(server.db, 'embedded').idle();
    console.info(`depersonalise answered in ${Math.round(answered)} ms; the scrub finished ${Math.round(performance.now() - started - answered)} ms later`);

    expect(await filesHolding(marker)).toEqual([]);
    expect(await filesHolding(markerEmail)).toEqual([]);
  });
});
