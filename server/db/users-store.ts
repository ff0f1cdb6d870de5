import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from './client.ts';
import { sqlRunner, type SqlParam } from './sql-runner.ts';
import { tenantRoles, userAudit, userInvitations, users } from './schema.ts';
import type { UserListRow } from '../../src/schemas/users.schema.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Writer = Pick<Database, 'insert'> | Tx;

/** The roles a tenant invites into (SUV §3 Role), by name. */
export async function tenantRoleList(db: Database, tenantId: string) {
  const rows = await db.select({ id: tenantRoles.id, name: tenantRoles.name }).from(tenantRoles).where(eq(tenantRoles.tenantId, tenantId)).orderBy(asc(tenantRoles.name));
  return rows.map((row) => ({ TenantRoleId: row.id, RoleName: row.name }));
}

export async function findTenantRole(db: Database, tenantId: string, roleId: number) {
  const [role] = await db.select().from(tenantRoles).where(and(eq(tenantRoles.tenantId, tenantId), eq(tenantRoles.id, roleId)));
  return role;
}

/**
 * The search words as a prefix query over name and e-mail (the same words the index holds, see
 * migration 0014): 'Smi jo@' finds Jo Smith's row. Undefined when the query holds no word.
 */
export function userSearchQuery(search: string): string | undefined {
  const words = search.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).slice(0, 8);
  return words.length === 0 ? undefined : words.map((word) => `${word}:*`).join(' & ');
}

const searchDocument = sql`user_search_document(${users.firstName}, ${users.lastName}, ${users.email})`;

/** The tenant's users matching the search; a query of no words (only punctuation) matches nobody. */
function listWhere(tenantId: string, search: string | undefined): SQL | undefined {
  const tenant = eq(users.tenantId, tenantId);
  if (search === undefined || search.trim() === '') return tenant;
  const query = userSearchQuery(search);
  if (!query) return sql`false`;
  return and(tenant, sql`${searchDocument} @@ to_tsquery('simple', ${query})`);
}

const rowColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  roleName: users.roleName,
  status: users.status,
  hasApplicationAccess: users.hasApplicationAccess,
  lastLoginAt: users.lastLoginAt,
  lockedAt: users.lockedAt,
};

type RowRecord = { id: string; firstName: string; lastName: string; email: string; roleName: string; status: string; hasApplicationAccess: boolean; lastLoginAt: Date | null; lockedAt: Date | null };

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

const listRowOf = (row: RowRecord): UserListRow => ({
  GlobalUserId: row.id,
  FirstName: row.firstName,
  LastName: row.lastName,
  Email: row.email,
  RoleName: row.roleName,
  Status: row.status,
  HasApplicationAccess: row.hasApplicationAccess,
  LastSuccessfulLoginTimestamp: seconds(row.lastLoginAt),
  LockedTimestamp: seconds(row.lockedAt),
});

/**
 * The Invited users among `userIds` whose newest invitation was revoked: read for one page's rows
 * only. Revoking or resending touches the user's row (touchUserRow), so a kept answer moves on too.
 */
async function revokedInvitations(db: Database, userIds: readonly string[]): Promise<ReadonlySet<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectDistinctOn([userInvitations.userId], { userId: userInvitations.userId, revokedAt: userInvitations.revokedAt })
    .from(userInvitations)
    .where(inArray(userInvitations.userId, [...userIds]))
    .orderBy(userInvitations.userId, desc(userInvitations.createdAt), desc(userInvitations.id));
  return new Set(rows.filter((row) => row.revokedAt !== null).map((row) => row.userId));
}

/** An update that changes nothing but tells the users list its kept answers are stale (migration 0021's trigger). */
export async function touchUserRow(tx: Tx, userId: string) {
  await tx.update(users).set({ status: sql`${users.status}` }).where(eq(users.id, userId));
}

