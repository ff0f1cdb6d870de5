import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, ne } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from './harness.ts';
import { expectedOrder, matches, tenantApplications, type AppRow, type OracleFilters } from './applications-fixtures.ts';
import { createListEngine, type ListEngine, type ListEngineOptions } from '../../server/db/applications-list.ts';
import { listPageJson } from '../../server/db/list-rows.ts';
import { ApplicationListResponseSchema } from '../../src/schemas/applications.schema.ts';
import { exportApplicationsCsv } from '../../server/db/applications-export.ts';
import { applications, products } from '../../server/db/schema.ts';
import { parseListRequest, type RawListQuery } from '../../src/domain/list-request.ts';
import type { DataColumnName } from '../../src/domain/list-columns.ts';

/**
 * The list engine's three ways to a page — whole lists, keyset chunks from either end, OFFSET in the
 * middle of a huge list — forced on the demo data with tiny thresholds, against the oracle. (With
 * the real thresholds a few thousand rows always take the first way.)
 */
let server: TestServer;
let apps: AppRow[];
beforeAll(async () => {
  server = await startTestServer();
  apps = await tenantApplications(server);
});
afterAll(() => server.close());

const tiny: ListEngineOptions = { materializeMax: 0, minChunk: 37, maxChunk: 90, chunkTargetMs: 0.001, maxExtension: 400 };

function request(raw: RawListQuery) {
  const parsed = parseListRequest(raw);
  if (!parsed.ok) throw new Error(parsed.message);
  return { ...parsed.value, tenantId: 'demo', scope: { kind: 'instance' } as const };
}

/** A page as a client reads it: the response text parsed with the response schema. */
const read = async (engine: ListEngine, raw: RawListQuery) =>
  ApplicationListResponseSchema.parse(JSON.parse(listPageJson(await engine.page(request(raw)))));

const oracleOf = (raw: RawListQuery, filters: OracleFilters) =>
  expectedOrder(
    apps.filter((row) => matches(row, filters)),
    (raw.sortBy ?? 'ID') as DataColumnName,
    (raw.sortType ?? 'desc') === 'asc' ? 'asc' : 'desc',
  );

const cases: { raw: RawListQuery; filters: OracleFilters }[] = [
  { raw: { sortBy: 'AccountName', sortType: 'asc' }, filters: {} },
  { raw: { sortBy: 'DateCompleted', sortType: 'desc' }, filters: {} },
  { raw: { sortBy: 'Products', sortType: 'asc', status: '["Complete","Adviser edit"]' }, filters: { status: ['Complete', 'Adviser edit'] } },
  { raw: { sortBy: 'InvestmentAmount', sortType: 'desc', label: '["", "Urgent"]' }, filters: { label: ['', 'Urgent'] } },
  { raw: { q: 'a', sortBy: 'ClientName', sortType: 'asc' }, filters: { q: 'a' } },
];

