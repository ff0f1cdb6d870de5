import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, to start copies from. */
  dump?: () => Promise<Blob>;
}

export type DatabaseOptions =
  | { url: string }
  | { dataDir: string }
  /** An in-memory PGlite restored from a dump (tests: skips initdb). */
  | { dump: Blob }
  /** A fresh in-memory PGlite (the test template is built from one). */
  | { memory: true };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens the database and applies pending migrations. PostgreSQL when a URL is given, otherwise
 * PGlite (in-process Postgres) on a data directory or from a dump. Drivers load lazily so that a
 * PostgreSQL deployment never pays for the WASM build and vice versa.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client;
  if ('dataDir' in options) {
    await mkdir(options.dataDir, { recursive: true });
    client = await PGlite.create(options.dataDir);
  } else if ('dump' in options) {
    client = await PGlite.create({ loadDataDir: options.dump });
  } else {
    client = await PGlite.create();
  }
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    dump: async () => {
      const dump = await client.dumpDataDir('gzip');
      return dump;
    },
  };
}
