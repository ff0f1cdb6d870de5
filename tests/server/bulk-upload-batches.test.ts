import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like, ne, sql } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { filled, template, upload, validRow } from './bulk-upload-fixtures.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationDataVersions,
  applicationOwners,
  applications,
  bulkUploads,
  users,
} from '../../server/db/schema.ts';
import {
  bulkUploadRows,
  importApplications,
  usedExternalIds,
  type ImportOptions,
} from '../../server/db/bulk-upload-store.ts';
import type { Actor } from '../../server/db/applications-store.ts';
import type { ImportRow } from '../../server/bulk-upload/validate-rows.ts';

/**
 * The import writes its rows in short batches (so that on PGlite, whose one session every request
 * shares, a list never waits long behind it) and lists them all in its last transaction. These
 * tests look between the batches: nothing of an unfinished import is ever listed or searchable, a
 * failure part-way leaves nothing, and a finished import is listed whole, search words included.
 */
let server: TestServer;
let admin: string;
let actor: Actor;
let owner: typeof applicationOwners.$inferSelect;
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [user] = await server.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
  actor = {
    userId: user!.id,
    tenantId: 'demo',
    displayName: `${user!.firstName} ${user!.lastName}`,
    email: user!.email,
    claims: user!.claims,
  };
  const [first] = await server.db
    .select()
    .from(applicationOwners)
    .where(eq(applicationOwners.tenantId, 'demo'))
    .limit(1);
  owner = first!;
});
afterAll(() => server.close());

const importRows = (prefix: string, count: number): ImportRow[] =>
  Array.from({ length: count }, (_, n) => ({
    accountName: `${prefix} Account ${n}`,
    applicationType: 'Individual',
    shortApplicationType: 'IND',
    firstName: 'Batch',
    lastName: `${prefix}${n}`,
    email: `${prefix.toLowerCase()}${n}@example.com`,
    mobile: '0412345678',
    subBrand: '',
    productCodes: [],
    ownerIndex: 0,
    externalId: `${prefix}-${n}`,
    investmentAmount: 1000,
    language: 'English',
    promoCode: '',
    signingMode: 'Pin',
  }));

/** What a person sees: the list's total, and how many rows a search for the prefix finds. */
async function listed(prefix: string) {
  const all = await api(server, 'GET', '/api/application/list/all?rowsPerPage=20', { token: admin });
  const found = await api(server, 'GET', `/api/application/list/all?rowsPerPage=20&q=${prefix}`, {
    token: admin,
  });
  expect(all.statusCode).toBe(200);
  expect(found.statusCode).toBe(200);
  return {
    total: all.json<{ TotalRows: number }>().TotalRows,
    found: found.json<{ TotalRows: number }>().TotalRows,
  };
}

const countOf = async (table: typeof applications, where: ReturnType<typeof and>) => {
  const [row] = await server.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return row?.n ?? 0;
};
const rowsOf = (prefix: string) =>
  and(eq(applications.tenantId, 'demo'), like(applications.externalId, `${prefix}-%`));
const version = async () => {
  const [row] = await server.db
    .select({ version: applicationDataVersions.version })
    .from(applicationDataVersions)
    .where(eq(applicationDataVersions.tenantId, 'demo'));
  return Number(row?.version ?? 0);
};

/** Small batches, so that a few hundred rows make several. */
const smallBatches: ImportOptions = { batchRows: 50, batchTargetMs: 0 };

