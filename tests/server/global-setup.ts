import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { databaseUrl, quoteIdentifier, templateDatabaseName, templateDumpPath, testDatabaseUrl, withAdminConnection } from './template.ts';

/**
 * Pays initdb, migrations and the seed once per run and saves a dump; each test file then starts
 * an in-memory PGlite from it instead of running initdb again.
 *
 * On PostgreSQL (TEST_DATABASE_URL), builds a template database instead, which each test server
 * copies with CREATE DATABASE ... TEMPLATE (harness.ts), and drops it when the run ends.
 */
export default async function setup() {
  if (testDatabaseUrl) return setupPostgres();
  const handle = await openDatabase({ memory: true });
  await seedDemo(handle.db);
  const dump = await handle.dump?.();
  await handle.close();
  if (!dump) throw new Error('PGlite did not produce a dump.');
  await mkdir(dirname(templateDumpPath), { recursive: true });
  await writeFile(templateDumpPath, Buffer.from(await dump.arrayBuffer()));
}

async function setupPostgres() {
  const template = quoteIdentifier(templateDatabaseName);
  const drop = () => withAdminConnection((query) => query(`drop database if exists ${template} with (force)`));
  // A template left by an interrupted run on a lasting server is of an older migration set or seed.
  await drop();
  await withAdminConnection((query) => query(`create database ${template}`));
  const handle = await openDatabase({ url: databaseUrl(templateDatabaseName) });
  try {
    await seedDemo(handle.db);
  } finally {
    await handle.close();
  }
  // No connections from now on: CREATE DATABASE ... TEMPLATE refuses a template in use.
  await withAdminConnection((query) => query(`alter database ${template} with allow_connections false`));
  return drop;
}