describe('keyset chunks, backward lists and OFFSET', () => {
  for (const { raw, filters } of cases) {
    it(`serves every page right for ${JSON.stringify(raw)}`, async () => {
      const engine = createListEngine(server.db, tiny);
      const expected = oracleOf(raw, filters);
      const rowsPerPage = 13;
      const maxPage = Math.ceil(expected.length / rowsPerPage);
      // Front, back, the far middle (OFFSET), then pages next to what was read.
      const pages = [1, maxPage, Math.ceil(maxPage / 2), 2, maxPage - 1, 40, maxPage - 40, 3, maxPage + 1];
      for (const pageNo of pages) {
        const page = await read(engine, { ...raw, pageNo: String(pageNo), rowsPerPage: String(rowsPerPage) });
        expect(page.TotalRows).toBe(expected.length);
        expect(page.MaxPage).toBe(maxPage);
        expect(page.Applications.map((row) => row.ApplicationID)).toEqual(expected.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage));
      }
      const stats = engine.stats();
      if (!raw.q) {
        expect(stats.seekChunks).toBeGreaterThan(2);
        expect(stats.offsetFallbacks).toBeGreaterThan(0);
      }
    });
  }

  it('gives every concurrent request the right page while chunks are being read', async () => {
    const engine = createListEngine(server.db, tiny);
    const raw = { sortBy: 'ClientName', sortType: 'desc' } as const;
    const expected = oracleOf(raw, {});
    const pageNos = Array.from({ length: 40 }, (_, index) => 1 + ((index * 7) % 30));
    const pages = await Promise.all(pageNos.map((pageNo) => read(engine, { ...raw, pageNo: String(pageNo) })));
    pages.forEach((page, index) => {
      const pageNo = pageNos[index]!;
      expect(page.Applications.map((row) => row.ApplicationID)).toEqual(expected.slice((pageNo - 1) * 20, pageNo * 20));
    });
  });

  it('answers from its caches until the data changes, whoever changes it', async () => {
    const engine = createListEngine(server.db, tiny);
    const first = await read(engine, { sortBy: 'Status' });
    await read(engine, { sortBy: 'Status', pageNo: '2' });
    const before = engine.stats();
    await read(engine, { sortBy: 'Status', pageNo: '2' });
    expect(engine.stats().countMisses).toBe(before.countMisses);
    expect(engine.stats().seekChunks).toBe(before.seekChunks);

    // A write by any code path (here straight SQL) bumps the tenant's data version in its transaction.
    const victim = first.Applications[0]!;
    await server.db
      .update(applications)
      .set({ status: 'Cancelled' })
      .where(and(eq(applications.id, victim.ApplicationID), ne(applications.status, 'Cancelled')));
    const after = await read(engine, { sortBy: 'Status' });
    expect(after.TotalRows).toBe(first.TotalRows - 1);
    expect(after.Applications.map((row) => row.ApplicationID)).not.toContain(victim.ApplicationID);
    apps = await tenantApplications(server);
  });
});

describe('the search table', () => {
  const ids = async (raw: RawListQuery, scope: 'instance' | 'filtered' = 'instance') => {
    const engine = createListEngine(server.db);
    // A status filter takes the join with applications; a search alone reads application_search only.
    const filtered = scope === 'filtered' ? { status: JSON.stringify([...new Set(apps.map((row) => row.status)), "Adviser edit"]) } : {};
    const page = await read(engine, { rowsPerPage: '100', ...raw, ...filtered });
    return page.Applications.map((row) => row.ApplicationID);
  };

  it('follows every write to applications: renames, cancels, new rows; other changes leave it alone', async () => {
    const [target] = await server.db.select().from(applications).where(ne(applications.status, 'Cancelled')).orderBy(applications.id).limit(1);
    const id = target!.id;
    try {
      await server.db.update(applications).set({ accountName: 'Zebulon Quixote Holdings' }).where(eq(applications.id, id));
      await server.db.update(applications).set({ accountName: 'Wilhelmina Quixote Holdings' }).where(eq(applications.id, id));
      for (const scope of ['instance', 'filtered'] as const) {
        expect(await ids({ q: 'wilhelmina quix' }, scope)).toEqual([id]);
        expect(await ids({ q: 'zebulon' }, scope)).toEqual([]);
      }
      await server.db.update(applications).set({ accountName: 'Zebulon Quixote Holdings' }).where(eq(applications.id, id));

      // An update of other columns keeps the row's words (the trigger rewrites only what changed).
      await server.db.update(applications).set({ label: 'VIP' }).where(eq(applications.id, id));
      expect(await ids({ q: 'zebulon' })).toEqual([id]);

      await server.db.update(applications).set({ status: 'Cancelled' }).where(eq(applications.id, id));
      expect(await ids({ q: 'zebulon' })).toEqual([]);
      await server.db.update(applications).set({ status: target!.status }).where(eq(applications.id, id));
      expect(await ids({ q: 'zebulon' })).toEqual([id]);

      const [added] = await server.db
        .insert(applications)
        .values({ tenantId: 'demo', status: 'Adviser edit', accountName: 'Yardley Xenophon Trust', primaryEmail: 'yx@example.test' })
        .returning({ id: applications.id });
      expect(await ids({ q: 'xenophon' })).toEqual([added!.id]);
      expect(await ids({ q: 'yx example' }, 'filtered')).toEqual([added!.id]);
      await server.db.delete(applications).where(eq(applications.id, added!.id));
      expect(await ids({ q: 'xenophon' })).toEqual([]);
    } finally {
      await server.db.update(applications).set(target!).where(eq(applications.id, id));
    }
    expect((await ids({ q: String(id), sortType: 'asc' }))[0]).toBe(id);
  });
});