describe('bulk import in batches', () => {
  it('lists nothing of an import until it completes, then every row at once, search words included', async () => {
    const before = await listed('BATCHA');
    expect(before.found).toBe(0);
    const seen: { written: number; total: number; found: number; hidden: number; used: number }[] = [];
    const rows = importRows('BATCHA', 260);
    const versionBefore = await version();
    let versionAtLastBatch = 0;
    const outcome = await importApplications(
      server.db,
      actor,
      rows,
      [owner],
      { sha256: 'batch-a', name: 'a.xlsx' },
      {
        ...smallBatches,
        afterBatch: async (written) => {
          versionAtLastBatch = await version();
          const now = await listed('BATCHA');
          const used = await usedExternalIds(server.db, 'demo', ['batcha-0', 'batcha-1']);
          seen.push({
            written,
            ...now,
            hidden: await countOf(applications, rowsOf('BATCHA')),
            used: used.size,
          });
        },
      },
    );
    expect(outcome).toEqual({ kind: 'imported', count: 260 });
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen.at(-1)?.written).toBe(260);
    for (const moment of seen) {
      // Written (hidden) as the batches commit, yet neither listed nor found, nor counted as used.
      expect(moment).toEqual({
        written: moment.written,
        total: before.total,
        found: 0,
        hidden: moment.written,
        used: 0,
      });
    }
    // The list's caches are keyed by the data version: the hidden batches left it where it was (no
    // list changed, so no cached count or seek list was dropped), listing the rows moved it on.
    expect(versionAtLastBatch).toBe(versionBefore);
    expect(await version()).toBeGreaterThan(versionAtLastBatch);
    expect(await listed('BATCHA')).toEqual({ total: before.total + 260, found: 260 });
    expect(await countOf(applications, and(rowsOf('BATCHA'), ne(applications.status, 'Adviser edit')))).toBe(
      0,
    );
    expect(await server.db.select().from(bulkUploadRows)).toEqual([]);
    const [record] = await server.db.select().from(bulkUploads).where(eq(bulkUploads.sha256, 'batch-a'));
    expect(record).toMatchObject({ outcome: 'imported', rowCount: 260 });
    const used = await usedExternalIds(server.db, 'demo', ['batcha-0', 'batcha-259']);
    expect([...used].sort()).toEqual(['batcha-0', 'batcha-259']);
  });

  it('leaves nothing, listed or hidden, when it fails part-way; the same rows then import', async () => {
    const before = await listed('BATCHB');
    const rows = importRows('BATCHB', 200);
    let hiddenAtFailure = 0;
    const versionBefore = await version();
    await expect(
      importApplications(
        server.db,
        actor,
        rows,
        [owner],
        { sha256: 'batch-b', name: 'b.xlsx' },
        {
          ...smallBatches,
          afterBatch: async (written) => {
            if (written < 100) return;
            hiddenAtFailure = await countOf(applications, rowsOf('BATCHB'));
            throw new Error('the server failed here');
          },
        },
      ),
    ).rejects.toThrow('the server failed here');
    expect(hiddenAtFailure).toBeGreaterThanOrEqual(100);
    expect(await listed('BATCHB')).toEqual(before);
    // Writing and removing rows that were never listed changed no list.
    expect(await version()).toBe(versionBefore);
    expect(await countOf(applications, rowsOf('BATCHB'))).toBe(0);
    expect(
      await countOf(
        applicationApplicants as unknown as typeof applications,
        sql`${applicationApplicants.lastName} like 'BATCHB%'`,
      ),
    ).toBe(0);
    expect(
      await countOf(
        applicationActivity as unknown as typeof applications,
        sql`${applicationActivity.activity} like '%(bulk upload b.xlsx)'`,
      ),
    ).toBe(0);
    expect(await server.db.select().from(bulkUploadRows)).toEqual([]);
    expect(await server.db.select().from(bulkUploads).where(eq(bulkUploads.sha256, 'batch-b'))).toEqual([]);

    expect(
      await importApplications(
        server.db,
        actor,
        rows,
        [owner],
        { sha256: 'batch-b', name: 'b.xlsx' },
        smallBatches,
      ),
    ).toEqual({ kind: 'imported', count: 200 });
    expect(await listed('BATCHB')).toEqual({ total: before.total + 200, found: 200 });
  });

  it('lists one of two concurrent imports of the same file and removes the other', async () => {
    const before = await listed('BATCHC');
    const rows = importRows('BATCHC', 120);
    const file = { sha256: 'batch-c', name: 'c.xlsx' };
    const outcomes = await Promise.all([
      importApplications(server.db, actor, rows, [owner], file, smallBatches),
      importApplications(server.db, actor, rows, [owner], file, smallBatches),
    ]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['duplicate', 'imported']);
    expect(await listed('BATCHC')).toEqual({ total: before.total + 120, found: 120 });
    expect(await countOf(applications, rowsOf('BATCHC'))).toBe(120);
    expect(await server.db.select().from(bulkUploadRows)).toEqual([]);
  });

  it('answers list requests made during an upload with the list before it or after it, never between', async () => {
    const templateBytes = await template(server, admin);
    const file = await filled(
      templateBytes,
      Array.from({ length: 400 }, (_, n) => validRow(n, owner.displayName, { ExternalId: `BATCHD-${n}` })),
    );
    const before = await listed('BATCHD');
    const totals = new Set<number>();
    const hidden = new Set<number>();
    let uploading = true;
    const polling = (async () => {
      while (uploading) {
        totals.add((await listed('BATCHD')).total);
        hidden.add(await countOf(applications, and(rowsOf('BATCHD'), eq(applications.status, 'Cancelled'))));
        // As a browser would: requests a few milliseconds apart, not a loop that starves the timers.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const answer = await upload(server, admin, 'd.xlsx', file);
    uploading = false;
    await polling;
    expect(answer.json()).toMatchObject({ ResponseType: 'Success', Message: '400 application(s) created.' });
    // Requests were answered between the import's batches (not held for its length: then they would
    // have seen none or all of its rows), and the list never showed part of it.
    expect([...hidden].some((count) => count > 0 && count < 400)).toBe(true);
    expect(totals.has(before.total)).toBe(true);
    expect([...totals].filter((total) => total !== before.total && total !== before.total + 400)).toEqual([]);
    expect(await listed('BATCHD')).toEqual({ total: before.total + 400, found: 400 });
  });
});

describe('the list data version (migration 0011)', () => {
  it('moves when a listed application changes or is cancelled, and not when only Cancelled rows change', async () => {
    const [listedRow] = await server.db
      .select({ id: applications.id, label: applications.label, status: applications.status })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), ne(applications.status, 'Cancelled')))
      .limit(1);
    const [cancelledRow] = await server.db
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), eq(applications.status, 'Cancelled')))
      .limit(1);

    let before = await version();
    await server.db.update(applications).set({ promoCode: 'HIDDEN' }).where(eq(applications.id, cancelledRow!.id));
    expect(await version()).toBe(before);

    await server.db.update(applications).set({ label: `${listedRow!.label}` }).where(eq(applications.id, listedRow!.id));
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    await server.db.update(applications).set({ status: 'Cancelled' }).where(eq(applications.id, listedRow!.id));
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    await server.db.update(applications).set({ status: listedRow!.status }).where(eq(applications.id, listedRow!.id));
    expect(await version()).toBeGreaterThan(before);
  });
});
