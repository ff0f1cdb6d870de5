import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness.ts';
import { expectedOrder, matches, ownerUserIds, tenantApplications, type AppRow, type OracleFilters } from './applications-fixtures.ts';
import { createListEngine, type ListEngineOptions, type ListScope } from '../../server/db/applications-list.ts';
import { listPageJson } from '../../server/db/list-rows.ts';
import type { Database } from '../../server/db/client.ts';
import { applications } from '../../server/db/schema.ts';
import { ApplicationListResponseSchema } from '../../src/schemas/applications.schema.ts';
import { parseListRequest, type RawListQuery } from '../../src/domain/list-request.ts';
import type { DataColumnName } from '../../src/domain/list-columns.ts';

/**
 * A list page answers under a steady stream of writes (the soak's 500s: every write bumps the data
 * version, and a page whose reads kept meeting a newer version gave up with StaleVersion). Here a
 * write lands before every statement the engine sends, so no two of its reads ever see the same
 * version: every page must still answer, and be a whole page of one state of the data.
 *
 * The write toggles one application between its status and Cancelled, so the data alternates
 * between two states, A (listed) and B (cancelled), each with its own oracle. A page mixing them
 * (a count of A with the ids of B, the ids of A with the rows of B) matches neither.
 */
let server: TestServer;
let apps: AppRow[];
let owners: Map<string, string>;
let target: AppRow;
beforeAll(async () => {
  server = await startTestServer();
  apps = await tenantApplications(server);
  owners = await ownerUserIds(server);
  // A listed application with an owner and a status of its own, in the middle of the table, found by every case's search.
  const listed = apps
    .filter((row) => row.status === 'Complete' && row.ownerId && owners.has(row.ownerId) && matches(row, { q: 'a' }))
    .sort((a, b) => a.id - b.id);
  target = listed[Math.floor(listed.length / 2)]!;
});
afterAll(() => server.close());

interface Injection {
  db: Database;
  /** Writes made so far (odd: the target is cancelled). */
  writes(): number;
  stop(): Promise<void>;
}

const toggle = (id: number, status: string) =>
  `update applications set status = case when status = 'Cancelled' then '${status}' else 'Cancelled' end where id = ${id}`;

/**
 * The database as the engine sees it, with a write of `sql` sent before each of its statements
 * (query and exec on PGlite, query on a node-postgres pool), until stop().
 */
function writingBeforeEveryStatement(db: Database, sql: string): Injection {
  const client = Reflect.get(db, '$client') as Record<string, unknown> & { query(text: string): Promise<unknown> };
  let writes = 0;
  let writing = true;
  const inFlight = new Set<Promise<unknown>>();
  const wrapped = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'query' && property !== 'exec') return value.bind(target);
      return async (...args: unknown[]) => {
        if (writing) {
          const write = target.query(sql).then(() => writes++);
          inFlight.add(write);
          await write.finally(() => inFlight.delete(write));
        }
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const proxied = new Proxy(db, { get: (target, property, receiver) => (property === '$client' ? wrapped : Reflect.get(target, property, receiver)) });
  return {
    db: proxied,
    writes: () => writes,
    async stop() {
      writing = false;
      // A background refresh's statement may have sent its write just before: count it first.
      await Promise.all(inFlight);
      // Back to state A.
      if (writes % 2 === 1) await client.query(sql);
    },
  };
}

const tiny: ListEngineOptions = { materializeMax: 0, minChunk: 37, maxChunk: 90, chunkTargetMs: 0.001, maxExtension: 400 };

interface Case {
  name: string;
  raw: RawListQuery;
  filters: OracleFilters;
  scope: 'instance' | 'mine';
  options: ListEngineOptions;
}

const cases: Case[] = [
  { name: 'whole lists', raw: { sortBy: 'ClientName', sortType: 'asc' }, filters: {}, scope: 'instance', options: {} },
  { name: 'keyset chunks and OFFSET', raw: { sortBy: 'DateCompleted', sortType: 'desc' }, filters: {}, scope: 'instance', options: tiny },
  { name: 'a status filter', raw: { sortBy: 'ID', sortType: 'asc', status: '["Complete"]' }, filters: { status: ['Complete'] }, scope: 'instance', options: tiny },
  { name: 'a search', raw: { q: 'a', sortBy: 'AccountName', sortType: 'desc' }, filters: { q: 'a' }, scope: 'instance', options: {} },
  { name: 'My Apps', raw: { sortBy: 'InvestmentAmount', sortType: 'asc' }, filters: {}, scope: 'mine', options: tiny },
];

