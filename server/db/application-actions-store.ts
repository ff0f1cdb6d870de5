import { and, eq, inArray, sql } from 'drizzle-orm';
import { signingModeLabel, type ActionFacts } from '../../src/domain/application-actions.ts';
import type { Database } from './client.ts';
import { toSql, type Actor } from './applications-store.ts';
import { visibleById } from './application-detail-store.ts';
import { Params } from './applications-list.ts';
import { sqlRunner } from './sql-runner.ts';
import { ReadBatchesByKind } from './read-batches.ts';
import { applicationActivity, applicationApplicants, applicationLabels, applicationOwners, applications, tenants } from './schema.ts';

/**
 * Writes of the detail screen's actions (AM §2 Actions dropdown and editors, issue 13).
 *
 * Most actions are one statement: the route reads the application (visible to the actor, as the
 * detail is) and judges the action on it; the change and its activity-feed entry are then written
 * by one statement (a data-modifying CTE) that applies only while the facts the verdict was judged
 * on still hold. A statement is its own transaction, so a failure anywhere leaves neither, and two
 * people acting on one application at once are applied one after the other, each with its own
 * entry. On PGlite that is two round trips to the database thread instead of five, and no
 * transaction holding the one connection while JavaScript judges (docs: bench:actions).
 * Actions of several statements (request edit, applicant unlock, depersonalise) run in a
 * transaction that locks the row first.
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
  /** date_completed is set (AM §3 IsComplete). */
  completed: boolean;
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
  IsComplete: application.completed,
  ApplicationModeCode: signingModeLabel(application.applicationModeCode),
});

/** The columns of ActionApplication, in order, as text (prepared statements answer text rows). */
const actionColumnsText =
  "id::text, guid::text, tenant_id, status, previous_status, (date_completed is not null)::text, application_mode_code, owner_id::text, adviser_name, label";

function actionApplicationOf(row: readonly (string | null)[] | undefined): ActionApplication | undefined {
  if (!row) return undefined;
  const [id, guid, tenantId, status, previousStatus, completed, mode, ownerId, adviserName, label] = row;
  return {
    id: Number(id),
    guid: guid ?? '',
    tenantId: tenantId ?? '',
    status: status ?? '',
    previousStatus: previousStatus ?? '',
    completed: completed === 'true',
    applicationModeCode: mode ?? '',
    ownerId: ownerId ?? null,
    adviserName: adviserName ?? '',
    label: label ?? '',
  };
}

const keyCondition = (params: Params, key: ApplicationKey) =>
  'id' in key ? `id = ${params.add(key.id)}` : `guid = ${params.add(key.guid.toLowerCase())}::uuid`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Action reads waiting to be batched, per database and statement (its name and every parameter but the keys). */
const actionReads = new ReadBatchesByKind<string, ActionApplication>();

/**
 * The application if the actor may see it (a cancelled one too: the write rule answers 409 for
 * it); undefined for an unknown, another tenant's or invisible one alike. A prepared statement per key kind and visibility, planned once; reads
 * that arrive together for the same statement share it (read-batches.ts), as every action starts
 * with one.
 */
export async function findActionApplication(db: Database, actor: Actor, key: ApplicationKey): Promise<ActionApplication | undefined> {
  const byId = 'id' in key;
  // A key the batch's array cannot hold would fail every read batched with it.
  if (byId ? !Number.isSafeInteger(key.id) : !uuidPattern.test(key.guid)) return undefined;
  const params = new Params();
  const keys = params.add('keys');
  const visible = visibleById(params, actor);
  const name = `action_applications_${byId ? 'id' : 'guid'}_${visible.name}`;
  const values = params.values.slice(1);
  const text = `select ${actionColumnsText} from applications where ${byId ? `id = any(${keys}::bigint[])` : `guid = any(${keys}::uuid[])`} and ${visible.condition}`;
  const read = actionReads.reader(db, `${name}:${JSON.stringify(values)}`, async (wanted) => {
    const rows = await sqlRunner(db).preparedTextRows(name, text, [`{${wanted.join(',')}}`, ...values]);
    const found = rows.map(actionApplicationOf).filter((application) => application !== undefined);
    return new Map(found.map((application) => [byId ? String(application.id) : application.guid, application]));
  });
  return read(byId ? String(key.id) : key.guid.toLowerCase());
}

/** The same, locked until the transaction ends (a concurrent action on it waits, then reads what the first one wrote). */
export async function lockVisibleApplication(tx: Tx, actor: Actor, key: ApplicationKey): Promise<ActionApplication | undefined> {
  const params = new Params();
  const condition = keyCondition(params, key);
  const visible = visibleById(params, actor);
  const result = await tx.execute(toSql(`select ${actionColumnsText} from applications where ${condition} and ${visible.condition} for update`, params.values));
  const [row] = rowsOf(result);
  return actionApplicationOf(row && typeof row === 'object' ? Object.values(row).map((value) => (value === null ? null : String(value))) : undefined);
}

/**
 * Locks the applications a write request names, in id order (two requests naming the same ones
 * cannot wait on each other), until the transaction ends, and answers their statuses as they are
 * now: a depersonalise that committed meanwhile is seen, one still running is waited for
 * (server/api/application-write-rule.ts).
 */
export async function lockApplicationsForWrite(tx: Tx, ids: readonly number[]): Promise<string[]> {
  const rows = await tx
    .select({ status: applications.status })
    .from(applications)
    .where(inArray(applications.id, [...ids]))
    .orderBy(applications.id)
    .for('update');
  return rows.map((row) => row.status);
}

/**
 * One action's change: its name (the prepared statement's), the columns it sets and any other
 * table it writes with them, as SQL with `$n` placeholders added to `params`, and its activity entry.
 */
