import { eq } from 'drizzle-orm';
import {
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  passwordChangedResult,
} from '../../src/schemas/account.schema.ts';
import { failedPasswordRules } from '../../src/domain/password-policy.ts';
import { principalOf, type RouteContext } from '../api/context.ts';
import { users } from '../db/schema.ts';
import { findUserById, recordWrongPassword } from './accounts.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { revokeAccountSessions } from './adapter.ts';
import { lockedMessage } from './interaction.routes.ts';
import { auditLock, lockActivities, lockSourceOf } from './lock-audit.ts';

export const passwordResults = { policyFailed: 0, wrongPassword: 1, changed: passwordChangedResult } as const;

/**
 * The identity service's change password (AM §7): `result` 2 = changed and signed out everywhere.
 * A wrong current password is a failed sign-in: it counts towards the same five-failure lock, and
 * the lock ends every session, so a borrowed session cannot guess the password it would need to
 * keep the account (docs/decisions/003-abuse-limits.md).
 */
export function registerPasswordRoutes({ app, db, access }: RouteContext) {
  app.post(
    '/identity/account/changepassword',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess({ scope: 'applicationmanager' }),
      schema: { body: ChangePasswordRequestSchema, response: { 200: ChangePasswordResponseSchema } },
    },
    async (request) => {
      const { oldPassword, newPassword } = request.body;
      const user = await findUserById(db, principalOf(request).userId);
      if (!user) return { message: 'The current password is incorrect.', result: passwordResults.wrongPassword };
      if (!(await verifyPassword(oldPassword, user.passwordHash))) {
        const locked = await db.transaction(async (tx) => {
          // An account already locked against other browsers keeps its live sessions (device cookies,
          // issue 27 point 11), but one of them guessing the current password ends them all at once.
          const locks = user.status === 'LockedPasswordAttempts' || (await recordWrongPassword(tx, user));
          if (!locks) return false;
          await auditLock(tx, user.id, lockSourceOf(request, user.tenantId), lockActivities.changePasswordAttempts);
          await revokeAccountSessions(tx, user.id);
          // This lock status no longer refuses tokens by itself (other browsers' failures must not end
          // the owner's sessions), so the lock ends them here, at once on every instance: tokens
          // issued before now, and those of this very second whose grant was just revoked (auth.ts).
          await tx.update(users).set({ tokensValidAfter: new Date() }).where(eq(users.id, user.id));
          return true;
        });
        if (locked) return { message: lockedMessage, result: passwordResults.wrongPassword };
        return { message: 'The current password is incorrect.', result: passwordResults.wrongPassword };
      }
      // The right current password proves who is asking, as a successful sign-in does.
      if (user.failedAttempts > 0) await db.update(users).set({ failedAttempts: 0 }).where(eq(users.id, user.id));
      const failed = failedPasswordRules(newPassword);
      if (failed.length > 0) {
        return {
          message: `The new password needs: ${failed.map((rule) => rule.label.toLowerCase()).join(', ')}.`,
          result: passwordResults.policyFailed,
        };
      }
      if (oldPassword === newPassword) {
        return { message: 'The new password must differ from the current one.', result: passwordResults.policyFailed };
      }
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ passwordHash: await hashPassword(newPassword), tokensValidAfter: new Date() })
          .where(eq(users.id, user.id));
        await revokeAccountSessions(tx, user.id);
      });
      return {
        message: 'Your password has been changed. You will now be signed out of every session.',
        result: passwordResults.changed,
      };
    },
  );
}