describe('cached rows', () => {
  it('serves rows read once from memory, and their new values after any write', async () => {
    const engine = createListEngine(server.db);
    const first = await read(engine, { sortBy: 'ID' });
    const before = engine.stats();
    const again = await read(engine, { sortBy: 'ID' });
    expect(again).toEqual(first);
    expect(engine.stats().rowHits - before.rowHits).toBe(20);
    expect(engine.stats().rowMisses).toBe(before.rowMisses);

    const renamed = first.Applications[3]!;
    await server.db.update(applications).set({ accountName: 'Renamed Pty Ltd' }).where(eq(applications.id, renamed.ApplicationID));
    const after = await read(engine, { sortBy: 'ID' });
    expect(after.Applications[3]).toEqual({ ...renamed, AccountName: 'Renamed Pty Ltd' });
    await server.db.update(applications).set({ accountName: renamed.AccountName }).where(eq(applications.id, renamed.ApplicationID));
  });

  it('reads the next page along with a page', async () => {
    const engine = createListEngine(server.db);
    await read(engine, { sortBy: 'ClientName', sortType: 'asc' });
    const before = engine.stats();
    const second = await read(engine, { sortBy: 'ClientName', sortType: 'asc', pageNo: '2' });
    expect(engine.stats().rowMisses).toBe(before.rowMisses);
    expect(second.Applications).toHaveLength(20);
  });

  it('reads the next page along only for a reader paging forward', async () => {
    const engine = createListEngine(server.db);
    const pageFor = (reader: string, pageNo: number) =>
      engine.page({ ...request({ sortBy: 'ClientName', sortType: 'desc', pageNo: String(pageNo) }), reader });
    const missesOf = async (reader: string, pageNo: number) => {
      const before = engine.stats().rowMisses;
      await pageFor(reader, pageNo);
      return engine.stats().rowMisses - before;
    };
    await pageFor('jumper', 5);
    // Page 5 was a jump: page 6 did not come along. Then 5, 6 is paging forward: 7 comes with 6.
    expect(await missesOf('jumper', 6)).toBe(20);
    expect(await missesOf('jumper', 7)).toBe(0);
    // Another reader's pages say nothing of this one: a jump to 9 brings no 10.
    await pageFor('other', 8);
    expect(await missesOf('jumper', 9)).toBe(20);
    expect(await missesOf('jumper', 10)).toBe(20);
  });

  it('fetches rows that several requests miss at once once', async () => {
    const engine = createListEngine(server.db);
    await read(engine, { sortBy: 'PercentageComplete', sortType: 'asc' });
    const before = engine.stats().rowFetches;
    const pages = await Promise.all([5, 5, 5].map((pageNo) => read(engine, { sortBy: 'PercentageComplete', sortType: 'asc', pageNo: String(pageNo) })));
    expect(engine.stats().rowFetches - before).toBe(1);
    expect(pages[1]).toEqual(pages[0]);
    expect(pages[2]).toEqual(pages[0]);
    expect(pages[0]!.Applications).toHaveLength(20);
  });

  it("writes any text, empty values and amounts with cents as the row's JSON", async () => {
    const engine = createListEngine(server.db);
    const [target] = await server.db.select().from(applications).where(ne(applications.status, 'Cancelled')).orderBy(applications.id).limit(1);
    const awkward = 'Quote " back\\slash \u0007 bell, tab\t, ünïcödé 🙂 </script>';
    await server.db
      .update(applications)
      .set({ accountName: awkward, investmentAmount: 1234.5, assigneeUserId: null, lastDocumentUpload: null })
      .where(eq(applications.id, target!.id));
    try {
      const page = await read(engine, { sortBy: 'ID', sortType: 'asc' });
      expect(page.Applications.find((row) => row.ApplicationID === target!.id)).toMatchObject({
        ApplicationID: target!.id,
        AccountName: awkward,
        InvestmentAmount: 1234.5,
        AssigneeUserId: null,
        LastDocumentUploadTimestamp: null,
      });
    } finally {
      await server.db.update(applications).set(target!).where(eq(applications.id, target!.id));
    }
  });

  it('shows a renamed product once the catalogue is read again, and sorts by the new name', async () => {
    const engine = createListEngine(server.db, { catalogueMaxAgeMs: 0 });
    const row = (await read(engine, { sortBy: 'Products', sortType: 'desc' })).Applications[0]!;
    const code = row.ProductDictionary[0]!.Value;
    const thatProduct = and(eq(products.tenantId, 'demo'), eq(products.code, code));
    const [product] = await server.db.select().from(products).where(thatProduct);
    // A name before every other: the applications holding it first now lead the ascending sort.
    await server.db.update(products).set({ name: '0 Renamed product' }).where(thatProduct);
    try {
      const [after] = (await read(engine, { products: JSON.stringify([code]), sortBy: 'Products', sortType: 'asc' })).Applications;
      expect(after!.ProductDictionary[0]).toEqual({ Name: '0 Renamed product', Value: code });
      expect(after!.ProductDisplayNameList[0]).toBe('0 Renamed product');
    } finally {
      await server.db.update(products).set({ name: product!.name }).where(thatProduct);
    }
    const restored = (await read(engine, { sortBy: 'Products', sortType: 'desc' })).Applications[0]!;
    expect(restored.ApplicationID).toBe(row.ApplicationID);
  });

  it('keeps the product names each row sorts by in step with its codes, whoever writes them', async () => {
    const namesOf = async (id: number) =>
      (await server.db.select({ names: applications.productNames }).from(applications).where(eq(applications.id, id)))[0]?.names;
    const [added] = await server.db
      .insert(applications)
      .values({ tenantId: 'demo', status: 'Adviser edit', productCodes: ['PENSION', 'NOT-IN-CATALOGUE', 'CMA'] })
      .returning({ id: applications.id });
    try {
      expect(await namesOf(added!.id)).toBe('Account Based Pension, NOT-IN-CATALOGUE, Cash Management Account');
      await server.db.update(applications).set({ productCodes: ['TD'] }).where(eq(applications.id, added!.id));
      expect(await namesOf(added!.id)).toBe('Term Deposit');
      await server.db.update(applications).set({ productCodes: [] }).where(eq(applications.id, added!.id));
      expect(await namesOf(added!.id)).toBe('');
    } finally {
      await server.db.delete(applications).where(eq(applications.id, added!.id));
    }
  });

  it('keeps no more rows than it is allowed, and still answers every page right', async () => {
    const engine = createListEngine(server.db, { maxCachedRows: 25 });
    const expected = oracleOf({ sortBy: 'Email', sortType: 'asc' }, {});
    for (const pageNo of [1, 2, 1, 3, 2]) {
      const page = await read(engine, { sortBy: 'Email', sortType: 'asc', pageNo: String(pageNo) });
      expect(page.Applications.map((row) => row.ApplicationID)).toEqual(expected.slice((pageNo - 1) * 20, pageNo * 20));
      expect(engine.stats().cachedRows).toBeLessThanOrEqual(25);
    }
  });
});

