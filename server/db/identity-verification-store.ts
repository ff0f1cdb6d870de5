import { and, eq, sql } from 'drizzle-orm';
import type { VerificationMode } from '../../src/schemas/identity-verification.schema.ts';
import { verificationModeRules } from '../../src/domain/identity-verification.ts';
import type { Actor } from './applications-store.ts';
import type { Database } from './client.ts';
import { applicationApplicants, applicationRequirements } from './schema.ts';
import type { Individual, VerificationResult } from '../providers/identity-verification/identity-verification-provider.ts';

/**
 * Identity verification's reads and writes (AM §3 Requirement, §4): the individual with their
 * identification requirement, and the result written to the requirement with its activity-feed
 * entry in one transaction.
 */

export interface IndividualRequirement {
  individual: Individual;
  requirementId: number;
  result: number;
  resultText: string;
  IsEligibleForReverification: boolean;
  IsEligibleForNewVerification: boolean;
  IsEligibleForSanctionsVerification: boolean;
}

/** The applicant `individualId` of the application with their requirement (EntityGuid = IndividualId); undefined if none. */
export async function individualRequirement(db: Database, applicationId: number, individualId: string): Promise<IndividualRequirement | undefined> {
  const [row] = await db
    .select({
      firstName: applicationApplicants.firstName,
      lastName: applicationApplicants.lastName,
      dateOfBirth: applicationApplicants.dateOfBirth,
      address: applicationApplicants.address,
      requirementId: applicationRequirements.id,
      result: applicationRequirements.result,
      resultText: applicationRequirements.resultText,
      reverification: applicationRequirements.eligibleForReverification,
      newVerification: applicationRequirements.eligibleForNewVerification,
      sanctions: applicationRequirements.eligibleForSanctionsVerification,
    })
    .from(applicationApplicants)
    .innerJoin(
      applicationRequirements,
      and(eq(applicationRequirements.applicationId, applicationApplicants.applicationId), eq(applicationRequirements.entityGuid, applicationApplicants.id)),
    )
    .where(and(eq(applicationApplicants.applicationId, applicationId), eq(applicationApplicants.id, individualId.toLowerCase())))
    .orderBy(applicationRequirements.id)
    .limit(1);
  if (!row) return undefined;
  return {
    individual: { firstName: row.firstName, lastName: row.lastName, dateOfBirth: row.dateOfBirth, address: row.address },
    requirementId: row.requirementId,
    result: row.result,
    resultText: row.resultText,
    IsEligibleForReverification: row.reverification,
    IsEligibleForNewVerification: row.newVerification,
    IsEligibleForSanctionsVerification: row.sanctions,
  };
}

const notVerifiedAction =
  '<p>We could not verify this person electronically. Please provide a certified copy of a <strong>driver licence</strong> or <strong>passport</strong>.</p>';
const matchAction = (list: string) =>
  `<p>Possible match on a ${list}. Review the match before the application proceeds, then screen the individual again.</p>`;

export interface RequirementUpdate {
  result: number;
  resultText: string;
  actionRequired: string | undefined;
  eligibleForReverification: boolean;
  eligibleForNewVerification: boolean;
  eligibleForSanctionsVerification: boolean;
}

/**
 * What the requirement becomes: a verified identity is met and needs no further verification; one
 * not verified may be re-verified with identification added; a PEP or sanctions match is a failed
 * requirement that only a new screening (after review) can clear. A clear screening leaves the
 * identity result as it was.
 */
export function requirementAfter(mode: VerificationMode, outcome: VerificationResult['outcome'], current: IndividualRequirement): RequirementUpdate {
  const keep = {
    result: current.result,
    resultText: current.resultText,
    actionRequired: undefined,
    eligibleForReverification: current.IsEligibleForReverification,
    eligibleForNewVerification: current.IsEligibleForNewVerification,
    eligibleForSanctionsVerification: current.IsEligibleForSanctionsVerification,
  };
  switch (outcome) {
    case 'passed':
      return mode === 'SanctionsOnly'
        ? keep
        : { ...keep, result: 0, resultText: 'Verified', actionRequired: '', eligibleForReverification: false, eligibleForNewVerification: false };
    case 'notVerified':
      return { ...keep, result: 1, resultText: 'Not verified', actionRequired: notVerifiedAction, eligibleForReverification: true };
    case 'sanctionsHit':
    case 'pepHit':
      return {
        result: 2,
        resultText: outcome === 'sanctionsHit' ? 'Sanctions match' : 'PEP match',
        actionRequired: matchAction(outcome === 'sanctionsHit' ? 'sanctions list' : 'politically exposed persons list'),
        eligibleForReverification: false,
        eligibleForNewVerification: false,
        eligibleForSanctionsVerification: true,
      };
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The activity-feed entry: 'Re-verification passed for Olivia Nguyen by Demo Admin: The identity was verified.' */
export const verificationActivity = (mode: VerificationMode, passed: boolean, name: string, by: string, message: string) =>
  `${capitalised(verificationModeRules[mode].words)} ${passed ? 'passed' : 'failed'} for ${name} by ${by}: ${message}`;

const flagColumn = {
  IsEligibleForReverification: 'eligible_for_reverification',
  IsEligibleForNewVerification: 'eligible_for_new_verification',
  IsEligibleForSanctionsVerification: 'eligible_for_sanctions_verification',
} as const;

/**
 * Writes the result and its activity entry in one transaction: one statement (the update, and the
 * insert fed by what it updated), so on PGlite it is one round trip rather than begin, update,
 * insert, commit. The update holds only while the requirement is still eligible for the mode
 * (another verification may have finished meanwhile): false when it no longer is, and nothing is written.
 */
export async function recordVerification(
  db: Database,
  actor: Actor,
  applicationId: number,
  requirementId: number,
  mode: VerificationMode,
  update: RequirementUpdate,
  activity: string,
): Promise<boolean> {
  const flag = sql.raw(flagColumn[verificationModeRules[mode].flag]);
  // In a transaction of its own: the write rule takes the application's row first and checks its
  // status there, so no verification (its activity names the person) lands after an erasure (issue 38).
  const rows = await db.transaction((tx) => tx.execute<{ id: number }>(sql`
    with updated as (
      update application_requirements
         set result = ${update.result},
             result_text = ${update.resultText},
             action_required = coalesce(${update.actionRequired ?? null}::text, action_required),
             eligible_for_reverification = ${update.eligibleForReverification},
             eligible_for_new_verification = ${update.eligibleForNewVerification},
             eligible_for_sanctions_verification = ${update.eligibleForSanctionsVerification}
       where id = ${requirementId} and ${flag}
   returning id)
    insert into application_activity (tenant_id, application_id, user_id, activity)
    select ${actor.tenantId}, ${applicationId}, ${actor.userId}::uuid, ${activity} from updated
    returning id`));
  return rowsOf(rows).length > 0;
}

/** drizzle's execute answers `{ rows }` on both drivers (PGlite and node-postgres). */
const rowsOf = (result: unknown): unknown[] =>
  typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows) ? result.rows : [];
