import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness.ts';
import { expectedOrder, matches, ownerUserIds, tenantApplications, type AppRow, type OracleFilters } from './applications-fixtures.ts';
import { createListEngine, type ListEngineOptions, type ListScope } from '../../server/db/applications-list.ts';
import { listPageJson } from '../../server/db/list-rows.ts';
import { applications } from '../../server/db/schema.ts';
import { ApplicationListResponseSchema } from '../../src/schemas/applications.schema.ts';
import { parseListRequest, type RawListQuery } from '../../src/domain/list-request.ts';
import type { DataColumnName } from '../../src/domain/list-columns.ts';

/**
 * Issue 33: a list is brought up to the data's version by re-placing the rows the writes changed
 * (catchUp in applications-list.ts, migrations 0022 and 0023), not read or counted again. Each write
 * below moves a row along the sort, out of the list, into it, or changes only what a list does not
 * sort or filter by; after each, every page of every list is exactly the data's for the person who
 * wrote, and the engine read no list again (no whole page, seek chunk or count). A change of owners
 * names no rows: the lists are read again.
 */
let server: TestServer;
let apps: AppRow[];
let owners: Map<string, string>;
beforeAll(async () => {
  server = await startTestServer();
  apps = await tenantApplications(server);
  owners = await ownerUserIds(server);
});
afterAll(() => server.close());

interface Case {
  name: string;
  raw: RawListQuery;
  filters: OracleFilters;
  mine?: boolean;
}

const cases: Case[] = [
  { name: 'by account name', raw: { sortBy: 'AccountName', sortType: 'asc' }, filters: {} },
  { name: 'newest first', raw: { sortBy: 'CreatedDate', sortType: 'desc' }, filters: {} },
  { name: 'a status filter', raw: { sortBy: 'ClientName', sortType: 'desc', status: '["Complete"]' }, filters: { status: ['Complete'] } },
  { name: 'a search', raw: { q: 'a', sortBy: 'AccountName', sortType: 'desc' }, filters: { q: 'a' } },
  { name: 'My Apps by id', raw: { sortBy: 'ID', sortType: 'asc' }, filters: {}, mine: true },
];
const rowsPerPage = 25;

/**
 * How the engine holds the lists: whole (a small tenant's), or as a million-row tenant's are, the
 * first and last keyset chunks with TotalRows counted apart (migration 0023: the count moves by the
 * changed rows' delta, from their old rows) and OFFSET for the pages between.
 */
const holdings: { name: string; options: ListEngineOptions }[] = [
  { name: 'held whole', options: {} },
  { name: 'held in keyset chunks', options: { materializeMax: 0, minChunk: 37, maxChunk: 90, chunkTargetMs: 0.001, maxExtension: 400 } },
];

