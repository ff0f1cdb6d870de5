import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import type { PgliteThread } from './pglite-thread.ts';
import type { PGlite } from '@electric-sql/pglite';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** How often the database thread died and was started again (0 where there is no thread). */
  restarts(): number;
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
 * PGlite (Postgres in WASM, in this process): on a data directory on its own worker thread, from a
 * dump or in memory on this thread (tests). Drivers load lazily so that a PostgreSQL deployment
 * never pays for the WASM build and vice versa.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end(), restarts: () => 0 };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { PGlite } = await import('@electric-sql/pglite');
  let client: PGlite | PgliteThread;
  if ('dataDir' in options) {
    // The server's database: on its own thread (see pglite-thread.ts).
    await mkdir(options.dataDir, { recursive: true });
    const { openPgliteThread } = await import('./pglite-thread.ts');
    client = await openPgliteThread(options.dataDir);
  } else {
    client = 'dump' in options ? await PGlite.create({ loadDataDir: options.dump }) : await PGlite.create();
  }
  // Drizzle's PGlite driver uses only the part of PGlite's interface that the thread has too.
  const db = drizzle({ client: client as PGlite, schema });
  await migrate(db, { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    restarts: () => ('restarts' in client ? client.restarts : 0),
    dump: () => client.dumpDataDir('gzip'),
  };
}
