import { AsyncResource } from 'node:async_hooks';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client.ts';
import { pendingScrubs } from './schema.ts';

/**
 * After a depersonalise commits, the old values are still bytes on disk: dead row versions in the
 * table and index pages, and the write-ahead log (issue 27 point 4). PGlite has no autovacuum, so
 * on the embedded database this removes them: a VACUUM of every table depersonalise writes (their
 * indexes and TOAST with them) prunes the dead versions, and a checkpoint, a switch to a new WAL
 * segment and a second checkpoint, with WAL recycling off, delete the segments that held them
 * (a recycled segment would keep its old bytes under a new name).
 *
 * The planner's statistics keep samples of the columns (pg_statistic: most common values, histogram
 * bounds), External IDs and account numbers among them (issue 38 point 5): the scrub analyzes the
 * tables again, where only the live, depersonalised rows are sampled, and on PGlite rewrites
 * pg_statistic too, whose replaced rows held the samples.
 *
 * Each depersonalise records the scrub it owes in its own transaction (pending_scrubs, migration
 * 0025), and a record goes only once its scrub is done: a server killed in between (SIGKILL, a
 * crash) leaves the record, and the next one to start does the scrub; a graceful stop finishes the
 * run under way (close) and leaves the rest recorded (issue 38 point 4). It runs after the answer, one run at a time, and the depersonalisations that arrive
 * meanwhile share the next run. On PGlite every statement waits for the one connection, so while
 * it runs other requests wait too. On PostgreSQL only the statistics are refreshed here:
 * autovacuum removes dead versions and the server recycles WAL on its own schedule (README "What
 * depersonalisation leaves behind"); the records are claimed with FOR UPDATE SKIP LOCKED, so
 * instances starting together on one database each take different records, never the same.
 */

/** Every table depersonalise (server/db/depersonalise-store.ts) updates or deletes from, and the search table its triggers write. */
export const depersonalisedTables = [
  'applications',
  'application_search',
  'application_applicants',
  'application_requirements',
  'application_outstanding_documents',
  'application_ips',
  'application_comments',
  'application_documents',
  'stored_file_chunks',
  'outbox',
  'application_activity',
  'application_list_changes',
] as const;

/**
 * What the scrub does: `embedded` (PGlite on a data directory) rewrites the tables, refreshes their
 * statistics and drops the WAL; `postgres` refreshes the statistics; `off` does nothing and leaves
 * the records (DEPERSONALISE_SCRUB=off).
 */
export type ScrubMode = 'embedded' | 'postgres' | 'off';

export interface FreedSpaceScrubber {
  /** Asks for a run after the current one (if any); returns at once. */
  schedule(log: FastifyBaseLogger): void;
  /** Resolves when no run is pending or running (tests, shutdown). */
  idle(): Promise<void>;
  /** A graceful stop: the run under way finishes, a run not yet started is left to the next start (its records stay). */
  close(): Promise<void>;
}

const analyzeDepersonalisedTables = sql.raw(`analyze ${depersonalisedTables.join(', ')}`);

/** The embedded scrub itself, whatever is recorded: scrubPending runs it, tests time it. */
export async function scrubFreedSpace(db: Database): Promise<void> {
  await db.execute(sql.raw(`vacuum full ${depersonalisedTables.join(', ')}`));
  // After the rewrite: the samples are taken from the live rows only, and pg_statistic's replaced
  // rows (the old samples) are then rewritten away before the WAL that carried them goes.
  await db.execute(analyzeDepersonalisedTables);
  await db.execute(sql.raw('vacuum full pg_statistic'));
  await db.execute(sql.raw('set wal_recycle = off'));
  await db.execute(sql.raw('checkpoint'));
  await db.execute(sql.raw('select pg_switch_wal()'));
  await db.execute(sql.raw('checkpoint'));
}

/**
 * Does the scrubs recorded in pending_scrubs and deletes their records; returns how many it did (0:
 * none recorded, or another instance holds them all).
 */
export async function scrubPending(db: Database, mode: Exclude<ScrubMode, 'off'>): Promise<number> {
  if (mode === 'embedded') {
    // One process has the data directory (data-dir-lock.ts) and one connection: nobody else claims.
    // VACUUM cannot run in a transaction, so the records read here are deleted only after it.
    const claimed = (await db.select({ id: pendingScrubs.id }).from(pendingScrubs)).map((record) => record.id);
    if (claimed.length === 0) return 0;
    await scrubFreedSpace(db);
    await db.delete(pendingScrubs).where(inArray(pendingScrubs.id, claimed));
    return claimed.length;
  }
  // ANALYZE runs in a transaction: the records stay locked until its statistics commit with their deletion.
  return db.transaction(async (tx) => {
    const claimed = (await tx.select({ id: pendingScrubs.id }).from(pendingScrubs).for('update', { skipLocked: true })).map(
      (record) => record.id,
    );
    if (claimed.length === 0) return 0;
    await tx.execute(analyzeDepersonalisedTables);
    await tx.delete(pendingScrubs).where(inArray(pendingScrubs.id, claimed));
    return claimed.length;
  });
}

const scrubbers = new WeakMap<Database, FreedSpaceScrubber>();

/** The database's one scrubber. */
export function freedSpaceScrubberFor(db: Database, mode: ScrubMode): FreedSpaceScrubber {
  const known = scrubbers.get(db);
  if (known) return known;
  let running: Promise<void> = Promise.resolve();
  let pending = false;
  let closed = false;
  // A run belongs to the server, not to the request that asked for it: bound to the context the
  // scrubber was made in (start-up), so that nothing of the request's async context (its write
  // scope, application-write-rule.ts) reaches the scrub's transaction.
  const run = AsyncResource.bind(async (log: FastifyBaseLogger) => {
    pending = false;
    if (closed || mode === 'off') return;
    const started = performance.now();
    try {
      const scrubbed = await scrubPending(db, mode);
      if (scrubbed > 0) log.info({ ms: Math.round(performance.now() - started), scrubbed }, 'freed space and statistics of depersonalised data scrubbed');
    } catch (error) {
      log.error({ err: error }, 'scrubbing the freed space of depersonalised data failed');
    }
  });
  const scrubber: FreedSpaceScrubber = {
    schedule(log) {
      if (mode === 'off' || pending || closed) return;
      pending = true;
      running = running.then(() => run(log));
    },
    idle: async () => {
      // A run scheduled while waiting chains onto `running`: wait until nothing is left.
      let current: Promise<void>;
      do {
        current = running;
        await current;
      } while (current !== running);
    },
    async close() {
      closed = true;
      await scrubber.idle();
    },
  };
  scrubbers.set(db, scrubber);
  return scrubber;
}