describe('list pages under a write before every statement', () => {
  for (const { name, raw, filters, scope: scopeKind, options } of cases) {
    it(`answers every page with one state of the data: ${name}`, async () => {
      const userId = owners.get(target.ownerId!)!;
      const scope: ListScope = scopeKind === 'mine' ? { kind: 'mine', userId } : { kind: 'instance' };
      const visible = (row: AppRow) => scopeKind === 'instance' || owners.get(row.ownerId ?? '') === userId || row.assigneeUserId === userId;
      const oracle = (state: AppRow[]) =>
        expectedOrder(
          state.filter((row) => visible(row) && matches(row, filters)),
          (raw.sortBy ?? 'ID') as DataColumnName,
          raw.sortType === 'asc' ? 'asc' : 'desc',
        );
      const stateA = oracle(apps);
      const stateB = oracle(apps.map((row) => (row.id === target.id ? { ...row, status: 'Cancelled' } : row)));
      expect(stateA).toContain(target.id);
      expect(stateB).toHaveLength(stateA.length - 1);

      const injection = writingBeforeEveryStatement(server.db, toggle(target.id, target.status));
      const engine = createListEngine(injection.db, { ...options, refreshAfterMs: 0 });
      const rowsPerPage = 13;
      const read = async (pageNo: number, reader = 'one') => {
        const parsed = parseListRequest({ ...raw, pageNo: String(pageNo), rowsPerPage: String(rowsPerPage) });
        if (!parsed.ok) throw new Error(parsed.message);
        const page = await engine.page({ ...parsed.value, tenantId: 'demo', scope, reader });
        return { pageNo, ...ApplicationListResponseSchema.parse(JSON.parse(listPageJson(page))) };
      };
      const check = ({ pageNo, TotalRows, MaxPage, Applications }: Awaited<ReturnType<typeof read>>) => {
        const ids = Applications.map((row) => row.ApplicationID);
        const state = TotalRows === stateA.length ? stateA : stateB;
        expect(TotalRows, `page ${pageNo}`).toBeOneOf([stateA.length, stateB.length]);
        expect(MaxPage).toBe(Math.max(1, Math.ceil(state.length / rowsPerPage)));
        expect(ids, `page ${pageNo} of ${TotalRows}`).toEqual(state.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage));
        for (const row of Applications) {
          expect(row.Status).not.toBe('Cancelled');
          if (filters.status) expect(filters.status).toContain(row.Status);
        }
      };

      const maxPage = Math.ceil(stateA.length / rowsPerPage);
      try {
        // One after another, then all at once (requests interleave their statements and the writes).
        for (const pageNo of [1, 2, maxPage, Math.ceil(maxPage / 2), 3, maxPage + 1]) check(await read(pageNo));
        const pageNos = Array.from({ length: 12 }, (_, index) => 1 + ((index * 5) % maxPage));
        for (const page of await Promise.all(pageNos.map((pageNo, index) => read(pageNo, `reader ${index}`)))) check(page);
        expect(injection.writes()).toBeGreaterThan(20);
      } finally {
        await injection.stop();
      }

      // Once the writes stop, the caches are brought up to the data as it is (state A): in the
      // background, started by the first page served from them (refreshAfterMs 0), or at once. A
      // refresh started while the writes went on is of an earlier version: it ends first.
      await engine.refreshed();
      await read(1);
      await engine.refreshed();
      for (const pageNo of [1, 2, maxPage]) {
        const page = await read(pageNo);
        expect(page.TotalRows).toBe(stateA.length);
        expect(page.Applications.map((row) => row.ApplicationID)).toEqual(stateA.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage));
      }
      const before = engine.stats();
      for (const pageNo of [1, 2, maxPage]) {
        const page = await read(pageNo, 'again');
        expect(page.Applications.map((row) => row.ApplicationID)).toEqual(stateA.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage));
      }
      expect(engine.stats().countMisses).toBe(before.countMisses);
      expect(engine.stats().seekChunks).toBe(before.seekChunks);
    });
  }

  it('leaves the data as it was', async () => {
    const [row] = await server.db.select().from(applications).where(eq(applications.id, target.id));
    expect(row?.status).toBe(target.status);
  });
});
