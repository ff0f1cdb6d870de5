import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { openPgliteThread, type PgliteThread } from '../../server/db/pglite-thread.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { tenants } from '../../server/db/schema.ts';
import { sqlRunner } from '../../server/db/sql-runner.ts';
import { onPostgres, pgliteOnly } from './template.ts';

// The server's PGlite runs on a worker thread; these tests hold the thread to PGlite's own behaviour.
describe.skipIf(onPostgres)(pgliteOnly('PGlite on a worker thread', 'tests the PGlite worker thread itself'), () => {
  let dir: string;
  let thread: PgliteThread;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pglite-thread-'));
    thread = await openPgliteThread(join(dir, 'raw'));
    await thread.exec('create table items (id int primary key, name text not null, at timestamptz)');
  }, 60_000);
  afterAll(async () => {
    await thread.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers queries with parameters, in object and array form, and exec with several statements', async () => {
    await thread.query('insert into items values ($1, $2, $3)', [1, 'one', '2026-01-02T03:04:05Z']);
    expect((await thread.query('select id, name from items where id = $1', [1])).rows).toEqual([{ id: 1, name: 'one' }]);
    expect((await thread.query('select id, name from items', [], { rowMode: 'array' })).rows).toEqual([[1, 'one']]);
    const results = await thread.exec('select 1 as a; select 2 as b');
    expect(results.map((result) => result.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
  });

  it('writes no full-page images: with fsync off they protect nothing and cost a page per index written', async () => {
    const { rows } = await thread.query(`select name, setting from pg_settings where name in ('fsync', 'full_page_writes') order by name`);
    expect(rows).toEqual([
      { name: 'fsync', setting: 'off' },
      { name: 'full_page_writes', setting: 'off' },
    ]);
  });

  it("keeps a type's text when the caller's parser keeps it (Drizzle's dates), and refuses any other parser", async () => {
    const { rows } = await thread.query('select at from items where id = 1', [], { parsers: { 1184: (value: string) => value } });
    expect(rows).toEqual([{ at: '2026-01-02 03:04:05+00' }]);
    await expect(thread.query('select 1', [], { parsers: { 1184: (value: string) => value.length } })).rejects.toThrow(/keep the text/);
  });

  it("rejects with the database's error and its SQLSTATE code", async () => {
    const failure = await thread.query('insert into items values (1, $1)', ['again']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ code: '23505', message: expect.stringContaining('duplicate key') });
  });

  it('commits a transaction, rolls one back when its callback throws, and makes other queries wait for it', async () => {
    let outsideSaw: unknown;
    let outside: Promise<unknown> | undefined;
    await thread.transaction(async (tx) => {
      await tx.query("insert into items values (2, 'two')");
      // A query from outside queues behind the transaction, as on PGlite in-process.
      outside = thread.query('select count(*)::int as n from items').then((result) => (outsideSaw = result.rows[0]));
      await tx.query("insert into items values (3, 'three')");
      expect(outsideSaw).toBeUndefined();
    });
    await outside;
    expect(outsideSaw).toEqual({ n: 3 });

    await expect(
      thread.transaction(async (tx) => {
        await tx.query("insert into items values (4, 'four')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await thread.transaction(async (tx) => {
      await tx.query("insert into items values (5, 'five')");
      await tx.rollback();
    });
    expect((await thread.query('select id from items order by id', [], { rowMode: 'array' })).rows).toEqual([[1], [2], [3]]);
  });

  it('hands a notification over before the statement that sent it returns', async () => {
    const heard: string[] = [];
    await thread.listen('thread_test', (payload) => heard.push(payload));
    await thread.exec("notify thread_test, 'first'");
    expect(heard).toEqual(['first']);
    await thread.transaction(async (tx) => {
      await tx.exec("notify thread_test, 'second'");
      expect(heard).toEqual(['first']);
    });
    expect(heard).toEqual(['first', 'second']);
  });

  it('moves COPY data both ways', async () => {
    await thread.query("copy items (id, name) from '/dev/blob'", [], { blob: new Blob(['10\tten\n11\televen\n']) });
    const { blob } = await thread.query("copy (select id, name from items where id >= 10 order by id) to '/dev/blob'");
    expect(await blob?.text()).toBe('10\tten\n11\televen\n');
  });

  it('refuses a second opener of its data directory while it runs', async () => {
    await expect(openPgliteThread(join(dir, 'raw'))).rejects.toThrow(`in use by process ${process.pid}`);
  });

  it('dumps a data directory that PGlite opens in-process', async () => {
    const copy = await PGlite.create({ loadDataDir: await thread.dumpDataDir('gzip') });
    expect((await copy.query('select count(*)::int as n from items')).rows).toEqual([{ n: 5 }]);
    await copy.close();
  });
});

describe.skipIf(onPostgres)(pgliteOnly('closing', 'closes the PGlite worker thread'), () => {
  it('lets the operations already asked for answer first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-close-'));
    try {
      const thread = await openPgliteThread(join(dir, 'db'));
      const asked = [thread.listen('closing_test', () => undefined), thread.query('select 1 as one')];
      await thread.close();
      const [, result] = await Promise.all(asked);
      expect(result).toMatchObject({ rows: [{ one: 1 }] });
      await expect(thread.query('select 1')).rejects.toThrow('closed');
      // A second close (SIGTERM sent to npm start and to the server both) is no error.
      await expect(thread.close()).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(onPostgres)(pgliteOnly('the data directory lock', 'the lock of a PGlite data directory'), () => {
  it('is given back on close, and taken over from a process that is gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-lock-'));
    const dataDir = join(dir, 'db');
    try {
      const first = await openPgliteThread(dataDir);
      await first.close();
      // A crash leaves the lock behind with the pid of a process that no longer runs.
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      await writeFile(`${dataDir}.lock`, String(gone));
      const second = await openPgliteThread(dataDir);
      expect(await readFile(`${dataDir}.lock`, 'utf8')).toBe(String(process.pid));
      await second.close();
      // A crashed process that had this process's pid: the lock names us, but we never took it.
      await writeFile(`${dataDir}.lock`, String(process.pid));
      const third = await openPgliteThread(dataDir);
      await third.close();
      await expect(readFile(`${dataDir}.lock`, 'utf8')).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(onPostgres)(pgliteOnly('openDatabase on a data directory', 'opens a PGlite data directory'), () => {
  let dir: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pglite-db-'));
    handle = await openDatabase({ dataDir: dir });
  }, 60_000);
  afterAll(async () => {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the migrations and Drizzle and the SQL runner over the thread', async () => {
    const brand = { logoUrl: '', primaryColor: '#000', secondaryColor: '#fff', supportEmail: '', supportPhone: '', helpUrl: '' };
    await handle.db.insert(tenants).values({ id: 'thread', name: 'Thread tenant', ...brand });
    expect(await handle.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, 'thread'))).toEqual([{ name: 'Thread tenant' }]);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.update(tenants).set({ name: 'Renamed' }).where(eq(tenants.id, 'thread'));
        tx.rollback();
      }),
    ).rejects.toThrow();
    const runner = sqlRunner(handle.db);
    expect(await runner.textRows('select name from tenants where id = $1', ['thread'])).toEqual([['Thread tenant']]);
    const batch = await runner.bulkTextRows('select id, name from tenants where id = $1', ['thread']);
    expect(batch.row(0)).toEqual(['thread', 'Thread tenant']);
    // Ids come back exactly and in row order, well past 32 bits.
    const big = 2 ** 52 + 7;
    const ids = await runner.idList('select unnest($1::bigint[])', [`{3,1,${big},4294967296,2}`]);
    expect([...ids]).toEqual([3, 1, big, 4294967296, 2]);
    expect([...(await runner.idList('select 1::bigint where false', []))]).toEqual([]);
  });

  // Issue 11: Drizzle's queries carry parser functions; PGlite's error carried them back and the
  // worker died cloning it, so one NUL byte stopped the database for every later request.
  it('answers a failing query that Drizzle sent with parsers, and keeps working', async () => {
    const failure = await handle.db
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.name, 'a\u0000b'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(await handle.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, 'thread'))).toHaveLength(1);
  });

  it('rolls back and answers a transaction whose query fails', async () => {
    const failure = await handle.db
      .transaction(async (tx) => {
        await tx.update(tenants).set({ name: 'Half done' }).where(eq(tenants.id, 'thread'));
        await tx.update(tenants).set({ name: 'a\u0000b' }).where(eq(tenants.id, 'thread'));
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(await handle.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, 'thread'))).toEqual([{ name: 'Thread tenant' }]);
  });
});

describe.skipIf(onPostgres)(pgliteOnly('supervision', 'restarts a dead PGlite worker thread'), () => {
  it('starts a new thread on the same data directory when the thread dies, and listens again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-crash-'));
    try {
      const thread = await openPgliteThread(join(dir, 'db'));
      await thread.exec('create table kept (n int)');
      await thread.query('insert into kept values (1)');
      const heard: string[] = [];
      await thread.listen('after_crash', (payload) => heard.push(payload));
      await thread.terminate();
      expect((await thread.query('select n from kept')).rows).toEqual([{ n: 1 }]);
      expect(thread.restarts).toBe(1);
      await thread.query("select pg_notify('after_crash', 'again')");
      expect(heard).toEqual(['again']);
      await thread.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