/** SUV §7 GET /users/list: one page in name order, the total and the last page (0 when none match). */
export async function listUsers(db: Database, tenantId: string, request: { pageNo: number; rowsPerPage: number; search?: string }) {
  const where = listWhere(tenantId, request.search);
  const offset = (request.pageNo - 1) * request.rowsPerPage;
  const order = [asc(users.firstName), asc(users.lastName), asc(users.id)] as const;
  const answer = async (rows: RowRecord[], total: number) => {
    const revoked = await revokedInvitations(db, rows.filter((row) => row.status === 'Invited').map((row) => row.id));
    return {
      Users: rows.map((row) => ({ ...listRowOf(row), InvitationRevoked: revoked.has(row.id) })),
      TotalRows: total,
      MaxPage: Math.ceil(total / request.rowsPerPage),
    };
  };
  const countAll = async () => (await db.select({ total: sql<number>`count(*)::int` }).from(users).where(where))[0]?.total ?? 0;
  if (request.search === undefined || request.search.trim() === '') {
    const [rows, total] = await Promise.all([db.select(rowColumns).from(users).where(where).orderBy(...order).limit(request.rowsPerPage).offset(offset), countAll()]);
    return answer(rows, total);
  }
  // The matches come from the search index first, then are counted and sorted in one statement: a
  // planner walking the name index for LIMIT 20 tests every row's words, and for a rare word (an
  // e-mail) reads the whole tenant.
  // The user whose e-mail is the search comes first (issue 39 point 12: `staff@demo.test` also finds
  // every `@staff.demo.test` address); the rest keep the name order.
  const exactEmail = request.search.trim().toLowerCase();
  const matches = db.$with('matches').as(
    db
      .select({
        ...rowColumns,
        total: sql<number>`(count(*) over ())::int`.as('total'),
        exact: sql<boolean>`(lower(${users.email}) = ${exactEmail})`.as('exact'),
      })
      .from(users)
      .where(where),
  );
  const rows = await db
    .with(matches)
    .select()
    .from(matches)
    .orderBy(desc(matches.exact), asc(matches.firstName), asc(matches.lastName), asc(matches.id))
    .limit(request.rowsPerPage)
    .offset(offset);
  // A page past the last has no row to carry the total.
  return answer(rows, rows[0]?.total ?? (offset > 0 ? await countAll() : 0));
}

const exportBatchSize = 2_500;

/** The export's columns as text, in `UserListRow` order (dates as Unix seconds). */
const exportColumnsSql = `id::text, first_name, last_name, email, role_name, status, has_application_access::text,
  floor(extract(epoch from last_login_at))::bigint::text, floor(extract(epoch from locked_at))::bigint::text`;

const secondsOf = (text: string | null | undefined) => (text ? Number(text) : null);

/**
 * Every user the search shows, in the list's order, a batch at a time: keyset batches (a row
 * comparison is one range of the (tenant, first, last, id) index) read as text through the bulk
 * path (COPY on PGlite), since decoding a hundred thousand rows into objects was most of the time.
 */
export async function* usersForExport(db: Database, tenantId: string, search: string | undefined, batchSize = exportBatchSize): AsyncGenerator<UserListRow[]> {
  const query = search?.trim() ? userSearchQuery(search) : undefined;
  if (search?.trim() && !query) return;
  const matching = query ? `and user_search_document(first_name, last_name, email) @@ to_tsquery('simple', $2)` : '';
  const runner = sqlRunner(db);
  let after: UserListRow | undefined;
  for (;;) {
    const params: SqlParam[] = query ? [tenantId, query] : [tenantId];
    let seek = '';
    if (after) {
      const at = params.length;
      seek = `and (first_name, last_name, id) > ($${at + 1}, $${at + 2}, $${at + 3}::uuid)`;
      params.push(after.FirstName, after.LastName, after.GlobalUserId);
    }
    const batch = await runner.bulkTextRows(
      `select ${exportColumnsSql} from users where tenant_id = $1 ${matching} ${seek} order by first_name, last_name, id limit ${batchSize}`,
      params,
    );
    const rows: UserListRow[] = [];
    for (let index = 0; index < batch.length; index++) {
      const [id, firstName, lastName, email, roleName, status, access, lastLogin, locked] = batch.row(index);
      rows.push({
        GlobalUserId: id ?? '',
        FirstName: firstName ?? '',
        LastName: lastName ?? '',
        Email: email ?? '',
        RoleName: roleName ?? '',
        Status: status ?? '',
        HasApplicationAccess: access === 'true',
        LastSuccessfulLoginTimestamp: secondsOf(lastLogin),
        LockedTimestamp: secondsOf(locked),
      });
    }
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1];
  }
}

/** A user of this tenant, or undefined (another tenant's id names nobody here: 404, not 403). */
export async function findTenantUser(db: Pick<Database, 'select'>, tenantId: string, userId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return undefined;
  const [user] = await db.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return user;
}

export type UserAuditAction =
  | 'invite'
  | 'resendInvitation'
  | 'revokeInvitation'
  | 'renewInvitation'
  | 'acceptInvitation'
  | 'grantApplicationAccess'
  | 'revokeApplicationAccess'
  | 'unlock'
  | 'deactivate'
  | 'reactivate';

/** One audit entry: who (null for the invited person themselves), what, to whom; the time is the database's. */
export async function recordUserAudit(tx: Writer, entry: { tenantId: string; actorUserId: string | null; targetUserId: string; action: UserAuditAction; detail?: string }) {
  await tx.insert(userAudit).values({ ...entry, detail: entry.detail ?? '' });
}

export async function setApplicationAccess(tx: Tx, userId: string, hasAccess: boolean) {
  await tx.update(users).set({ hasApplicationAccess: hasAccess }).where(eq(users.id, userId));
}
