import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from './client.ts';
import { applicationApplicants, applicationRequirements, applications } from './schema.ts';
import { failingSurname, samplePepList, sampleSanctionsList } from '../providers/identity-verification/sandbox-identity-verification.ts';

/**
 * People to try identity verification on (issue 14): on a few recent, incomplete demo applications
 * the primary applicant takes a sandbox test name (README "Identity verification sandbox") and an
 * unverified requirement eligible for all three modes. Runs after the application seed; does
 * nothing once the examples exist.
 */
export const verificationExamples = [
  { firstName: 'Sandra', lastName: 'Sandbox' },
  { firstName: 'Samuel', lastName: 'Sandbox' },
  { firstName: 'Jane', lastName: failingSurname },
  { firstName: sampleSanctionsList[0].split(' ')[0] ?? '', lastName: sampleSanctionsList[0].split(' ')[1] ?? '' },
  { firstName: samplePepList[0].split(' ')[0] ?? '', lastName: samplePepList[0].split(' ')[1] ?? '' },
] as const;

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
      const [applicant] = await tx
        .update(applicationApplicants)
        .set({ firstName: person.firstName, lastName: person.lastName, dateOfBirth: '1985-06-15' })
        .where(and(eq(applicationApplicants.applicationId, target.id), eq(applicationApplicants.position, 0)))
        .returning({ id: applicationApplicants.id });
      if (!applicant) continue;
      const name = `${person.firstName} ${person.lastName}`;
      await tx.update(applications).set({ clientName: name }).where(eq(applications.id, target.id));
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
