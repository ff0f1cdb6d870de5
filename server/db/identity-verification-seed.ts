import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationComments,
  applicationDocuments,
  applicationIps,
  applicationOutstandingDocuments,
  applicationRequirements,
  applications,
} from './schema.ts';
import { failingSurname, samplePepList, sampleSanctionsList } from '../providers/identity-verification/sandbox-identity-verification.ts';

/**
 * People to try identity verification on (issue 14): on a few recent, incomplete demo applications
 * the primary applicant takes a sandbox test name (README "Identity verification sandbox") and an
 * unverified requirement eligible for all three modes. Runs after the application seed; does
 * nothing once the examples exist.
 *
 * The new name replaces the generated person's everywhere the application names them (issue 32:
 * Sandra Sandbox kept lola.wilderman934@…, a VPN row and a 'Trust deed (Lola Wilderman)'): the
 * e-mail addresses, the account name, the VPN rows, document and requirement names, the feed and
 * the comments. Nothing else of the generated data changes.
 */
export const verificationExamples = [
  { firstName: 'Sandra', lastName: 'Sandbox' },
  { firstName: 'Samuel', lastName: 'Sandbox' },
  { firstName: 'Jane', lastName: failingSurname },
  { firstName: sampleSanctionsList[0].split(' ')[0] ?? '', lastName: sampleSanctionsList[0].split(' ')[1] ?? '' },
  { firstName: samplePepList[0].split(' ')[0] ?? '', lastName: samplePepList[0].split(' ')[1] ?? '' },
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with the whole word `from` as `to`. */
const replaceWord = (text: string, from: string, to: string) =>
  from === '' ? text : text.replace(new RegExp(`(?<![\\p{L}])${escapeRegExp(from)}(?![\\p{L}])`, 'gu'), to);

/** The generated address's name part ('lola.wilderman934@example.com') for the new name, its number and domain kept. */
export const renamedEmail = (email: string, firstName: string, lastName: string) =>
  email === '' ? email : email.replace(/^[^@]*?(?=[0-9]*@)/, `${firstName}.${lastName}`.toLowerCase());

const unverifiedAction =
  '<p>We could not verify this person electronically. Please provide a certified copy of a <strong>driver licence</strong> or <strong>passport</strong>.</p>';

export async function seedVerificationExamples(db: Database, tenantId = 'demo'): Promise<void> {
  const [done] = await db
    .select({ id: applicationApplicants.id })
    .from(applicationApplicants)
    .innerJoin(applications, eq(applications.id, applicationApplicants.applicationId))
    .where(and(eq(applications.tenantId, tenantId), eq(applicationApplicants.lastName, 'Sandbox')))
    .limit(1);
  if (done) return;
  const targets = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.tenantId, tenantId), inArray(applications.status, ['Primary submit', 'Secondary review'])))
    .orderBy(desc(applications.id))
    .limit(verificationExamples.length);
  await db.transaction(async (tx) => {
    for (const [index, target] of targets.entries()) {
      const person = verificationExamples[index]!;
      const primary = and(eq(applicationApplicants.applicationId, target.id), eq(applicationApplicants.position, 0));
      const [before] = await tx
        .select({ firstName: applicationApplicants.firstName, lastName: applicationApplicants.lastName, email: applicationApplicants.email })
        .from(applicationApplicants)
        .where(primary);
      if (!before) continue;
      const [applicant] = await tx
        .update(applicationApplicants)
        .set({
          firstName: person.firstName,
          lastName: person.lastName,
          email: renamedEmail(before.email, person.firstName, person.lastName),
          dateOfBirth: '1985-06-15',
        })
        .where(primary)
        .returning({ id: applicationApplicants.id });
      if (!applicant) continue;
      const name = `${person.firstName} ${person.lastName}`;
      const oldName = `${before.firstName} ${before.lastName}`;
      const [application] = await tx
        .select({ accountName: applications.accountName, primaryEmail: applications.primaryEmail })
        .from(applications)
        .where(eq(applications.id, target.id));
      await tx
        .update(applications)
        .set({
          clientName: name,
          primaryEmail: renamedEmail(application?.primaryEmail ?? '', person.firstName, person.lastName),
          accountName: replaceWord(replaceWord(application?.accountName ?? '', before.firstName, person.firstName), before.lastName, person.lastName),
        })
        .where(eq(applications.id, target.id));
      // The person's own rows: only their full name changes (a co-applicant sharing the surname keeps theirs).
      await tx
        .update(applicationIps)
        .set({ applicantName: name })
        .where(and(eq(applicationIps.applicationId, target.id), eq(applicationIps.applicantName, oldName)));
      const renamed = (column: AnyPgColumn) => sql`replace(${column}, ${oldName}, ${name})`;
      await tx.update(applicationDocuments).set({ friendlyName: renamed(applicationDocuments.friendlyName), originalFileName: renamed(applicationDocuments.originalFileName) }).where(eq(applicationDocuments.applicationId, target.id));
      await tx.update(applicationOutstandingDocuments).set({ name: renamed(applicationOutstandingDocuments.name) }).where(eq(applicationOutstandingDocuments.applicationId, target.id));
      await tx.update(applicationActivity).set({ activity: renamed(applicationActivity.activity) }).where(eq(applicationActivity.applicationId, target.id));
      await tx.update(applicationComments).set({ comment: renamed(applicationComments.comment) }).where(eq(applicationComments.applicationId, target.id));
      await tx
        .update(applicationRequirements)
        .set({
          name: `${name} - Identification`,
          result: 1,
          resultText: 'Not verified',
          actionRequired: unverifiedAction,
          eligibleForReverification: true,
          eligibleForNewVerification: true,
          eligibleForSanctionsVerification: true,
        })
        .where(and(eq(applicationRequirements.applicationId, target.id), eq(applicationRequirements.entityGuid, applicant.id)));
    }
  });
}
