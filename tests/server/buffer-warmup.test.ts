import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { warmListTables } from '../../server/db/buffer-warmup.ts';
import { sqlRunner } from '../../server/db/sql-runner.ts';
import { onPostgres, pgliteOnly } from './template.ts';

/** Pages that a scan of the table and one of its key read from files (not found in the buffer pool). */
async function pagesRead(db: Database) {
  const runner = sqlRunner(db);
  const readBy = async (scan: string) => {
    const plan = (await runner.textRows(`explain (analyze, buffers) ${scan}`, [])).map(([line]) => line ?? '');
    // The first Buffers line is the whole execution's; planning reads the catalogue, no business of the warm-up.
    return Number(/ read=(\d+)/.exec(plan.find((line) => line.trim().startsWith('Buffers:')) ?? '')?.[1] ?? 0);
  };
  return {
    table: await readBy('select count(account_name) from applications'),
    key: await readBy('select count(*) from (select id from applications where id > 0 order by id) as ids'),
  };
}

describe.skipIf(onPostgres)(pgliteOnly('warming the list tables after a start', 'restarts a PGlite data directory to empty its buffer pool'), () => {
  // A server's database on disk, seeded, then opened again as after a restart: its buffer pool is empty.
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'buffer-warmup-'));
    const seeding = await openDatabase({ dataDir: join(dir, 'db') });
    await seedDemo(seeding.db);
    await seeding.close();
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function withRestartedDatabase(use: (db: Database) => Promise<void>) {
    const handle = await openDatabase({ dataDir: join(dir, 'db') });
    try {
      await use(handle.db);
    } finally {
      await handle.close();
    }
  }

  it('reads the applications table and its key into the buffer pool', () =>
    withRestartedDatabase(async (db) => {
      const warmed = await warmListTables(db, { chunkPages: 7 });
      expect(warmed?.pages).toBeGreaterThan(0);
      expect(await pagesRead(db)).toEqual({ table: 0, key: 0 });
    }));

  it('leaves the pool alone when the tables would take too much of it', () =>
    withRestartedDatabase(async (db) => {
      expect(await warmListTables(db, { poolShare: 0 })).toBeUndefined();
      const cold = await pagesRead(db);
      expect(cold.table).toBeGreaterThan(0);
      expect(cold.key).toBeGreaterThan(0);
    }));
});
