import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
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
/** Rows per INSERT: a few statements for 10,000 rows, each well under the parameter limit. */
const insertChunk = 500;

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
 * Creates every row's application, primary applicant and activity-feed entry in one transaction,
 * and records the file's hash in it: all or nothing, also when the process dies halfway. Two
 * uploads of the same file at once are serialised by an advisory lock on (tenant, hash), so the
 * second sees the first's record and is refused.
 */
export async function importApplications(
  db: Database,
  actor: Actor,
  rows: readonly ImportRow[],
  owners: readonly Owner[],
  file: { sha256: string; name: string },
  now = new Date(),
): Promise<ImportOutcome> {
  const [visibility] = await db.select().from(userVisibility).where(eq(userVisibility.userId, actor.userId));
  const restrictionGroup = visibility?.restrictionGroups[0] ?? '';
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`bulk-upload:${actor.tenantId}:${file.sha256}`}))`,
    );
    const [earlier] = await tx
      .select({ id: bulkUploads.id })
      .from(bulkUploads)
      .where(recentImport(actor.tenantId, file.sha256, now));
    if (earlier) return { kind: 'duplicate' } as const;

    for (let start = 0; start < rows.length; start += insertChunk) {
      const chunk = rows.slice(start, start + insertChunk);
      const created = await tx
        .insert(applications)
        .values(
          chunk.map((row) => {
            const owner = owners[row.ownerIndex];
            if (!owner) throw new Error('Owner index out of range.');
            return {
              tenantId: actor.tenantId,
              status: 'Adviser edit',
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
      await tx.insert(applicationApplicants).values(
        created.map(({ id }, index) => {
          const row = chunk[index]!;
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
          activity: `Application created by ${actor.displayName} (bulk upload ${file.name})`,
        })),
      );
    }
    await tx.insert(bulkUploads).values({
      tenantId: actor.tenantId,
      userId: actor.userId,
      outcome: 'imported',
      sha256: file.sha256,
      fileName: file.name,
      rowCount: rows.length,
      expiresAt: new Date(now.getTime() + duplicateWindowMs),
    });
    return { kind: 'imported', count: rows.length } as const;
  });
}

/** Keeps an error workbook for its uploader's tenant; returns its id. Expired records are swept here. */
export async function saveErrorFile(
  db: Database,
  actor: Actor,
  file: { sha256: string; name: string; content: Buffer },
  now = new Date(),
) {
  await db.delete(bulkUploads).where(lt(bulkUploads.expiresAt, now));
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

/** The error workbook `id` of this tenant, unless it has expired. */
export async function findErrorFile(db: Database, tenantId: string, id: string, now = new Date()) {
  const [row] = await db
    .select({ fileName: bulkUploads.fileName, content: bulkUploads.errorFile })
    .from(bulkUploads)
    .where(
      and(
        eq(bulkUploads.id, id),
        eq(bulkUploads.tenantId, tenantId),
        eq(bulkUploads.outcome, 'invalid'),
        gt(bulkUploads.expiresAt, now),
      ),
    );
  return row?.content ? { fileName: row.fileName, content: row.content } : undefined;
}
