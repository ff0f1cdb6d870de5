import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { allAppsClaims, myAppsClaim } from '../../src/domain/claims.ts';
import { effectiveClaims } from '../../src/domain/application-access.ts';
import { emptyFilters } from '../../src/domain/list-request.ts';
import { closedStatuses } from '../../src/domain/application-write-rule.ts';
import {
  detailRowCatalogue,
  detailRowNames,
  fixedListColumns,
  isDetailRow,
  isListColumn,
  listColumnCatalogue,
  listColumnNames,
  visibleDetailRows,
  visibleListColumns,
} from '../../src/domain/list-columns.ts';
import type { Database } from './client.ts';
import {
  applicationActivity,
  applicationLabels,
  applicationOwners,
  applications,
  detailRowSettings,
  listColumnSettings,
  products,
  serverSecrets,
  subBrands,
  users,
} from './schema.ts';
import { listWhere, Params, type ListScope } from './applications-list.ts';
import { sqlRunner, type SqlParam } from './sql-runner.ts';

/** The caller as the application store needs them (a subset of the API principal). */
export interface Actor {
  userId: string;
  tenantId: string;
  displayName: string;
  email: string;
  claims: readonly string[];
}

/** My Apps: what the user owns or is assigned to (docs/decisions/001). */
export const myAppsScope = (actor: Actor): ListScope => ({ kind: 'mine', userId: actor.userId });

/**
 * All Apps: the whole tenant with view.allapps.instance; otherwise the applications of the user's
 * locations (view.allapps.location) and/or restriction groups (view.allapps.restrictiongroup).
 */
export function allAppsScope(actor: Actor): ListScope {
  if (actor.claims.includes('view.allapps.instance')) return { kind: 'instance' };
  return {
    kind: 'restricted',
    userId: actor.userId,
    byLocation: actor.claims.includes('view.allapps.location'),
    byRestrictionGroup: actor.claims.includes('view.allapps.restrictiongroup'),
  };
}

/** Every scope the actor holds: an application is visible to them when it is in any. */
export function visibleScopes(actor: Actor): ListScope[] {
  const scopes: ListScope[] = [];
  if (actor.claims.includes(myAppsClaim)) scopes.push(myAppsScope(actor));
  if (allAppsClaims.some((claim) => actor.claims.includes(claim))) scopes.push(allAppsScope(actor));
  return scopes;
}