describe('lists caught up by the rows a write changed', () => {
  it.each(holdings)('gives every page of every list exactly as the data is after each write, without reading a list again: $name', async ({ options }) => {
    const owner = apps.find((row) => row.ownerId && owners.has(row.ownerId) && row.status === 'Complete')!;
    const userId = owners.get(owner.ownerId!)!;
    const engine = createListEngine(server.db, options);
    const lists = cases.map((list) => {
      const scope: ListScope = list.mine ? { kind: 'mine', userId } : { kind: 'instance' };
      const visible = (row: AppRow) => !list.mine || owners.get(row.ownerId ?? '') === userId || row.assigneeUserId === userId;
      const expected = (rows: AppRow[]) =>
        expectedOrder(rows.filter((row) => visible(row) && matches(row, list.filters)), list.raw.sortBy as DataColumnName, list.raw.sortType === 'asc' ? 'asc' : 'desc');
      const read = async (pageNo: number) => {
        const parsed = parseListRequest({ ...list.raw, pageNo: String(pageNo), rowsPerPage: String(rowsPerPage) });
        if (!parsed.ok) throw new Error(parsed.message);
        return ApplicationListResponseSchema.parse(JSON.parse(listPageJson(await engine.page({ ...parsed.value, tenantId: 'demo', scope, reader: 'reader' }))));
      };
      return { ...list, expected, read };
    });
    /** Every page of every list against the data as it is now. */
    const checkAll = async (after: string) => {
      const now = await tenantApplications(server);
      for (const list of lists) {
        const ids = list.expected(now);
        const pages = Math.max(1, Math.ceil(ids.length / rowsPerPage));
        for (let pageNo = 1; pageNo <= pages; pageNo++) {
          const page = await list.read(pageNo);
          expect(page.TotalRows, `${list.name} after ${after}`).toBe(ids.length);
          expect(page.Applications.map((row) => row.ApplicationID), `${list.name}, page ${pageNo}, after ${after}`).toEqual(
            ids.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage),
          );
          // And each row as it is now: rows kept across versions lose only those the writes changed.
          const byId = new Map(now.map((row) => [row.id, row]));
          expect(
            page.Applications.map((row) => [row.AccountName, row.PromoCode, row.Status]),
            `${list.name}, rows of page ${pageNo}, after ${after}`,
          ).toEqual(page.Applications.map((row) => [byId.get(row.ApplicationID)?.accountName, byId.get(row.ApplicationID)?.promoCode, byId.get(row.ApplicationID)?.status]));
        }
      }
    };
    await checkAll('the first read');
    const reads = () => {
      const { seekChunks, countMisses, wholePages } = engine.stats();
      return { seekChunks, countMisses, wholePages };
    };
    const listed = expectedOrder(apps.filter((row) => matches(row, {})), 'AccountName', 'asc');
    const cancelled = apps.find((row) => row.status === 'Cancelled' && row.ownerId === owner.ownerId) ?? apps.find((row) => row.status === 'Cancelled')!;
    const [first, second, middle] = [listed[0]!, listed[1]!, listed[Math.floor(listed.length / 2)]!];
    const writes: [string, () => Promise<unknown>][] = [
      ['a rename to the front', () => server.db.update(applications).set({ accountName: '0000 first now', clientName: 'Aardvark Smith' }).where(eq(applications.id, middle))],
      ['a rename to the end', () => server.db.update(applications).set({ accountName: 'zzzz last now' }).where(eq(applications.id, first))],
      ['a cancel', () => server.db.update(applications).set({ status: 'Cancelled' }).where(eq(applications.id, second))],
      ['an application listed again', () => server.db.update(applications).set({ status: 'Complete' }).where(eq(applications.id, cancelled.id))],
      ['a change no list sorts or filters by', () => server.db.update(applications).set({ promoCode: 'CATCHUP' }).where(eq(applications.id, owner.id))],
      ['two writes at once', () => server.db.execute(sql`update applications set account_name = account_name || ' again' where id in (${middle}, ${owner.id})`)],
    ];
    try {
      for (const [name, write] of writes) {
        const before = reads();
        await write();
        // The writer reads next (the route notes each answered write): never a page older than their write.
        engine.noteWrite('demo', 'reader');
        await checkAll(name);
        expect(reads(), `no list read again after ${name}`).toEqual(before);
      }
      expect(engine.stats().catchUps).toBeGreaterThanOrEqual(writes.length);

      // A change of owners names no rows (NULL in application_list_changes): the lists are read again.
      const before = reads();
      await server.db.execute(sql`update application_owners set display_name = display_name where id = ${owner.ownerId}`);
      engine.noteWrite('demo', 'reader');
      await checkAll('a change of owners');
      const after = reads();
      expect(after.wholePages + after.countMisses, 'lists read whole or counted again').toBeGreaterThan(before.wholePages + before.countMisses);
    } finally {
      for (const id of [first, second, middle, owner.id, cancelled.id]) {
        const row = apps.find((candidate) => candidate.id === id)!;
        await server.db
          .update(applications)
          .set({ accountName: row.accountName, clientName: row.clientName, status: row.status, promoCode: row.promoCode })
          .where(eq(applications.id, id));
      }
    }
  });

  it('places a row changed by more statements than a catch-up re-places rows (one id, many versions)', async () => {
    const engine = createListEngine(server.db);
    const read = async () => {
      const parsed = parseListRequest({ sortBy: 'AccountName', sortType: 'asc', pageNo: '1', rowsPerPage: '25' });
      if (!parsed.ok) throw new Error(parsed.message);
      return ApplicationListResponseSchema.parse(JSON.parse(listPageJson(await engine.page({ ...parsed.value, tenantId: 'demo', scope: { kind: 'instance' }, reader: 'writer' }))));
    };
    await read();
    const target = expectedOrder(apps.filter((row) => matches(row, {})), 'AccountName', 'asc')[40]!;
    const original = apps.find((row) => row.id === target)!;
    try {
      // 250 statements (versions) naming one id: more change rows than maxCatchUpRows, one distinct id.
      for (let write = 0; write < 250; write++) await server.db.update(applications).set({ accountName: `0000 moved ${write}` }).where(eq(applications.id, target));
      engine.noteWrite('demo', 'writer');
      const page = await read();
      const expected = expectedOrder((await tenantApplications(server)).filter((row) => matches(row, {})), 'AccountName', 'asc');
      expect(page.TotalRows).toBe(expected.length);
      expect(page.Applications.map((row) => row.ApplicationID)).toEqual(expected.slice(0, 25));
      expect(page.Applications[0]?.ApplicationID).toBe(target);
    } finally {
      await server.db.update(applications).set({ accountName: original.accountName }).where(eq(applications.id, target));
    }
  });
});
