import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { passwordResetTokens, users } from '../db/schema.ts';
import { auditAccount, sendAccountEmail } from '../db/account-audit-store.ts';
import type { Mailer } from '../providers/mail/mailer.ts';
import { composeEmail } from '../providers/mail/compose.ts';
import type { Tenant } from '../tenancy.ts';
import { findUserByEmail, findUserById } from './accounts.ts';
import { hashPassword } from './passwords.ts';
import { revokeAccountSessions } from './adapter.ts';

/** How long a reset link works. */
export const resetLinkMinutes = 30;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Reset is for accounts that have accepted their invitation (issue 38 point 3): an invitee sets its
 * first password through the invitation (or asks for a new one there), which also records that it
 * accepted; a reset would let it in with its full role while the row still says Invited.
 */
const notYetAccepted = 'Invited';

/** The account left the statuses a reset is for between the look and the write: the transaction is undone. */
class NotResettable extends Error {}

/**
 * Sends a reset link to the account of `email` in this tenant, if there is one that may sign in
 * again and has accepted its invitation (a deactivated or invited account gets nothing). Only the token's hash is kept. The caller answers
 * before this runs, so neither the answer nor its timing says whether the account exists.
 */
export async function sendResetLink(db: Database, mailer: Mailer, tenant: Tenant, origin: string, email: string) {
  const user = await findUserByEmail(db, tenant.id, email);
  if (!user || user.status === 'Deactivated' || user.status === notYetAccepted) return;
  const token = randomBytes(32).toString('base64url');
  await db.insert(passwordResetTokens).values({
    tokenHash: hashToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + resetLinkMinutes * 60_000),
  });
  const url = `${origin}/account/resetpassword?token=${token}`;
  const { text, html } = composeEmail({
    greeting: `Hello ${user.firstName},`,
    paragraphs: [
      `Someone asked to reset the password of your ${tenant.name} account. The link below works once, within ${resetLinkMinutes} minutes.`,
    ],
    link: { url, label: 'Reset your password' },
    closing: ['If you did not ask for this, ignore this e-mail: your password stays as it is.'],
    signature: [tenant.name],
  });
  await sendAccountEmail(
    db,
    mailer,
    { fromName: tenant.name, to: user.email, subject: `Reset your ${tenant.name} password`, text, html },
    { tenantId: tenant.id, userId: user.id, activity: 'Password reset link sent' },
  );
}

export type ResetTokenState = 'valid' | 'expired' | 'used' | 'unknown';

/** What a reset link is now, without using it (GET and validatetoken only read). */
export async function resetTokenState(db: Database, tenantId: string, token: string): Promise<{ state: ResetTokenState; userId?: string }> {
  if (!token) return { state: 'unknown' };
  const [row] = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, hashToken(token)));
  const user = row ? await findUserById(db, row.userId) : undefined;
  // A link issued to an invitee (before invitees stopped getting them) names no account a reset is for.
  if (!row || !user || user.tenantId !== tenantId || user.status === notYetAccepted) return { state: 'unknown' };
  if (row.usedAt) return { state: 'used', userId: row.userId };
  if (row.expiresAt.getTime() <= Date.now()) return { state: 'expired', userId: row.userId };
  return { state: 'valid', userId: row.userId };
}

/**
 * Uses a reset link: sets the password, clears a password lock (not a second factor or an MFA
 * lock), ends every session and refresh token, spends the account's other links, and audits it,
 * in one transaction. The token is taken by a conditional update, so two requests cannot both use it.
 */
export async function resetPassword(db: Database, tenantId: string, token: string, newPassword: string): Promise<Exclude<ResetTokenState, 'valid'> | 'reset'> {
  const checked = await resetTokenState(db, tenantId, token);
  if (checked.state !== 'valid') return checked.state;
  const userId = checked.userId;
  if (!userId) return 'unknown';
  const passwordHash = await hashPassword(newPassword);
  try {
    return await db.transaction(async (tx) => {
      const taken = await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, hashToken(token)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date()),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (taken.length === 0) return 'used';
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
      // Conditional on the status, in the same transaction: an account invited again since the look
      // (or by another instance) is not given a password here.
      const updated = await tx
        .update(users)
        .set({
          passwordHash,
          tokensValidAfter: new Date(),
          failedAttempts: 0,
          status: sql`case when ${users.status} = 'LockedPasswordAttempts' then 'Active' else ${users.status} end`,
        })
        .where(and(eq(users.id, userId), ne(users.status, notYetAccepted)))
        .returning({ id: users.id });
      if (updated.length === 0) throw new NotResettable();
      await revokeAccountSessions(tx, userId);
      await auditAccount(tx, { tenantId, userId, activity: 'Password reset with an e-mailed link' });
      return 'reset';
    });
  } catch (error) {
    if (error instanceof NotResettable) return 'unknown';
    throw error;
  }
}