/** A statement written with `$n` placeholders (the list's builder) as a Drizzle SQL fragment. */
export function toSql(text: string, params: readonly SqlParam[]): SQL {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    chunks.push(sql`${params[Number(match[1]) - 1] ?? null}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

/** "The actor can see this row" as a condition over `applications`. */
export function visibleTo(actor: Actor): SQL {
  const scopes = visibleScopes(actor);
  if (scopes.length === 0) return sql`false`;
  const parts = scopes.map((scope) => {
    const params = new Params();
    return toSql(`(${listWhere(params, actor.tenantId, scope, emptyFilters)})`, params.values);
  });
  // Parenthesised: Drizzle's and() does not wrap raw fragments, and OR binds looser than AND.
  return sql`(${sql.join(parts, sql` or `)})`;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => uuidPattern.test(value);

/**
 * Cancels the applications among `guids` that the actor can see, with their activity-feed entries,
 * in one statement each (500 one by one took seconds); returns the guids (lower case) that are now
 * cancelled by the actor. One cancelled earlier by the same actor counts: a retry after a cut-off
 * must not report what it already did as a failure.
 */
async function cancelVisible(tx: Pick<Database, 'update' | 'insert' | 'select'>, actor: Actor, guids: readonly string[]) {
  const cancelled = await tx
    .update(applications)
    .set({ status: 'Cancelled', previousStatus: sql`${applications.status}` })
    .where(
      and(
        inArray(applications.guid, [...guids]),
        eq(applications.tenantId, actor.tenantId),
        visibleTo(actor),
        // The one write rule (src/domain/application-write-rule.ts), per application: a depersonalised one fails.
        notInArray(applications.status, [...closedStatuses]),
      ),
    )
    .returning({ id: applications.id, guid: applications.guid });
  if (cancelled.length > 0) {
    await tx.insert(applicationActivity).values(
      cancelled.map((row) => ({
        tenantId: actor.tenantId,
        applicationId: row.id,
        userId: actor.userId,
        activity: `${cancelledActivity}${actor.displayName}`,
      })),
    );
  }
  const done = new Set(cancelled.map((row) => row.guid));
  const rest = guids.filter((guid) => !done.has(guid));
  if (rest.length === 0) return done;
  const earlier = await tx
    .select({ guid: applications.guid })
    .from(applications)
    .where(
      and(
        inArray(applications.guid, rest),
        eq(applications.tenantId, actor.tenantId),
        eq(applications.status, 'Cancelled'),
        sql`exists (select 1 from ${applicationActivity} where ${applicationActivity.applicationId} = ${applications.id}
          and ${applicationActivity.userId} = ${actor.userId} and ${applicationActivity.activity} like ${`${cancelledActivity}%`})`,
      ),
    );
  for (const row of earlier) done.add(row.guid);
  return done;
}

const cancelledActivity = 'Application cancelled by ';

/**
 * Cancels the applications in one transaction; if that fails, each in its own, so that one failure
 * (a feed entry that cannot be written) leaves the others cancelled. Unknown, another tenant's and
 * invisible applications fail; each result names the guid as it was sent.
 */
export async function cancelApplications(
  db: Database,
  actor: Actor,
  guids: readonly string[],
  onError?: (error: unknown, guid: string) => void,
) {
  const wanted = [...new Set(guids.filter(isUuid).map((guid) => guid.toLowerCase()))];
  let cancelled = new Set<string>();
  if (wanted.length > 0) {
    try {
      cancelled = await db.transaction((tx) => cancelVisible(tx, actor, wanted));
    } catch {
      for (const guid of wanted) {
        const one = await db.transaction((tx) => cancelVisible(tx, actor, [guid])).catch((error: unknown) => {
          onError?.(error, guid);
          return new Set<string>();
        });
        if (one.has(guid)) cancelled.add(guid);
      }
    }
  }
  return guids.map((guid) => ({ ApplicationGuid: guid, Success: isUuid(guid) && cancelled.has(guid.toLowerCase()) }));
}

type Owner = typeof applicationOwners.$inferSelect;

/**
 * The actor's own owner record (created on first use), for applications they start themselves. One
 * statement (issue 33: each round trip waits behind the database thread): the select does not see the
 * CTE's insert (one snapshot), so exactly one of the two gives the row.
 */
export async function ownerForActor(db: Database, actor: Actor): Promise<Owner> {
  const columns = 'id::text, tenant_id, global_user_id::text, display_name, email, location';
  const [row] = await sqlRunner(db).textRows(
    `with inserted as (
       insert into application_owners (tenant_id, global_user_id, display_name, email, location)
       values ($1, $2::uuid, $3, $4, coalesce((select locations[1] from user_visibility where user_id = $2::uuid), ''))
       on conflict do nothing
       returning ${columns}
     )
     select * from inserted
     union all
     select ${columns} from application_owners where tenant_id = $1 and global_user_id = $2::uuid`,
    [actor.tenantId, actor.userId, actor.displayName, actor.email],
  );
  if (!row) throw new Error('Owner record missing after insert.');
  const [id = '', tenantId = '', globalUserId = '', displayName = '', email = '', location = ''] = row.map((value) => value ?? '');
  return { id, tenantId, globalUserId, displayName, email, location };
}

export async function findOwner(db: Database, tenantId: string, ownerId: string, globalUserId: string) {
  const [owner] = await db
    .select()
    .from(applicationOwners)
    .where(
      and(
        eq(applicationOwners.tenantId, tenantId),
        eq(applicationOwners.id, ownerId.toLowerCase()),
        eq(applicationOwners.globalUserId, globalUserId.toLowerCase()),
      ),
    );
  return owner;
}

/** Creates an application in its first status with the activity-feed entry, in one transaction. */
export async function createApplication(db: Database, actor: Actor, owner: Owner) {
  const onBehalf = owner.globalUserId === actor.userId ? '' : ` on behalf of ${owner.displayName}`;
  // The application and its activity entry in one statement (atomic as a transaction is): on PGlite
  // a transaction holds the only connection across each round trip to the event loop, which under
  // load is most of a create's time and every other request's wait (issue 33).
  const [created] = await sqlRunner(db).textRows(
    `with created as (
       insert into applications (tenant_id, status, owner_id, adviser_name, location, restriction_group, application_type, short_application_type, language, low_doc_status, application_mode_code)
       values ($1, 'Adviser edit', $2, $3, $4, coalesce((select restriction_groups[1] from user_visibility where user_id = $5::uuid), ''), 'Individual', 'IND', 'English', 'Required', 'Pin')
       returning id, guid
     ), logged as (
       insert into application_activity (tenant_id, application_id, user_id, activity)
       select $1, id, $5::uuid, $6 from created
     )
     select id::text, guid::text from created`,
    [actor.tenantId, owner.id, owner.displayName, owner.location, actor.userId, `Application created by ${actor.displayName}${onBehalf}`],
  );
  if (!created?.[0] || !created[1]) throw new Error('Insert returned nothing.');
  return { id: Number(created[0]), guid: created[1] };
}

/** The application behind the external form page, only within the tenant of the host. */
export async function findApplicationByGuid(db: Database, tenantId: string, guid: string) {
  if (!isUuid(guid)) return undefined;
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.guid, guid.toLowerCase()), eq(applications.tenantId, tenantId)));
  return row;
}

export interface FormDetails {
  accountName: string;
  clientName: string;
  primaryEmail: string;
}

/** What the provider's form saves, with its activity-feed entry in the same transaction. */
export async function saveFormDetails(db: Database, tenantId: string, applicationId: number, details: FormDetails) {
  // One statement, in a transaction of its own: the write rule takes the application's row first
  // and checks its status there (server/api/application-write-rule.ts, issue 38 point 2).
  await db.transaction((tx) => tx.execute(sql`
    with saved as (
      update ${applications} set account_name = ${details.accountName}, client_name = ${details.clientName}, primary_email = ${details.primaryEmail}
      where id = ${applicationId} and tenant_id = ${tenantId}
      returning id
    )
    insert into ${applicationActivity} (tenant_id, application_id, activity)
    select ${tenantId}, id, 'Application details saved in the application form' from saved`));
}

const formSecrets = new WeakMap<Database, Promise<Buffer>>();

/** The key that signs application-form links; in the database so every instance agrees. */
function formSecret(db: Database): Promise<Buffer> {
  let secret = formSecrets.get(db);
  if (!secret) {
    secret = (async () => {
      const name = 'application-form';
      await db.insert(serverSecrets).values({ name, value: { key: randomBytes(32).toString('hex') } }).onConflictDoNothing();
      const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
      const key = (row?.value as { key?: string } | undefined)?.key;
      if (!key) throw new Error('Application form secret missing.');
      return Buffer.from(key, 'hex');
    })();
    formSecrets.set(db, secret);
  }
  return secret;
}

export const formLinkLifetimeSeconds = 24 * 60 * 60;

/** What a form link lets its holder do: edit (New, Request edit) or only read (Request view). */
export type FormPurpose = 'edit' | 'view';

// An edit token's MAC input is unchanged (links already sent stay valid); a view token's differs, so it never opens the form for editing.
const formMac = (secret: Buffer, tenantId: string, guid: string, expires: number, purpose: FormPurpose) =>
  createHmac('sha256', secret)
    .update(`${tenantId}:${guid.toLowerCase()}:${expires}${purpose === 'view' ? ':view' : ''}`)
    .digest('base64url');

/** A link token for one application's form: expiry and an HMAC over tenant, application, expiry and purpose. */
export async function signFormToken(db: Database, tenantId: string, guid: string, now = Date.now(), purpose: FormPurpose = 'edit') {
  const expires = Math.floor(now / 1000) + formLinkLifetimeSeconds;
  return `${expires}.${formMac(await formSecret(db), tenantId, guid, expires, purpose)}`;
}

export async function verifyFormToken(db: Database, tenantId: string, guid: string, token: string, now = Date.now(), purpose: FormPurpose = 'edit') {
  const [expiresText, mac] = token.split('.');
  const expires = Number(expiresText);
  if (!mac || !Number.isInteger(expires) || expires * 1000 < now) return false;
  const expected = Buffer.from(formMac(await formSecret(db), tenantId, guid, expires, purpose));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/* Lookups (AM §7): each a Name/Value list of the tenant. */

export async function labelOptions(db: Database, tenantId: string, kind: 'label' | 'system') {
  const rows = await db
    .select({ name: applicationLabels.name })
    .from(applicationLabels)
    .where(and(eq(applicationLabels.tenantId, tenantId), eq(applicationLabels.kind, kind)))
    .orderBy(asc(applicationLabels.name));
  return rows.map(({ name }) => ({ Name: name, Value: name }));
}

export async function subBrandOptions(db: Database, tenantId: string) {
  const rows = await db.select({ name: subBrands.name }).from(subBrands).where(eq(subBrands.tenantId, tenantId)).orderBy(asc(subBrands.name));
  return rows.map(({ name }) => ({ Name: name, Value: name }));
}

export async function productOptions(db: Database, tenantId: string) {
  const rows = await db
    .select({ code: products.code, name: products.name })
    .from(products)
    .where(eq(products.tenantId, tenantId))
    .orderBy(asc(products.sortOrder), asc(products.name));
  return rows.map(({ code, name }) => ({ Name: name, Value: code }));
}

const assigneeColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  status: users.status,
  claims: users.claims,
  roleName: users.roleName,
  hasApplicationAccess: users.hasApplicationAccess,
};
const listClaims = [myAppsClaim, ...allAppsClaims];
type AssigneeRow = { id: string; firstName: string; lastName: string; status: string; claims: string[]; roleName: string; hasApplicationAccess: boolean };
const assigneeOptionOf = (row: AssigneeRow) => ({
  Name: `${row.firstName} ${row.lastName}`.trim(),
  Value: row.id,
  // The claims in effect: an administrator whose application access is revoked sees no list.
  Assignable: row.status === 'Active' && effectiveClaims(row).some((claim) => listClaims.includes(claim)),
});

/** Staff of the tenant; Assignable when they can still sign in and see applications. */
export async function assigneeOptions(db: Database, tenantId: string) {
  const rows = await db.select(assigneeColumns).from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.firstName), asc(users.lastName));
  return rows.map(assigneeOptionOf);
}

/** One member of staff of the tenant as an assignee option (the assign action reads just the one it is given). */
export async function assigneeOption(db: Database, tenantId: string, userId: string) {
  // Prepared: every assignment reads it, and on PGlite a statement planned once costs a third less.
  const [row] = await sqlRunner(db).preparedTextRows(
    'assignee_option',
    'select id::text, first_name, last_name, status, array_to_json(claims)::text, role_name, has_application_access::text from users where tenant_id = $1 and id = $2::uuid',
    [tenantId, userId.toLowerCase()],
  );
  if (!row) return undefined;
  const [id, firstName, lastName, status, claims, roleName, hasApplicationAccess] = row;
  return assigneeOptionOf({
    id: id ?? '',
    firstName: firstName ?? '',
    lastName: lastName ?? '',
    status: status ?? '',
    claims: JSON.parse(claims ?? '[]') as string[],
    roleName: roleName ?? '',
    hasApplicationAccess: hasApplicationAccess === 'true',
  });
}

export async function ownerOptions(db: Database, tenantId: string) {
  const rows = await db
    .select()
    .from(applicationOwners)
    .where(eq(applicationOwners.tenantId, tenantId))
    .orderBy(asc(applicationOwners.displayName));
  return rows.map((row) => ({ PublicId: row.id, DisplayName: row.displayName, GlobalUserId: row.globalUserId }));
}

/* Tenant configuration of list columns and detail rows (AM §2 Admin configuration page). */

async function columnOverrides(db: Database, tenantId: string) {
  const rows = await db.select().from(listColumnSettings).where(eq(listColumnSettings.tenantId, tenantId));
  return new Map(rows.map((row) => [row.columnName, row.viewable]));
}

async function rowOverrides(db: Database, tenantId: string) {
  const rows = await db.select().from(detailRowSettings).where(eq(detailRowSettings.tenantId, tenantId));
  return new Map(rows.map((row) => [row.rowName, row.viewable]));
}

export async function visibleColumns(db: Database, tenantId: string) {
  return visibleListColumns(await columnOverrides(db, tenantId));
}

export async function visibleRows(db: Database, tenantId: string) {
  return visibleDetailRows(await rowOverrides(db, tenantId));
}

export async function columnConfiguration(db: Database, tenantId: string) {
  const visible = new Set<string>(await visibleColumns(db, tenantId));
  return listColumnNames.map((name) => ({
    ColumnName: name,
    Description: listColumnCatalogue[name].description,
    Viewable: visible.has(name),
  }));
}

export async function rowConfiguration(db: Database, tenantId: string) {
  const visible = new Set<string>(await visibleRows(db, tenantId));
  return detailRowNames.map((name) => ({
    ApplicationDetailRowName: name,
    Description: detailRowCatalogue[name].description,
    Viewable: visible.has(name),
  }));
}

/** Why a save is refused, naming the field; undefined when it is acceptable. */
export function columnSaveProblem(columns: readonly { ColumnName: string; Viewable: boolean }[]): string | undefined {
  for (const column of columns) {
    if (!isListColumn(column.ColumnName)) return `Columns: unknown column ${column.ColumnName}`;
    if (!column.Viewable && fixedListColumns.includes(column.ColumnName)) {
      return `Columns: ${column.ColumnName} is always visible and cannot be hidden`;
    }
  }
  return undefined;
}

export function rowSaveProblem(rows: readonly { ApplicationDetailRowName: string }[]): string | undefined {
  const unknown = rows.find((row) => !isDetailRow(row.ApplicationDetailRowName));
  return unknown ? `Rows: unknown row ${unknown.ApplicationDetailRowName}` : undefined;
}

export async function saveColumnConfiguration(db: Database, tenantId: string, columns: readonly { ColumnName: string; Viewable: boolean }[]) {
  await db.transaction(async (tx) => {
    for (const column of columns) {
      await tx
        .insert(listColumnSettings)
        .values({ tenantId, columnName: column.ColumnName, viewable: column.Viewable })
        .onConflictDoUpdate({ target: [listColumnSettings.tenantId, listColumnSettings.columnName], set: { viewable: column.Viewable } });
    }
  });
}

export async function saveRowConfiguration(db: Database, tenantId: string, rows: readonly { ApplicationDetailRowName: string; Viewable: boolean }[]) {
  await db.transaction(async (tx) => {
    for (const row of rows) {
      await tx
        .insert(detailRowSettings)
        .values({ tenantId, rowName: row.ApplicationDetailRowName, viewable: row.Viewable })
        .onConflictDoUpdate({ target: [detailRowSettings.tenantId, detailRowSettings.rowName], set: { viewable: row.Viewable } });
    }
  });
}
