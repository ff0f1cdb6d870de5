import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, asc, eq, sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { templateDumpPath } from './template.ts';
import { openDatabase } from '../../server/db/client.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { applicationApplicants, applications, pendingScrubs } from '../../server/db/schema.ts';
import { freedSpaceScrubberFor } from '../../server/db/freed-space.ts';

/**
 * Issue 38 point 4: a server stopped right after depersonalising (SIGKILL, SIGTERM) still has the
 * old values in its table files and WAL; the scrub it owed is recorded with the depersonalise and
 * done by the next server on the same data directory. The files are read raw, as
 * depersonalise-disk.test.ts reads them (PGlite data directory only).
 */

const child = fileURLToPath(new URL('./depersonalise-stop-child.ts', import.meta.url));

/** Values nothing else in the seeded database holds, one for each kind the issue names. */
const values = {
  email: 'ottoline.vexmarsh@stop-scrub.example',
  externalId: 'EXT-STOP-7Q4K9Z',
  accountNumber: '730194628551',
  phone: '0491 570 926',
  name: 'Ottoline Vexmarsh',
};

/** The values (by kind) whose raw bytes are in some file of the data directory, with those files. */
async function valuesOnDisk(dataDir: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path);
    for (const [kind, value] of Object.entries(values)) {
      if (bytes.includes(value)) (found[kind] ??= []).push(path.slice(dataDir.length));
    }
  }
  return found;
}

/** The seeded template on a data directory, with one application given the values; returns its guid. */
async function prepare(dataDir: string): Promise<string> {
  const unpack = await PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(templateDumpPath)]) });
  await unpack.close();
  const handle = await openDatabase({ dataDir });
  try {
    const { db } = handle;
    const [row] = await db
      .select({ id: applications.id, guid: applications.guid })
      .from(applications)
      .where(
        and(
          eq(applications.tenantId, 'demo'),
          sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
          sql`exists (select 1 from application_applicants a where a.application_id = ${applications.id})`,
        ),
      )
      .orderBy(asc(applications.id))
      .limit(1);
    await db
      .update(applications)
      .set({ clientName: values.name, primaryEmail: values.email, externalId: values.externalId, accountNumber: values.accountNumber })
      .where(eq(applications.id, row!.id));
    await db.update(applicationApplicants).set({ phone: values.phone }).where(eq(applicationApplicants.applicationId, row!.id));
    await db.execute(sql.raw('checkpoint'));
    return row!.guid;
  } finally {
    await handle.close();
  }
}

/** Starts the child, waits until it has depersonalised, and stops it with `signal` at once. */
async function depersonaliseAndStop(dataDir: string, filesDir: string, guid: string, signal: 'SIGKILL' | 'SIGTERM') {
  const process_ = spawn(process.execPath, ['--import', 'tsx', child, dataDir, filesDir, guid], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => process_.on('exit', resolve));
  let output = '';
  let errors = '';
  process_.stderr.on('data', (chunk: Buffer) => void (errors += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    process_.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('depersonalised')) resolve();
    });
    void exited.then((code) => reject(new Error(`child ended early (${code}): ${output}${errors}`)));
  });
  const signalled = performance.now();
  process_.kill(signal);
  await exited;
  return { output, stopMs: Math.round(performance.now() - signalled) };
}

/** The scrub records left in the data directory's database. */
async function recordedScrubs(dataDir: string) {
  const handle = await openDatabase({ dataDir });
  try {
    return await handle.db.select({ applicationId: pendingScrubs.applicationId }).from(pendingScrubs);
  } finally {
    await handle.close();
  }
}

/** The next start, on the same directory, as the child ran (and `npm start` runs) the server; stopped once its start-up scrub is done. */
async function startAndStop(dataDir: string, filesDir: string) {
  const handle = await openDatabase({ dataDir });
  const config = readConfig({ LOG_LEVEL: 'silent', FILES_DIR: filesDir, DATA_DIR: dataDir, DEPERSONALISE_SCRUB: 'on' });
  const app = await buildApp({ db: handle.db, config });
  try {
    await app.ready();
    await freedSpaceScrubberFor(handle.db, 'embedded').idle();
    return await handle.db.select().from(pendingScrubs);
  } finally {
    await app.close();
    await handle.close();
  }
}

describe('a server stopped right after depersonalising', { timeout: 240_000 }, () => {
  let dataDir: string;
  let filesDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-stop-'));
    filesDir = await mkdtemp(join(tmpdir(), 'portal-stop-files-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(`${dataDir}.lock`, { force: true });
    await rm(filesDir, { recursive: true, force: true });
  });

  it('(SIGKILL) leaves the scrub recorded, and the next server on the data directory removes the values from every file', async () => {
    const guid = await prepare(dataDir);
    // Before: every value is on disk, so the check after can fail.
    expect(Object.keys(await valuesOnDisk(dataDir)).sort()).toEqual(['accountNumber', 'email', 'externalId', 'name', 'phone']);

    await depersonaliseAndStop(dataDir, filesDir, guid, 'SIGKILL');
    expect(await recordedScrubs(dataDir)).toHaveLength(1);

    expect(await startAndStop(dataDir, filesDir)).toEqual([]);
    expect(await valuesOnDisk(dataDir)).toEqual({});
  });

  it('(SIGTERM) finishes the scrub under way before stopping: no value in any file, nothing left recorded', async () => {
    const guid = await prepare(dataDir);
    expect(Object.keys(await valuesOnDisk(dataDir)).sort()).toEqual(['accountNumber', 'email', 'externalId', 'name', 'phone']);

    const { output, stopMs } = await depersonaliseAndStop(dataDir, filesDir, guid, 'SIGTERM');
    console.info(`SIGTERM to exit, the scrub under way finished first: ${stopMs} ms`);
    expect(output).toContain('closed');
    expect(await valuesOnDisk(dataDir)).toEqual({});
    expect(await recordedScrubs(dataDir)).toEqual([]);
  });
});
