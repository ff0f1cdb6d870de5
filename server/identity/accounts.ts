import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { effectiveClaims } from '../../src/domain/application-access.ts';

export type User = typeof users.$inferSelect;

/** SUV §4: Invited, Active and Normal are enabled; locked and deactivated users cannot sign in. */
export const signInStatuses = new Set(['Invited', 'Active', 'Normal']);
export const maxFailedSignIns = 5;
/**
 * Statuses whose live sessions and tokens go on: the enabled ones, and the password-attempts lock,
 * which keeps out browsers that never signed in to the account (device cookies, issue 27 point 11)
 * rather than its owner. A lock that must end sessions (change password, deactivation) revokes them.
 */
export const sessionStatuses: ReadonlySet<string> = new Set([...signInStatuses, 'LockedPasswordAttempts']);
/** Wrong second-step codes that lock an account (LockedMFAAttempts), counted within `mfaFailureWindowMinutes`. */
export const maxFailedMfaCodes = 10;
export const mfaFailureWindowMinutes = 15;

/** A user id as the database writes it (a uuid): anything else names nobody, and is not sent to the database. */
export const isUserId = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export async function findUserById(db: Database, id: string): Promise<User | undefined> {
  if (!isUserId(id)) return undefined;
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findUserByEmail(db: Database, tenantId: string, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email.trim().toLowerCase())));
  return user;
}

export const displayName = (user: Pick<User, 'firstName' | 'lastName'>): string =>
  `${user.firstName} ${user.lastName}`.trim();

/** The token claims of AM §3 / SUV §3, beside the standard ones oidc-provider adds. */
export function accessTokenClaims(user: User) {
  return {
    DisplayName: displayName(user),
    GlobalId: user.id,
    Tenant: user.tenantId,
    CreatedDate: user.createdAt.toISOString(),
    // In effect (application access withheld where revoked), so the portal's menus match the server.
    Permissions: effectiveClaims(user),
  };
}

/**
 * Counts a wrong password against the account (sign-in without the account's device cookie, and
 * change password) and locks it at the fifth; true when this one locked it. Counted only while the
 * status is still the one the caller judged: of failures racing past the fifth, one locks (and is
 * audited once), and an account locked meanwhile is not counted further.
 */
export async function recordWrongPassword(db: Pick<Database, 'update'>, user: Pick<User, 'id' | 'status'>): Promise<boolean> {
  const [updated] = await db
    .update(users)
    .set({
      failedAttempts: sql`${users.failedAttempts} + 1`,
      status: sql`case when ${users.failedAttempts} + 1 >= ${maxFailedSignIns} then 'LockedPasswordAttempts' else ${users.status} end`,
      // When the lock began, shown on the users page row (the status says why).
      lockedAt: sql`case when ${users.failedAttempts} + 1 >= ${maxFailedSignIns} and ${users.status} <> 'LockedPasswordAttempts' then now() else ${users.lockedAt} end`,
    })
    .where(and(eq(users.id, user.id), eq(users.status, user.status)))
    .returning({ status: users.status });
  return user.status !== 'LockedPasswordAttempts' && updated?.status === 'LockedPasswordAttempts';
}

/**
 * Counts a wrong second-step code, apart from wrong passwords: ten within 15 minutes (from the
 * first of them) set LockedMFAAttempts. True when this one locked the account.
 */
export async function recordWrongMfaCode(db: Pick<Database, 'update'>, userId: string): Promise<boolean> {
  const windowOpen = sql`${users.mfaFailuresSince} is not null and ${users.mfaFailuresSince} > now() - make_interval(mins => ${mfaFailureWindowMinutes})`;
  const count = sql`case when ${windowOpen} then ${users.mfaFailedAttempts} + 1 else 1 end`;
  const [updated] = await db
    .update(users)
    .set({
      mfaFailedAttempts: count,
      mfaFailuresSince: sql`case when ${windowOpen} then ${users.mfaFailuresSince} else now() end`,
      status: sql`case when ${count} >= ${maxFailedMfaCodes} then 'LockedMFAAttempts' else ${users.status} end`,
      // When the lock began, as the password lock records it: the users page row shows it (issue 38 point 13).
      lockedAt: sql`case when ${count} >= ${maxFailedMfaCodes} and ${users.status} <> 'LockedMFAAttempts' then now() else ${users.lockedAt} end`,
    })
    .where(eq(users.id, userId))
    .returning({ status: users.status });
  return updated?.status === 'LockedMFAAttempts';
}
