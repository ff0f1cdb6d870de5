import { and, desc, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from './client.ts';
import { verificationActivity, verifications } from './schema.ts';
import { verificationPageSize, type VerificationService } from '../../src/schemas/verifications.schema.ts';

/**
 * The Verifications area's reads and writes (SUV §2-§4). Every read is scoped to the caller's
 * tenant, so another tenant's record is simply not found; every write carries its audit entry in
 * the same transaction.
 */

export type VerificationRecord = typeof verifications.$inferSelect;
export type VerificationKind = 'company' | 'individual';

export const kindOf = (service: VerificationService): VerificationKind => (service === 'Company' ? 'company' : 'individual');

export interface Actor {
  userId: string;
  tenantId: string;
  displayName: string;
}

/**
 * The words of a search as the list shows its values (issue 39 point 10): lower case, symbols
 * dropped, and digit groups side by side joined, so a company number typed as displayed ('000 000
 * 019') is the number the record holds ('000000019').
 */
export function searchWords(search: string): string[] {
  const words = search.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  if (!words) return [];
  return words.split(' ').reduce<string[]>((joined, word) => {
    const last = joined.at(-1);
    if (last !== undefined && /^[0-9]+$/.test(last) && /^[0-9]+$/.test(word)) joined[joined.length - 1] = `${last}${word}`;
    else joined.push(word);
    return joined;
  }, []);
}

/** The id letter the list shows before a record's number (SUV §2: C601, V602). */
const idLetter = { company: 'c', individual: 'v' } as const;

/**
 * A search as a condition: every word must match, by prefix, one of the record's words, or, when it
 * is an id as the list shows it ('c601' on the Company tab), be that record's id. Undefined when
 * the search has no word.
 */
function searchCondition(kind: VerificationKind, search: string): SQL | undefined {
  const words = searchWords(search);
  if (!words.length) return undefined;
  const matches = (word: string) => sql`${verifications.search} @@ to_tsquery('simple', ${`${word}:*`})`;
  const idPattern = new RegExp(`^${idLetter[kind]}([0-9]{1,15})$`);
  return and(
    ...words.map((word) => {
      const id = idPattern.exec(word)?.[1];
      return id === undefined ? matches(word) : or(eq(verifications.id, Number(id)), matches(word));
    }),
  );
}

const listColumns = {
  id: verifications.id,
  requestType: verifications.requestType,
  status: verifications.status,
  subjectName: verifications.subjectName,
  companyNumber: verifications.companyNumber,
  requesterName: verifications.requesterName,
  refCode: verifications.refCode,
  createdAt: verifications.createdAt,
};

/** One page (SUV §9: 10 rows) of a tenant's records of one kind, newest first, and how many match. */
export async function listVerifications(db: Database, tenantId: string, kind: VerificationKind, page: number, search: string) {
  const scope = and(eq(verifications.tenantId, tenantId), eq(verifications.kind, kind));
  const offset = (page - 1) * verificationPageSize;
  if (search.trim()) {
    const condition = searchCondition(kind, search);
    // A keyword of symbols only has no word to match: nothing does.
    if (!condition) return { rows: [], total: 0 };
    // The matches come from the search index first (materialised), then are sorted and counted in
    // one statement: walking the newest-first index and testing each row's words is what a planner
    // picks for LIMIT 10, and for a rare word it reads the whole tenant.
    const matches = db.$with('matches').as(
      db
        .select({ ...listColumns, total: sql<number>`(count(*) over ())::int`.as('total') })
        .from(verifications)
        .where(and(scope, condition)),
    );
    const rows = await db
      .with(matches)
      .select()
      .from(matches)
      .orderBy(desc(matches.createdAt), desc(matches.id))
      .limit(verificationPageSize)
      .offset(offset);
    const total = rows[0]?.total ?? (offset > 0 ? await countMatches(db, and(scope, condition)) : 0);
    return { rows, total };
  }
  const [rows, [counted]] = await Promise.all([
    db.select(listColumns).from(verifications).where(scope).orderBy(desc(verifications.createdAt), desc(verifications.id)).limit(verificationPageSize).offset(offset),
    db.select({ total: sql<number>`count(*)::int` }).from(verifications).where(scope),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** How many records match (a page past the last has no row to carry the total). */
async function countMatches(db: Database, where: SQL | undefined) {
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(verifications).where(where);
  return counted?.total ?? 0;
}

/** The tenant's record `id` (of `kind` when given); undefined for another tenant's or none. */
export async function findVerification(db: Database, tenantId: string, id: number, kind?: VerificationKind) {
  const conditions = [eq(verifications.tenantId, tenantId), eq(verifications.id, id)];
  if (kind) conditions.push(eq(verifications.kind, kind));
  const [record] = await db.select().from(verifications).where(and(...conditions)).limit(1);
  return record;
}

export type NewVerification = Omit<typeof verifications.$inferInsert, 'tenantId' | 'requesterId' | 'requesterName' | 'search'>;

/** Writes a new record and its first audit entry together; resolves to the record. */
export async function insertVerification(db: Database, actor: Actor, values: NewVerification, activity: string, also?: (tx: Database, record: VerificationRecord) => Promise<void>) {
  return db.transaction(async (tx) => {
    const [record] = await tx
      .insert(verifications)
      .values({ ...values, tenantId: actor.tenantId, requesterId: actor.userId, requesterName: actor.displayName })
      .returning();
    if (!record) throw new Error('The verification was not written.');
    await tx.insert(verificationActivity).values({ tenantId: actor.tenantId, verificationId: record.id, userId: actor.userId, activity });
    if (also) await also(tx, record);
    return record;
  });
}

/** Sets the record's reference code (audited); false when the tenant has no such record. */
export async function setRefCode(db: Database, actor: Actor, kind: VerificationKind, id: number, refCode: string) {
  return db.transaction(async (tx) => {
    const [record] = await tx
      .update(verifications)
      .set({ refCode })
      .where(and(eq(verifications.tenantId, actor.tenantId), eq(verifications.kind, kind), eq(verifications.id, id)))
      .returning({ id: verifications.id });
    if (!record) return false;
    await tx.insert(verificationActivity).values({
      tenantId: actor.tenantId,
      verificationId: id,
      userId: actor.userId,
      activity: refCode ? `Reference code set to ${refCode} by ${actor.displayName}` : `Reference code cleared by ${actor.displayName}`,
    });
    return true;
  });
}

/**
 * The biometric record the invite token belongs to, if it is this tenant's and was sent after
 * `sentAfter` (the link's lifetime): a link opened on another tenant's host, or too late, names nothing.
 */
export async function findByInviteToken(db: Database, tenantId: string, token: string, sentAfter: Date) {
  const [record] = await db
    .select()
    .from(verifications)
    .where(and(eq(verifications.inviteToken, token), eq(verifications.tenantId, tenantId), gt(verifications.createdAt, sentAfter)))
    .limit(1);
  return record;
}

/**
 * Completes a Pending biometric check once: the token is spent in the same statement, so a second
 * POST (or two at once) finds nothing to complete. Audited in the same transaction.
 */
export async function completeBiometric(
  db: Database,
  link: { tenantId: string; token: string; sentAfter: Date },
  outcome: { status: string; overallResult: string; providerReference: string },
  completedAt: Date,
) {
  return db.transaction(async (tx) => {
    // The tenant and the lifetime again, in the statement that spends the token: the look before
    // it does not hold a link that expires while the provider answers.
    const [record] = await tx
      .update(verifications)
      .set({ ...outcome, inviteToken: null, completedAt })
      .where(
        and(
          eq(verifications.inviteToken, link.token),
          eq(verifications.tenantId, link.tenantId),
          gt(verifications.createdAt, link.sentAfter),
          eq(verifications.status, 'Pending'),
        ),
      )
      .returning();
    if (!record) return undefined;
    await tx.insert(verificationActivity).values({
      tenantId: record.tenantId,
      verificationId: record.id,
      userId: null,
      activity: `Biometric verification completed by the individual (${outcome.overallResult})`,
    });
    return record;
  });
}

/** A record's audit trail, oldest first (tests and support). */
export async function verificationAudit(db: Database, verificationId: number) {
  return db.select().from(verificationActivity).where(eq(verificationActivity.verificationId, verificationId)).orderBy(verificationActivity.id);
}
