import type { Database } from './client.ts';
import { sqlRunner } from './sql-runner.ts';

export interface WarmupOptions {
  /** Pages read per query, so that requests get the database in between (about 20 ms each). */
  chunkPages?: number;
  /** Warm only when the tables take at most this share of the buffer pool (the rest is for indexes). */
  poolShare?: number;
}

const pageBytes = 8192;

/**
 * Reads the tables behind list pages into PGlite's buffer pool, once, after the server starts.
 *
 * PGlite reads each page it does not hold through the WASM file system, and its pool starts empty:
 * until it fills, every row a list page shows is a page read (rows of a sorted list are scattered
 * over the table). Read in advance, the applications table and its primary key (how rows are
 * fetched by id) are hits from the first request on. The table is read by ranges of its pages: a
 * sequential scan of a table this size would go through a small ring of buffers and keep nothing.
 *
 * Only when both fit in a share of the pool (otherwise they would evict each other), and only on
 * PGlite: PostgreSQL keeps its cache across restarts of this server.
 */
export async function warmListTables(db: Database, options: WarmupOptions = {}): Promise<{ pages: number; ms: number } | undefined> {
  const runner = sqlRunner(db);
  if (runner.kind !== 'pglite') return undefined;
  const started = performance.now();
  const chunkPages = options.chunkPages ?? 2_000;
  const [sizes] = await runner.textRows(
    `select (select setting from pg_settings where name = 'shared_buffers'),
            (pg_relation_size('applications') / ${pageBytes})::text,
            (pg_relation_size('applications_pkey') / ${pageBytes})::text`,
    [],
  );
  const [poolPages, tablePages, keyPages] = (sizes ?? []).map(Number);
  if (!poolPages || tablePages === undefined || keyPages === undefined) return undefined;
  if (tablePages + keyPages > poolPages * (options.poolShare ?? 0.75)) return undefined;

  for (let first = 0; first < tablePages; first += chunkPages) {
    await runner.textRows(
      `select count(*)::text from applications where ctid >= '(${first},0)'::tid and ctid < '(${first + chunkPages},0)'::tid`,
      [],
    );
  }
  // The key in id order, a chunk of ids at a time (an index-only scan reads its leaf pages).
  const idsPerChunk = chunkPages * 200;
  for (let after = 0; ; ) {
    const [chunk] = await runner.textRows(
      `select count(*)::text, max(id)::text from (select id from applications where id > $1 order by id limit ${idsPerChunk}) as chunk`,
      [after],
    );
    if (!chunk?.[1]) break;
    after = Number(chunk[1]);
  }
  return { pages: tablePages + keyPages, ms: performance.now() - started };
}
