import { and, eq, sql } from 'drizzle-orm';
import { signingModeLabel, type ActionFacts } from '../../src/domain/application-actions.ts';
import type { Database } from './client.ts';
import { visibleTo, type Actor } from './applications-store.ts';
import { applicationActivity, applicationApplicants, applicationLabels, applicationOwners, applications, tenants } from './schema.ts';

/**
 * Writes of the detail screen's actions (AM §2 Actions dropdown and editors, issue 13). Each runs
 * in one transaction that first locks the application row (visible to the actor, as the detail is),
 * so the route can judge the action on the row as it is now, and then writes the change with its
 * activity-feed entry: two people acting on one application at once are applied one after the
 * other, each with its own entry, and a failure anywhere leaves neither.
 *
 * Activity texts name the staff member and what changed, never the applicant's personal data
 * (an e-mail address, a name): the feed is kept when the application is depersonalised.
 */

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The application as the actions read and judge it. */
export interface ActionApplication {
  id: number;
  guid: string;
  tenantId: string;
  status: string;
  previousStatus: string;
  dateCompleted: Date | null;
  applicationModeCode: string;
  ownerId: string | null;
  adviserName: string;
  label: string;
}

/** `{id}` routes address the ApplicationID, `{guid}` routes and bodies the ApplicationGuid. */
export type ApplicationKey = { id: number } | { guid: string };

/** AM §6 facts of the rules (src/domain/application-actions.ts), from the stored row. */
export const actionFactsOf = (application: ActionApplication): ActionFacts => ({
  Status: application.status,
  IsComplete: application.dateCompleted !== null,
  ApplicationModeCode: signingModeLabel(application.applicationModeCode),
});

/**
 * The application if the actor may see it, locked until the transaction ends (a concurrent action
 * on it waits, then reads what the first one wrote); undefined for an unknown, another tenant's,
 * cancelled or invisible one alike.
 */
export async function lockVisibleApplication(tx: Tx, actor: Actor, key: ApplicationKey): Promise<ActionApplication | undefined> {
  const [row] = await tx
    .select({
      id: applications.id,
      guid: applications.guid,
      tenantId: applications.tenantId,
      status: applications.status,
      previousStatus: applications.previousStatus,
      dateCompleted: applications.dateCompleted,
      applicationModeCode: applications.applicationModeCode,
      ownerId: applications.ownerId,
      adviserName: applications.adviserName,
      label: applications.label,
    })
    .from(applications)
    .where(
      and(
        'id' in key ? eq(applications.id, key.id) : eq(applications.guid, key.guid.toLowerCase()),
        eq(applications.tenantId, actor.tenantId),
        visibleTo(actor),
      ),
    )
    .for('update');
  return row;
}

export async function recordActivity(tx: Tx, actor: Actor, applicationId: number, activity: string) {
  await tx.insert(applicationActivity).values({ tenantId: actor.tenantId, applicationId, userId: actor.userId, activity });
}

/** Every action writes the row through here, so the list's triggers (search words, data version) see one statement. */
async function updateApplication(tx: Tx, application: ActionApplication, values: Partial<typeof applications.$inferInsert>) {
  await tx.update(applications).set(values).where(eq(applications.id, application.id));
}

export const assignedActivity = (assignee: string, actor: string) => `Assigned to ${assignee} by ${actor}`;
export const unassignedActivity = (actor: string) => `Assignee cleared by ${actor}`;

