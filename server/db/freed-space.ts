import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client.ts';

/**
 * After a depersonalise commits, the old values are still bytes on disk: dead row versions in the
 * table and index pages, and the write-ahead log (issue 27 point 4). PGlite has no autovacuum, so
 * on the embedded database this removes them: a VACUUM of every table depersonalise writes (their
 * indexes and TOAST with them) prunes the dead versions, and a checkpoint, a switch to a new WAL
 * segment and a second checkpoint, with WAL recycling off, delete the segments that held them
 * (a recycled segment would keep its old bytes under a new name).
 *
 * It runs after the answer, one run at a time, and the depersonalisations that arrive meanwhile
 * share the next run. On PGlite every statement waits for the one connection, so while it runs
 * other requests wait too: its cost is measured by bench/depersonalise-scrub.ts. On PostgreSQL
 * this is not done here: autovacuum removes dead versions and the server recycles WAL on its own
 * schedule (README "What depersonalisation leaves behind").
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

export interface FreedSpaceScrubber {
  /** Asks for a run after the current one (if any); returns at once. */
  schedule(log: FastifyBaseLogger): void;
  /** Resolves when no run is pending or running (tests, shutdown). */
  idle(): Promise<void>;
}

/** Runs the scrub once, now: for tests and the benchmark. */
export async function scrubFreedSpace(db: Database): Promise<void> {
  await db.execute(sql.raw(`vacuum full ${depersonalisedTables.join(', ')}`));
  await db.execute(sql.raw('set wal_recycle = off'));
  await db.execute(sql.raw('checkpoint'));
  await db.execute(sql.raw('select pg_switch_wal()'));
  await db.execute(sql.raw('checkpoint'));
}

const scrubbers = new WeakMap<Database, FreedSpaceScrubber>();

/** The database's one scrubber (on PostgreSQL one that does nothing). */
export function freedSpaceScrubberFor(db: Database, embedded: boolean): FreedSpaceScrubber {
  const known = scrubbers.get(db);
  if (known) return known;
  let running: Promise<void> = Promise.resolve();
  let pending = false;
  const scrubber: FreedSpaceScrubber = {
    schedule(log) {
      if (!embedded || pending) return;
      pending = true;
      running = running.then(async () => {
        pending = false;
        const started = performance.now();
        try {
          await scrubFreedSpace(db);
          log.info({ ms: Math.round(performance.now() - started) }, 'freed space of depersonalised data scrubbed');
        } catch (error) {
          log.error({ err: error }, 'scrubbing the freed space of depersonalised data failed');
        }
      });
    },
    idle: async () => {
      // A run scheduled while waiting chains onto `running`: wait until nothing is left.
      let current: Promise<void>;
      do {
        current = running;
        await current;
      } while (current !== running);
    },
  };
  scrubbers.set(db, scrubber);
  return scrubber;
}
