import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { canApplyUserAction, statusAfter, type UserAction } from '../../src/domain/user-status.ts';
import { revokeAccountSessions } from './adapter.ts';
import type { User } from './accounts.ts';
import { auditLock, lockActivities, type LockSource } from './lock-audit.ts';

type Writer = Pick<Database, 'update' | 'execute'>;

/**
 * The one place an account's status changes by someone's hand (SUV §4). Unlock clears every lock
 * and its counter; deactivation also ends every session and refresh token at once. Records who and
 * when.
 *
 * Conditional on the status it was judged on, so two administrators acting at once cannot, say,
 * reactivate an account the other just unlocked: false when the status no longer allows it.
 */
export async function applyAccountAction(tx: Writer, user: Pick<User, 'id' | 'status'>, action: UserAction, actorId: string): Promise<boolean> {
  if (!canApplyUserAction(user.status, action)) return false;
  const now = new Date();
  const [updated] = await tx
    .update(users)
    .set({
      status: statusAfter[action],
      // Every lock's counter: wrong passwords and wrong two-step codes (the MFA lock clears the same way).
      failedAttempts: 0,
      mfaFailedAttempts: 0,
      mfaFailuresSince: null,
      lockedAt: null,
      statusChangedAt: now,
      statusChangedBy: actorId,
      // Deactivation ends the sessions; tokens issued before now are refused by the API as well.
      ...(action === 'deactivate' ? { tokensValidAfter: now } : {}),
    })
    .where(and(eq(users.id, user.id), eq(users.status, user.status)))
    .returning({ id: users.id });
  if (!updated) return false;
  if (action === 'deactivate') await revokeAccountSessions(tx, user.id);
  return true;
}

/** Clears the lock and its counter; who and when are recorded. */
export const unlockAccount = (tx: Writer, user: Pick<User, 'id' | 'status'>, actorId: string) =>
  applyAccountAction(tx, user, 'unlock', actorId);

/** Tenant setting: days without a sign-in after which an account locks (SUV §4 LockInactivity); absent or 0 = never. */
export function inactivityDaysOf(settings: unknown): number {
  const value = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>).LockInactivityDays : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

/**
 * Checked at sign-in (no scheduled job): an active account whose last sign-in (or, never signed in,
 * its activation) is older than the tenant's limit becomes LockInactivity now. Returns the account
 * as it stands afterwards.
 */
export async function lockIfInactive<T extends Pick<User, 'id' | 'status' | 'lastLoginAt' | 'createdAt' | 'statusChangedAt'>>(
  db: Pick<Database, 'transaction'>,
  settings: unknown,
  user: T | undefined,
  source: LockSource,
): Promise<T | undefined> {
  const days = inactivityDaysOf(settings);
  if (!user || days === 0 || (user.status !== 'Active' && user.status !== 'Normal')) return user;
  const lastSeen = [user.lastLoginAt, user.statusChangedAt, user.createdAt].reduce<Date>(
    (latest, at) => (at && at > latest ? at : latest),
    new Date(0),
  );
  if (Date.now() - lastSeen.getTime() < days * 86_400_000) return user;
  await db.transaction(async (tx) => {
    const locked = await tx
      .update(users)
      .set({ status: 'LockInactivity', lockedAt: new Date() })
      .where(and(eq(users.id, user.id), inArray(users.status, ['Active', 'Normal'])))
      .returning({ id: users.id });
    // Audited once, by the sign-in that locked it (issue 27 point 11).
    if (locked.length > 0) await auditLock(tx, user.id, source, lockActivities.inactivity);
  });
  return { ...user, status: 'LockInactivity' };
}
