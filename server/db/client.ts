import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import type { PgliteThread } from './pglite-thread.ts';
import type { PGlite } from '@electric-sql/pglite';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The pool's connections as node-postgres counts them (PostgreSQL only). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** How often the database thread died and was started again (0 where there is no thread). */
  restarts(): number;
  /**
   * PGlite only: the whole database as a tarball, to start copies from. Checkpointed and not
   * compressed: a copy then starts without replaying WAL or unzipping, 0.4–0.7 s instead of 1–1.1 s
   * (every server test starts one or more; issue 41).
   */
  dump?: () => Promise<Blob>;
  /** PostgreSQL only: the pool's connections (the metrics show them). */
  poolStats?: () => PoolStats;
}

export type DatabaseOptions =
  /** PostgreSQL; `startupWaitMs`: how long a start waits for a database that does not answer (default 60 s). */
  | { url: string; startupWaitMs?: number }
  | { dataDir: string }
  /** An in-memory PGlite restored from a dump (tests: skips initdb). */
  | { dump: Blob }
  /** A fresh in-memory PGlite (the test template is built from one). */
  | { memory: true };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Each instance's pool (README "Running several instances"): ten connections, and a request that
 * cannot get one within 5 s fails (503) rather than waiting on a database that went away.
 */
const postgresPoolSettings = { max: 10, connectionTimeoutMillis: 5_000 };

/** What runs once the migrations are applied, before the database is handed out (the first seed). */
export type Prepare = (db: Database) => Promise<void>;

/**
 * The advisory lock that instances of one database take to migrate and seed (pg_advisory_lock's
 * key: any fixed bigint, the same in every release). Instances started together wait for the
 * first and then find its work done, where drizzle's migrator run side by side failed on a
 * duplicate key (issue 40 point 1, docs/decisions/009-several-instances.md).
 */
export const startupLockKey = 7_405_140_040n;

/**
 * An instance started while PostgreSQL does not answer (restarting, failing over, or a connection
 * not made within the pool's 5 s while this process compiles its modules on a busy machine) tries
 * again every second for this long before it gives up and exits: a start should not depend on
 * which of the two came up first. Any other failure (a wrong password, no such database) exits at once.
 */
const defaultStartupWaitMs = 60_000;
const startupRetryMs = 1_000;

/**
 * Opens the database, applies pending migrations and then `prepare`. PostgreSQL when a URL is
 * given, otherwise PGlite (Postgres in WASM, in this process): on a data directory on its own
 * worker thread, from a dump or in memory on this thread (tests). Drivers load lazily so that a
 * PostgreSQL deployment never pays for the WASM build and vice versa.
 */
export async function openDatabase(options: DatabaseOptions, prepare?: Prepare): Promise<DatabaseHandle> {
  if ('url' in options) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.url, ...postgresPoolSettings });
    // A connection that breaks while idle (PostgreSQL restarted) is an event, not a crash: the pool
    // replaces it and the requests meanwhile answer 503 (errors.ts).
    pool.on('error', (error) => console.error('A PostgreSQL connection failed:', error.message));
    const db = drizzle(pool, { schema });
    const migrateAndPrepare = async () => {
      // The lock is the session's of one connection, held while others of the pool migrate and seed.
      const lockHolder = await pool.connect();
      try {
        await lockHolder.query('select pg_advisory_lock($1)', [startupLockKey.toString()]);
        await migrate(db, { migrationsFolder });
        await prepare?.(db);
      } finally {
        // A connection that cannot even unlock is broken: the pool discards it instead of reusing it.
        const broken = await lockHolder.query('select pg_advisory_unlock($1)', [startupLockKey.toString()]).then(
          () => undefined,
          (error: Error) => error,
        );
        lockHolder.release(broken);
      }
    };
    // Migrations run in one transaction and the seed inserts only what is missing: both can run again.
    const deadline = performance.now() + (options.startupWaitMs ?? defaultStartupWaitMs);
    for (;;) {
      try {
        await migrateAndPrepare();
        break;
      } catch (error) {
        const left = deadline - performance.now();
        if (!isDatabaseUnavailable(error) || left <= 0) {
          await pool.end().catch(() => undefined);
          throw error;
        }
        console.error(`PostgreSQL does not answer at start (${error instanceof Error ? error.message : String(error)}); trying again, for ${Math.ceil(left / 1000)} s more`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(startupRetryMs, left)));
      }
    }
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, kind: 'postgres', close: () => pool.end(), restarts: () => 0, poolStats };
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
  // One process owns a PGlite data directory (data-dir-lock.ts): no other instance to wait for.
  await migrate(db, { migrationsFolder });
  await prepare?.(db);
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    restarts: () => ('restarts' in client ? client.restarts : 0),
    dump: async () => {
      await client.exec('checkpoint');
      return client.dumpDataDir('none');
    },
  };
}