export async function assignApplication(tx: Tx, actor: Actor, application: ActionApplication, assignee: { id: string; name: string } | null) {
  await updateApplication(tx, application, { assigneeUserId: assignee?.id ?? null, assigneeDisplayName: assignee?.name ?? '' });
  const activity = assignee ? assignedActivity(assignee.name, actor.displayName) : unassignedActivity(actor.displayName);
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

/** A label of the tenant people created (kind 'label'), by its exact name. */
export async function labelExists(db: Database, tenantId: string, name: string) {
  const [row] = await db
    .select({ name: applicationLabels.name })
    .from(applicationLabels)
    .where(and(eq(applicationLabels.tenantId, tenantId), eq(applicationLabels.kind, 'label'), eq(applicationLabels.name, name)));
  return row !== undefined;
}

export async function setLabel(tx: Tx, actor: Actor, application: ActionApplication, label: string) {
  await updateApplication(tx, application, { label });
  const activity = label === '' ? `Label cleared by ${actor.displayName}` : `Label set to ${label} by ${actor.displayName}`;
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

export type AddLabelOutcome = { added: true } | { added: false; reason: 'limit' | 'exists' };

/**
 * Creates a label of the tenant unless it has `limit` already (AM §5 MaximumLabelLimit) or one of
 * that name. The tenant row is locked first, so two people adding the last free label at once
 * cannot both succeed.
 */
export async function addLabel(db: Database, tenantId: string, name: string, limit: number): Promise<AddLabelOutcome> {
  return db.transaction(async (tx) => {
    await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for('update');
    const [counted] = await tx
      .select({
        total: sql<number>`count(*)::int`,
        same: sql<number>`count(*) filter (where ${applicationLabels.name} = ${name})::int`,
      })
      .from(applicationLabels)
      .where(and(eq(applicationLabels.tenantId, tenantId), eq(applicationLabels.kind, 'label')));
    if ((counted?.same ?? 0) > 0) return { added: false, reason: 'exists' };
    if ((counted?.total ?? 0) >= limit) return { added: false, reason: 'limit' };
    await tx.insert(applicationLabels).values({ tenantId, kind: 'label', name });
    return { added: true };
  });
}

export async function findTenantOwner(db: Database, tenantId: string, ownerId: string) {
  const [owner] = await db
    .select()
    .from(applicationOwners)
    .where(and(eq(applicationOwners.tenantId, tenantId), eq(applicationOwners.id, ownerId.toLowerCase())));
  return owner;
}

export async function changeOwner(tx: Tx, actor: Actor, application: ActionApplication, owner: { id: string; displayName: string }) {
  // The location and restriction group stay: they say which branch handles the application, not who advises.
  await updateApplication(tx, application, { ownerId: owner.id, adviserName: owner.displayName });
  const from = application.adviserName ? ` from ${application.adviserName}` : '';
  const activity = `Owner changed${from} to ${owner.displayName} by ${actor.displayName}`;
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

/** The primary applicant's address goes with the application's: the detail's Email and the applicant's record agree. */
export async function changePrimaryEmail(tx: Tx, actor: Actor, application: ActionApplication, email: string) {
  await updateApplication(tx, application, { primaryEmail: email });
  await tx
    .update(applicationApplicants)
    .set({ email })
    .where(
      and(
        eq(applicationApplicants.applicationId, application.id),
        sql`${applicationApplicants.position} = (select min(p.position) from application_applicants p where p.application_id = ${application.id})`,
      ),
    );
  const activity = `Primary e-mail address changed by ${actor.displayName}`;
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

export async function changeSigningMode(tx: Tx, actor: Actor, application: ActionApplication, mode: string) {
  await updateApplication(tx, application, { applicationModeCode: mode });
  const activity = `Signing mode changed to ${signingModeLabel(mode)} by ${actor.displayName}`;
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

/**
 * The status a locked application returns to: the one it had before it was locked. Applications
 * locked before statuses were tracked have none recorded; they go back to where an application is
 * locked, the applicant's form, or Complete when they had been completed.
 */
export function statusBeforeLock(application: ActionApplication): string {
  const previous = application.previousStatus;
  if (previous !== '' && previous !== 'Locked' && previous !== 'Cancelled') return previous;
  return application.dateCompleted === null ? 'Primary edit' : 'Complete';
}

export async function unlockApplication(tx: Tx, actor: Actor, application: ActionApplication) {
  const status = statusBeforeLock(application);
  await updateApplication(tx, application, { status, previousStatus: application.status });
  const activity = `Application unlocked (back to ${status}) by ${actor.displayName}`;
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

export async function findApplicant(tx: Tx, applicationId: number, individualId: string) {
  const [row] = await tx
    .select({ id: applicationApplicants.id, position: applicationApplicants.position, isMfaLocked: applicationApplicants.isMfaLocked })
    .from(applicationApplicants)
    .where(and(eq(applicationApplicants.applicationId, applicationId), eq(applicationApplicants.id, individualId.toLowerCase())))
    .for('update');
  return row;
}

/** Applicants are named by their place in the application, so the feed keeps no personal data. */
export async function unlockApplicant(tx: Tx, actor: Actor, application: ActionApplication, applicant: { id: string; position: number }) {
  await tx.update(applicationApplicants).set({ isMfaLocked: false }).where(eq(applicationApplicants.id, applicant.id));
  const activity = `Applicant ${applicant.position + 1} unlocked (multi-factor lock) by ${actor.displayName}`;
  await recordActivity(tx, actor, application.id, activity);
  return activity;
}

/** AM §4: editing a completed application resets approvals and takes it back to an edit status. */
export const reopenedStatus = 'Adviser edit';
export const pendingApproval = 'Pending';

export async function reopenForEdit(tx: Tx, actor: Actor, application: ActionApplication) {
  await tx
    .update(applicationApplicants)
    .set({ approvalStatus: pendingApproval, approvalUpdatedAt: sql`now()` })
    .where(eq(applicationApplicants.applicationId, application.id));
  await updateApplication(tx, application, { status: reopenedStatus, previousStatus: application.status, dateCompleted: null });
  await recordActivity(tx, actor, application.id, `Completed application reopened for editing by ${actor.displayName}; approvals reset`);
}

export async function recordEditRequested(tx: Tx, actor: Actor, application: ActionApplication) {
  await recordActivity(tx, actor, application.id, `Application opened for editing by ${actor.displayName}`);
}
