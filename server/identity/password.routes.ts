import { eq } from 'drizzle-orm';
import {
  ChangePasswordRequestSchema,
  ChangePasswordResponseSchema,
  passwordChangedResult,
} from '../../src/schemas/account.schema.ts';
import { failedPasswordRules } from '../../src/domain/password-policy.ts';
import { principalOf, type RouteContext } from '../api/context.ts';
import { users } from '../db/schema.ts';
import { findUserById } from './accounts.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { revokeAccountSessions } from './adapter.ts';

export const passwordResults = { policyFailed: 0, wrongPassword: 1, changed: passwordChangedResult } as const;

/** The identity service's change password (AM §7): `result` 2 = changed and signed out everywhere. */
export function registerPasswordRoutes({ app, db, access }: RouteContext) {
  app.post(
    '/identity/account/changepassword',
    {
      onRequest: access.requireAccess({ scope: 'applicationmanager' }),
      schema: { body: ChangePasswordRequestSchema, response: { 200: ChangePasswordResponseSchema } },
    },
    async (request) => {
      const { oldPassword, newPassword } = request.body;
      const user = await findUserById(db, principalOf(request).userId);
      if (!user || !(await verifyPassword(oldPassword, user.passwordHash))) {
        return { message: 'The current password is incorrect.', result: passwordResults.wrongPassword };
      }
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
