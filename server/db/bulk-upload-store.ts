import { and, asc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { bigint, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationOwners,
  applications,
  bulkUploads,
  products,
  subBrands,
  userVisibility,
} from './schema.ts';
import type { Actor } from './applications-store.ts';
import type { ImportRow } from '../bulk-upload/validate-rows.ts';
import type { TemplateLookups } from '../bulk-upload/workbook.ts';

type Owner = typeof applicationOwners.$inferSelect;

/** The same file imported again within this window is refused (issue 15). */
export const duplicateWindowMs = 60 * 60 * 1000;
/** Error workbooks can be downloaded for this long. */
export const errorFileLifetimeMs = 24 * 60 * 60 * 1000;

/** The tenant's lists the template offers and the validation accepts, with the owners behind the names. */
export async function bulkUploadLookups(
  db: Database,
  tenantId: string,
): Promise<TemplateLookups & { ownerRecords: Owner[] }> {
  const [brandRows, productRows, ownerRecords] = await Promise.all([
    db
      .select({ name: subBrands.name })
      .from(subBrands)
      .where(eq(subBrands.tenantId, tenantId))
      .orderBy(asc(subBrands.name)),
    db
      .select({ code: products.code, name: products.name })
      .from(products)
      .where(eq(products.tenantId, tenantId))
      .orderBy(asc(products.sortOrder), asc(products.name)),
    db
      .select()
      .from(applicationOwners)
      .where(eq(applicationOwners.tenantId, tenantId))
      .orderBy(asc(applicationOwners.displayName)),
  ]);
  return {
    subBrands: brandRows.map((row) => row.name),
    products: productRows,
    owners: ownerRecords.map((owner) => owner.displayName),
    ownerRecords,
  };
}

/** Which of `externalIds` (lower case) the tenant's applications already use. */
export async function usedExternalIds(
  db: Database,
  tenantId: string,
  externalIds: readonly string[],
): Promise<Set<string>> {
  if (externalIds.length === 0) return new Set();
  const rows = await db
    .select({ externalId: sql<string>`lower(${applications.externalId})` })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, tenantId),
        sql`lower(${applications.externalId}) in (select jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb))`,
        // An unfinished import's hidden rows: a file re-uploaded after a failure is not refused for them.
        sql`not exists (select 1 from ${bulkUploadRows} r where r.application_id = ${applications.id})`,
      ),
    );
  return new Set(rows.map((row) => row.externalId));
}

/** Whether this tenant imported a file with this hash within the duplicate window. */
export async function recentlyImported(db: Database, tenantId: string, sha256: string, now = new Date()) {
  const [earlier] = await db
    .select({ id: bulkUploads.id })
    .from(bulkUploads)
    .where(recentImport(tenantId, sha256, now));
  return earlier !== undefined;
}

const recentImport = (tenantId: string, sha256: string, now: Date) =>
  and(
    eq(bulkUploads.tenantId, tenantId),
    eq(bulkUploads.sha256, sha256),
    eq(bulkUploads.outcome, 'imported'),
    gt(bulkUploads.createdAt, new Date(now.getTime() - duplicateWindowMs)),
  );

export type ImportOutcome = { kind: 'imported'; count: number } | { kind: 'duplicate' };

/**
 * Which applications an unfinished import has written so far (migration 0010): hidden as Cancelled
 * until its last transaction lists them all at once and removes them from here.
 */
export const bulkUploadRows = pgTable(
  'bulk_upload_rows',
  {
    uploadId: uuid('upload_id').notNull(),
    applicationId: bigint('application_id', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ name: 'bulk_upload_rows_pk', columns: [table.uploadId, table.applicationId] })],
);

/** The status that keeps an application out of every listing, search and list index. */
const hiddenStatus = 'Cancelled';
/** What an imported application starts as once listed. */
const importedStatus = 'Adviser edit';
/**
 * An import in progress renews its record's expiry with every batch; a record left expired by
 * this long without one belongs to an import that failed or whose server died, and is swept.
 */
export const importHeartbeatMs = 2 * 60 * 1000;

export interface ImportOptions {
  now?: Date;
  /** Rows in the first batch; later batches are sized to take about `batchTargetMs` each. */
  batchRows?: number;
  /**
   * How long one batch's transaction should hold the database: on PGlite, whose one session
   * every request shares, a list request waits at most about this long behind the import.
   */
  batchTargetMs?: number;
  /** After each batch has committed, with the rows written so far (tests look at the list there). */
  afterBatch?: (written: number) => Promise<void>;
}

const minBatchRows = 50;
/** Bounds the work of building one batch's statements on the server's thread too. */
const maxBatchRows = 250;

/**
 * Creates every row's application, primary applicant and activity-feed entry, all or nothing, in
 * short batches so that no other request waits long for the database (on PGlite it has one
 * session): each batch's applications are written hidden (Cancelled) in a transaction of their
 * own, then one transaction lists them all at once and records the file's hash. An import that
 * fails or dies part-way has listed nothing; its hidden rows are removed by discardImport here or
 * by sweepAbandonedImports later. Two uploads of the same file at once are serialised in that last
 * transaction by an advisory lock on (tenant, hash), so the second sees the first's record and is
 * refused (its hidden rows removed).
 */
