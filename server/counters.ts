import type { Database } from './db/client.ts';
import { sqlRunner } from './db/sql-runner.ts';

/*
 * Fixed-window counters behind every request limit and the failed sign-ins per address
 * (server/rate-limits.ts). With DATABASE_URL several instances share one PostgreSQL, so the counts
 * live there and every instance sees the same ones (issue 27 point 10): N instances no longer
 * allow N times the guesses. PGlite is one process, so its counters stay in memory.
 */

export interface WindowCount {
  /** Hits in the key's current window, this one included. */
  hits: number;
  /** Whole seconds until the window ends (at least 1). */
  resetInSeconds: number;
}

export interface WindowCounters {
  /** Counts one hit against `key` (or only reads it with `peek`) in a window of `windowMs`. */
  hit(key: string, windowMs: number, options?: { peek?: boolean }): Promise<WindowCount>;
}

const secondsUntil = (resetsAt: number, now: number) => Math.max(1, Math.ceil((resetsAt - now) / 1000));

/** Keys kept before expired ones are swept (a flood of new addresses cannot grow the map for long). */
const maxMemoryKeys = 100_000;

export function memoryCounters(now: () => number = Date.now): WindowCounters {
  const counts = new Map<string, { hits: number; resetsAt: number }>();
  const sweep = (at: number) => {
    for (const [key, count] of counts) if (count.resetsAt <= at) counts.delete(key);
    // Still full of live windows: forget the oldest keys first (a Map iterates in insertion order).
    for (const key of counts.keys()) {
      if (counts.size <= maxMemoryKeys) break;
      counts.delete(key);
    }
  };
  return {
    async hit(key, windowMs, { peek = false } = {}) {
      const at = now();
      let count = counts.get(key);
      if (!count || count.resetsAt <= at) {
        if (peek) return { hits: 0, resetInSeconds: secondsUntil(at + windowMs, at) };
        count = { hits: 0, resetsAt: at + windowMs };
        counts.set(key, count);
        if (counts.size > maxMemoryKeys) sweep(at);
      }
      if (!peek) count.hits++;
      return { hits: count.hits, resetInSeconds: secondsUntil(count.resetsAt, at) };
    },
  };
}

/** Hits between two sweeps of expired rows. */
const sweepEvery = 1_000;

/** Counters in `rate_limit_counters`: one upsert per hit, the window restarted in the same statement when it has ended. */
export function databaseCounters(db: Database): WindowCounters {
  const runner = sqlRunner(db);
  let sinceSweep = 0;
  return {
    async hit(key, windowMs, { peek = false } = {}) {
      if (peek) {
        const [row] = await runner.textRows(
          `select hits::text, ceil(extract(epoch from resets_at - now()))::int::text from rate_limit_counters where key = $1 and resets_at > now()`,
          [key],
        );
        return row ? { hits: Number(row[0]), resetInSeconds: Math.max(1, Number(row[1])) } : { hits: 0, resetInSeconds: Math.ceil(windowMs / 1000) };
      }
      if (++sinceSweep >= sweepEvery) {
        sinceSweep = 0;
        await runner.textRows(`delete from rate_limit_counters where resets_at < now() - interval '1 minute'`, []);
      }
      const [row] = await runner.preparedTextRows(
        'rate_limit_hit',
        `insert into rate_limit_counters as c (key, hits, resets_at) values ($1, 1, now() + $2::int * interval '1 millisecond')
         on conflict (key) do update set
           hits = case when c.resets_at <= now() then 1 else c.hits + 1 end,
           resets_at = case when c.resets_at <= now() then excluded.resets_at else c.resets_at end
         returning hits::text, ceil(extract(epoch from resets_at - now()))::int::text`,
        [key, windowMs],
      );
      return { hits: Number(row?.[0] ?? 1), resetInSeconds: Math.max(1, Number(row?.[1] ?? 1)) };
    },
  };
}

/** The counters for this deployment: shared in PostgreSQL with DATABASE_URL, in memory on PGlite. */
export const countersFor = (db: Database, databaseUrl: string | undefined): WindowCounters =>
  databaseUrl ? databaseCounters(db) : memoryCounters();
