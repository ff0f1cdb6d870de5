import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness.ts';
import { expectedOrder, matches, tenantApplications, type AppRow } from './applications-fixtures.ts';
import { createListEngine, type ListEngineOptions } from '../../server/db/applications-list.ts';
import { listPageJson } from '../../server/db/list-rows.ts';
import { applications } from '../../server/db/schema.ts';
import { ApplicationListResponseSchema } from '../../src/schemas/applications.schema.ts';
import { parseListRequest } from '../../src/domain/list-request.ts';

/**
 * Issue 33's correctness rule for pages served from the caches of an earlier version (keptPage in
 * applications-list.ts): a row changed by a concurrent write never appears where its new values do
 * not belong — not in a list whose filter it left, not after cancelling, not out of its sort order —
 * and once the caches are read again the pages are exactly the data's.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const raw = { sortBy: 'AccountName', sortType: 'asc', status: '["Complete"]' } as const;
const rowsPerPage = 13;

describe('kept pages under a stream of writes', () => {
  for (const [name, options] of [
    ['whole lists', {}],
    ['keyset chunks', { materializeMax: 0, minChunk: 37, maxChunk: 90, chunkTargetMs: 0.001 }],
  ] as [string, ListEngineOptions][]) {
    it(`never shows a changed row where it no longer belongs: ${name}`, async () => {
      const before = await tenantApplications(server);
      const listed = expectedOrder(before.filter((row) => matches(row, { status: ['Complete'] })), 'AccountName', 'asc');
      const byId = new Map(before.map((row) => [row.id, row]));
      const engine = createListEngine(server.db, { ...options, refreshAfterMs: 0 });
      const read = async (pageNo: number) => {
        const parsed = parseListRequest({ ...raw, pageNo: String(pageNo), rowsPerPage: String(rowsPerPage) });
        if (!parsed.ok) throw new Error(parsed.message);
        const page = await engine.page({ ...parsed.value, tenantId: 'demo', scope: { kind: 'instance' }, reader: 'a reader who wrote nothing' });
        return ApplicationListResponseSchema.parse(JSON.parse(listPageJson(page)));
      };
      const pages = Array.from({ length: 6 }, (_, index) => index + 1);
      for (const pageNo of pages) await read(pageNo);

      // Moved out of the filter (page 2), along the sort (page 1, to the end), cancelled (page 3);
      // and writes elsewhere, so that the data is several versions past the caches.
      const [leaving, moving, cancelled] = [listed[rowsPerPage + 2]!, listed[3]!, listed[2 * rowsPerPage + 5]!];
      const other = before.find((row) => row.status === 'Adviser edit')!;
      try {
        await server.db.update(applications).set({ status: 'Adviser edit' }).where(eq(applications.id, leaving));
        await server.db.update(applications).set({ accountName: 'zzzz moved to the end' }).where(eq(applications.id, moving));
        await server.db.update(applications).set({ status: 'Cancelled' }).where(eq(applications.id, cancelled));
        for (let write = 0; write < 3; write++) await server.db.update(applications).set({ promoCode: `KEPT${write}` }).where(eq(applications.id, other.id));

        const now = await tenantApplications(server);
        const current = new Map(now.map((row) => [row.id, row]));
        // One at a time from the last page, which none of the changed rows was on: it is served from
        // the earlier caches. Read together, on PostgreSQL's pool one page's fresh read can finish
        // before another's first try, and then every page is fresh (correct, but nothing to test).
        const served: Awaited<ReturnType<typeof read>>[] = [];
        for (const pageNo of [...pages].reverse()) served[pageNo - 1] = await read(pageNo);
        // A list held whole is caught up to the data's version (catchUp); one read in chunks is kept.
        const { keptPages, catchUps } = engine.stats();
        expect(keptPages + catchUps, 'pages were served from the earlier caches').toBeGreaterThan(0);
        for (const [index, page] of served.entries()) {
          const rows = page.Applications.map((row) => current.get(row.ApplicationID)!);
          for (const row of rows) expect(matches(row, { status: ['Complete'] }), `page ${index + 1}: ${row.id} ${row.status}`).toBe(true);
          expect(rows.map((row) => row.id), `page ${index + 1} in its order`).toEqual(expectedOrder(rows, 'AccountName', 'asc'));
          for (const row of page.Applications) expect(row.AccountName).toBe(current.get(row.ApplicationID)!.accountName);
        }
        expect(served.flatMap((page) => page.Applications.map((row) => row.ApplicationID))).not.toContain(cancelled);

        // Read again in the background (refreshAfterMs 0): then the pages are the data's.
        await engine.refreshed();
        const exact = expectedOrder(now.filter((row) => matches(row, { status: ['Complete'] })), 'AccountName', 'asc');
        for (const pageNo of pages) {
          const page = await read(pageNo);
          expect(page.TotalRows).toBe(exact.length);
          expect(page.Applications.map((row) => row.ApplicationID)).toEqual(exact.slice((pageNo - 1) * rowsPerPage, pageNo * rowsPerPage));
        }
      } finally {
        for (const id of [leaving, moving, cancelled, other.id]) {
          const row: AppRow = byId.get(id)!;
          await server.db.update(applications).set({ status: row.status, accountName: row.accountName, promoCode: row.promoCode }).where(inArray(applications.id, [id]));
        }
      }
    });
  }

  it('gives a reader who just wrote the data as it is, not a kept page', async () => {
    const before = await tenantApplications(server);
    const listed = expectedOrder(before.filter((row) => matches(row, { status: ['Complete'] })), 'AccountName', 'asc');
    const engine = createListEngine(server.db, { refreshAfterMs: 60_000 });
    const read = async (reader: string) => {
      const parsed = parseListRequest({ ...raw, pageNo: '1', rowsPerPage: String(rowsPerPage) });
      if (!parsed.ok) throw new Error(parsed.message);
      return engine.page({ ...parsed.value, tenantId: 'demo', scope: { kind: 'instance' }, reader });
    };
    await read('writer');
    const leaving = listed[rowsPerPage + 1]!;
    const other = before.find((row) => row.status === 'Adviser edit')!;
    try {
      await server.db.update(applications).set({ status: 'Adviser edit' }).where(eq(applications.id, leaving));
      await server.db.update(applications).set({ promoCode: 'WRITER' }).where(eq(applications.id, other.id));
      engine.noteWrite('demo', 'writer');
      expect((await read('writer')).TotalRows).toBe(listed.length - 1);
      expect(engine.stats().keptPages).toBe(0);
      // Someone else may be given the kept page (its rows re-checked) until the caches are read again.
      expect((await read('someone else')).TotalRows).toBe(listed.length - 1);
    } finally {
      const row = before.find((candidate) => candidate.id === leaving)!;
      await server.db.update(applications).set({ status: row.status }).where(eq(applications.id, leaving));
      await server.db.update(applications).set({ promoCode: other.promoCode }).where(eq(applications.id, other.id));
    }
  });
});