describe('export batches', () => {
  it('walks the list in keyset batches, yielding between slices, in the list order', async () => {
    const raw = { sortBy: 'LastDocumentUploadDate', sortType: 'asc', status: '["Complete","Locked","Primary edit"]' } as const;
    const { filters, sort } = request(raw);
    const columns: DataColumnName[] = ['ID', 'Email', 'Status', 'LastDocumentUploadDate', 'Products', 'SigningMode'];
    let text = '';
    let chunks = 0;
    for await (const chunk of exportApplicationsCsv(
      server.db,
      { tenantId: 'demo', scope: { kind: 'instance' }, filters, sort, columns },
      { batchSize: 101, sliceSize: 17 },
    )) {
      text += chunk;
      chunks++;
    }
    const [header, ...rows] = parse(text) as string[][];
    expect(header).toEqual(columns);
    const expected = oracleOf(raw, { status: ['Complete', 'Locked', 'Primary edit'] });
    expect(rows.map((row) => Number(row[0]))).toEqual(expected);
    expect(chunks).toBeGreaterThan(expected.length / 17);
    const byId = new Map(apps.map((row) => [row.id, row]));
    for (const row of rows.slice(0, 50)) {
      const source = byId.get(Number(row[0]))!;
      expect(row[3]).toBe(source.lastDocumentUpload ? source.lastDocumentUpload.toISOString().replace(/\.\d{3}Z$/, 'Z') : '');
      expect(row[5]).toBe(source.applicationModeCode === 'Pin' ? 'Online' : 'Print & Sign');
    }
  });
});