export async function importApplications(
  db: Database,
  actor: Actor,
  rows: readonly ImportRow[],
  owners: readonly Owner[],
  file: { sha256: string; name: string },
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  const now = options.now ?? new Date();
  const targetMs = options.batchTargetMs ?? 100;
  await sweepAbandonedImports(db, now);
  const [visibility] = await db.select().from(userVisibility).where(eq(userVisibility.userId, actor.userId));
  const restrictionGroup = visibility?.restrictionGroups[0] ?? '';
  const [record] = await db
    .insert(bulkUploads)
    .values({
      tenantId: actor.tenantId,
      userId: actor.userId,
      outcome: 'importing',
      sha256: file.sha256,
      fileName: file.name,
      rowCount: rows.length,
      expiresAt: new Date(Date.now() + importHeartbeatMs),
    })
    .returning({ id: bulkUploads.id });
  if (!record) throw new Error('Insert returned nothing.');
  const uploadId = record.id;

  try {
    let size = options.batchRows ?? 100;
    for (let start = 0; start < rows.length;) {
      const batch = rows.slice(start, start + size);
      const began = performance.now();
      await writeHiddenBatch(db, actor, uploadId, batch, owners, restrictionGroup, file.name);
      const tookMs = Math.max(1, performance.now() - began);
      start += batch.length;
      if (options.afterBatch) await options.afterBatch(start);
      // The next batch sized on this one's speed; requests that queued meanwhile go first.
      size = Math.min(maxBatchRows, Math.max(minBatchRows, Math.round((batch.length * targetMs) / tookMs)));
      await new Promise((resolve) => setImmediate(resolve));
    }

    const outcome = await db.transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`bulk-upload:${actor.tenantId}:${file.sha256}`}))`,
      );
      const [earlier] = await tx
        .select({ id: bulkUploads.id })
        .from(bulkUploads)
        .where(recentImport(actor.tenantId, file.sha256, now));
      if (earlier) return { kind: 'duplicate' } as const;
      // Swept meanwhile (its batches came too slowly): nothing of it may be listed.
      const [mine] = await tx
        .update(bulkUploads)
        .set({
          outcome: 'imported',
          createdAt: new Date(),
          expiresAt: new Date(Date.now() + duplicateWindowMs),
        })
        .where(and(eq(bulkUploads.id, uploadId), eq(bulkUploads.outcome, 'importing')))
        .returning({ id: bulkUploads.id });
      if (!mine) throw new Error('The import was abandoned before it completed.');
      // One statement lists every row: the search words, list indexes and data version follow
      // through the table's triggers, as for any other status change.
      const listed = await tx.execute(sql`
        update ${applications} a set status = ${importedStatus}
        from ${bulkUploadRows} r
        where r.upload_id = ${uploadId} and a.id = r.application_id and a.status = ${hiddenStatus}`);
      const count = Number(
        (listed as { affectedRows?: number; rowCount?: number }).affectedRows ??
          (listed as { rowCount?: number }).rowCount,
      );
      if (count !== rows.length) throw new Error(`Listed ${count} of ${rows.length} imported rows.`);
      await tx.delete(bulkUploadRows).where(eq(bulkUploadRows.uploadId, uploadId));
      return { kind: 'imported', count: rows.length } as const;
    });
    if (outcome.kind === 'duplicate') await discardImport(db, uploadId);
    return outcome;
  } catch (error) {
    // Best effort: whatever is left hidden is swept later.
    await discardImport(db, uploadId).catch(() => undefined);
    throw error;
  }
}

/** One batch written hidden, with its applicants, activity items and membership of the upload. */
async function writeHiddenBatch(
  db: Database,
  actor: Actor,
  uploadId: string,
  batch: readonly ImportRow[],
  owners: readonly Owner[],
  restrictionGroup: string,
  fileName: string,
) {
  await db.transaction(async (tx) => {
    // The heartbeat first: a sweep that got here before it has taken the record away.
    const [alive] = await tx
      .update(bulkUploads)
      .set({ expiresAt: new Date(Date.now() + importHeartbeatMs) })
      .where(and(eq(bulkUploads.id, uploadId), eq(bulkUploads.outcome, 'importing')))
      .returning({ id: bulkUploads.id });
    if (!alive) throw new Error('The import was abandoned before it completed.');
    const created = await tx
      .insert(applications)
      .values(
        batch.map((row) => {
          const owner = owners[row.ownerIndex];
          if (!owner) throw new Error('Owner index out of range.');
          return {
            tenantId: actor.tenantId,
            status: hiddenStatus,
            accountName: row.accountName,
            clientName: `${row.firstName} ${row.lastName}`,
            primaryEmail: row.email,
            externalId: row.externalId,
            subBrandName: row.subBrand,
            productCodes: row.productCodes,
            ownerId: owner.id,
            adviserName: owner.displayName,
            location: owner.location,
            restrictionGroup,
            applicationType: row.applicationType,
            shortApplicationType: row.shortApplicationType,
            promoCode: row.promoCode,
            investmentAmount: row.investmentAmount,
            language: row.language,
            lowDocStatus: 'Required',
            applicationModeCode: row.signingMode,
          };
        }),
      )
      .returning({ id: applications.id });
    await tx.insert(bulkUploadRows).values(created.map(({ id }) => ({ uploadId, applicationId: id })));
    await tx.insert(applicationApplicants).values(
      created.map(({ id }, index) => {
        const row = batch[index]!;
        return {
          applicationId: id,
          position: 0,
          firstName: row.firstName,
          lastName: row.lastName,
          email: row.email,
          phone: row.mobile,
        };
      }),
    );
    await tx.insert(applicationActivity).values(
      created.map(({ id }) => ({
        tenantId: actor.tenantId,
        applicationId: id,
        userId: actor.userId,
        activity: `Application created by ${actor.displayName} (bulk upload ${fileName})`,
      })),
    );
  });
}

/** Rows removed per transaction when an unfinished import is taken away. */
const discardBatchRows = 500;

/**
 * Removes an unfinished import: its hidden applications with their applicants and activity items,
 * a batch per transaction, then its record. Rows already listed (a finished import) are never
 * touched: the record of a finished import has no rows left in bulk_upload_rows.
 */
export async function discardImport(db: Database, uploadId: string) {
  for (;;) {
    const removed = await db.transaction(async (tx) => {
      const doomed = await tx
        .select({ id: bulkUploadRows.applicationId })
        .from(bulkUploadRows)
        .where(eq(bulkUploadRows.uploadId, uploadId))
        .limit(discardBatchRows);
      const ids = doomed.map((row) => row.id);
      if (ids.length === 0) return 0;
      await tx
        .delete(bulkUploadRows)
        .where(and(eq(bulkUploadRows.uploadId, uploadId), inArray(bulkUploadRows.applicationId, ids)));
      const hidden = and(inArray(applications.id, ids), eq(applications.status, hiddenStatus));
      const hiddenIds = tx.select({ id: applications.id }).from(applications).where(hidden);
      await tx.delete(applicationApplicants).where(inArray(applicationApplicants.applicationId, hiddenIds));
      await tx.delete(applicationActivity).where(inArray(applicationActivity.applicationId, hiddenIds));
      await tx.delete(applications).where(hidden);
      return ids.length;
    });
    if (removed === 0) break;
  }
  await db.delete(bulkUploads).where(and(eq(bulkUploads.id, uploadId), eq(bulkUploads.outcome, 'importing')));
}

/**
 * Removes every import whose heartbeat has stopped (its server died, or it failed and could not
 * clean up): run before each import and each error file's save, and at start-up where wired.
 * Returns how many were removed.
 */
export async function sweepAbandonedImports(db: Database, now = new Date()) {
  const abandoned = await db
    .select({ id: bulkUploads.id })
    .from(bulkUploads)
    .where(and(eq(bulkUploads.outcome, 'importing'), lt(bulkUploads.expiresAt, now)));
  for (const { id } of abandoned) await discardImport(db, id);
  return abandoned.length;
}

/** Keeps an error workbook for its uploader's tenant; returns its id. Expired records are swept here. */
export async function saveErrorFile(
  db: Database,
  actor: Actor,
  file: { sha256: string; name: string; content: Buffer },
  now = new Date(),
) {
  await sweepAbandonedImports(db, now);
  // Expired error files and import records; an unfinished import's record only through its sweep.
  await db
    .delete(bulkUploads)
    .where(and(lt(bulkUploads.expiresAt, now), ne(bulkUploads.outcome, 'importing')));
  const [saved] = await db
    .insert(bulkUploads)
    .values({
      tenantId: actor.tenantId,
      userId: actor.userId,
      outcome: 'invalid',
      sha256: file.sha256,
      fileName: file.name,
      errorFile: file.content,
      expiresAt: new Date(now.getTime() + errorFileLifetimeMs),
    })
    .returning({ id: bulkUploads.id });
  if (!saved) throw new Error('Insert returned nothing.');
  return saved.id;
}

/**
 * The error workbook `id` if `actor` uploaded it and it has not expired. It holds applicants' names
 * and e-mails, so it is its uploader's alone, not the tenant's (issue 27 point 15).
 */
export async function findErrorFile(db: Database, actor: Actor, id: string, now = new Date()) {
  const [row] = await db
    .select({ fileName: bulkUploads.fileName, content: bulkUploads.errorFile })
    .from(bulkUploads)
    .where(
      and(
        eq(bulkUploads.id, id),
        eq(bulkUploads.tenantId, actor.tenantId),
        eq(bulkUploads.userId, actor.userId),
        eq(bulkUploads.outcome, 'invalid'),
        gt(bulkUploads.expiresAt, now),
      ),
    );
  return row?.content ? { fileName: row.fileName, content: row.content } : undefined;
}
