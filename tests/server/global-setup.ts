import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { templateDumpPath } from './template.ts';

/**
 * Pays initdb, migrations and the seed once per run and saves a dump; each test file then starts
 * an in-memory PGlite from it instead of running initdb again.
 */
export default async function setup() {
  const handle = await openDatabase({ memory: true });
  await seedDemo(handle.db);
  const dump = await handle.dump?.();
  await handle.close();
  if (!dump) throw new Error('PGlite did not produce a dump.');
  await mkdir(dirname(templateDumpPath), { recursive: true });
  await writeFile(templateDumpPath, Buffer.from(await dump.arrayBuffer()));
}