export interface ActionWrite {
  name: string;
  set: (params: Params) => string;
  /** Further data-modifying CTEs; `target` is the CTE of the updated row's id. */
  alongside?: (params: Params) => string;
  activity: string;
}

const rowsOf = (result: unknown): unknown[] => {
  const rows: unknown = Reflect.get(Object(result), 'rows');
  return Array.isArray(rows) ? rows : [];
};

/**
 * Writes the change and its activity entry in one statement, only while the application is as it
 * was judged (status, completion, signing mode, owner's name) and still visible to the actor.
 * False when it no longer is: the caller reads and judges again.
 */
export async function writeAction(db: Database, actor: Actor, application: ActionApplication, write: ActionWrite): Promise<boolean> {
  const params = new Params();
  const id = params.add(application.id);
  const set = write.set(params);
  const visible = visibleById(params, actor);
  const text = `
with target as (
  update applications set ${set}
   where id = ${id}
     and status = ${params.add(application.status)}
     and (date_completed is not null) = ${params.add(String(application.completed))}::boolean
     and application_mode_code = ${params.add(application.applicationModeCode)}
     and adviser_name = ${params.add(application.adviserName)}
     and ${visible.condition}
  returning id, tenant_id
)${write.alongside ? `, ${write.alongside(params)}` : ''}
insert into application_activity (tenant_id, application_id, user_id, activity)
select tenant_id, id, ${params.add(actor.userId)}::uuid, ${params.add(write.activity)} from target
returning id::text`;
  const rows = await sqlRunner(db).preparedTextRows(`action_${write.name}_${visible.name}`, text, params.values);
  return rows.length > 0;
}

export async function recordActivity(tx: Tx, actor: Actor, applicationId: number, activity: string) {
  await tx.insert(applicationActivity).values({ tenantId: actor.tenantId, applicationId, userId: actor.userId, activity });
}

/** Multi-statement actions write the row through here, in their transaction. */
async function updateApplication(tx: Tx, application: ActionApplication, values: Partial<typeof applications.$inferInsert>) {
  await tx.update(applications).set(values).where(eq(applications.id, application.id));
}

export const assignedActivity = (assignee: string, actor: string) => `Assigned to ${assignee} by ${actor}`;
export const unassignedActivity = (actor: string) => `Assignee cleared by ${actor}`;

export const assignWrite = (actor: Actor, assignee: { id: string; name: string } | null): ActionWrite => ({
  name: 'assign',
  set: (params) => `assignee_user_id = ${params.add(assignee?.id ?? null)}::uuid, assignee_display_name = ${params.add(assignee?.name ?? '')}`,
  activity: assignee ? assignedActivity(assignee.name, actor.displayName) : unassignedActivity(actor.displayName),
});

/** A label of the tenant people created (kind 'label'), by its exact name. */
export async function labelExists(db: Database, tenantId: string, name: string) {
  // Prepared: every label save reads it (see assigneeOption).
  const rows = await sqlRunner(db).preparedTextRows(
    'label_exists',
    `select 1::text from application_labels where tenant_id = $1 and kind = 'label' and name = $2`,
    [tenantId, name],
  );
  return rows.length > 0;
}

export const setLabelWrite = (actor: Actor, label: string): ActionWrite => ({
  name: 'label',
  set: (params) => `label = ${params.add(label)}`,
  activity: label === '' ? `Label cleared by ${actor.displayName}` : `Label set to ${label} by ${actor.displayName}`,
});

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

// The location and restriction group stay: they say which branch handles the application, not who advises.
export const changeOwnerWrite = (actor: Actor, application: ActionApplication, owner: { id: string; displayName: string }): ActionWrite => ({
  name: 'owner',
  set: (params) => `owner_id = ${params.add(owner.id)}::uuid, adviser_name = ${params.add(owner.displayName)}`,
  activity: `Owner changed${application.adviserName ? ` from ${application.adviserName}` : ''} to ${owner.displayName} by ${actor.displayName}`,
});

/** The primary applicant's address goes with the application's: the detail's Email and the applicant's record agree. */
export const changePrimaryEmailWrite = (actor: Actor, email: string): ActionWrite => ({
  name: 'primary_email',
  set: (params) => `primary_email = ${params.add(email)}`,
  activity: `Primary e-mail address changed by ${actor.displayName}`,
  alongside: (params) => `primary_applicant as (
  update application_applicants p set email = ${params.add(email)}
   where p.application_id in (select id from target)
     and p.position = (select min(q.position) from application_applicants q where q.application_id = p.application_id)
)`,
});

export const changeSigningModeWrite = (actor: Actor, mode: string): ActionWrite => ({
  name: 'signing_mode',
  set: (params) => `application_mode_code = ${params.add(mode)}`,
  activity: `Signing mode changed to ${signingModeLabel(mode)} by ${actor.displayName}`,
});

/**
 * The status a locked application returns to: the one it had before it was locked. Applications
 * locked before statuses were tracked have none recorded; they go back to where an application is
 * locked, the applicant's form, or Complete when they had been completed.
 */
export function statusBeforeLock(application: ActionApplication): string {
  const previous = application.previousStatus;
  if (previous !== '' && previous !== 'Locked' && previous !== 'Cancelled') return previous;
  return application.completed ? 'Complete' : 'Primary edit';
}

export function unlockApplicationWrite(actor: Actor, application: ActionApplication): ActionWrite {
  const status = statusBeforeLock(application);
  return {
    name: 'unlock',
    set: (params) => `status = ${params.add(status)}, previous_status = status`,
    activity: `Application unlocked (back to ${status}) by ${actor.displayName}`,
  };
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
