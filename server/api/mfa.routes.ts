import {
  ConfirmMfaRequestSchema,
  ConfirmMfaResponseSchema,
  InitiateMfaResponseSchema,
  MfaStatusSchema,
} from '../../src/schemas/sign-in.schema.ts';
import { findUserById } from '../identity/accounts.ts';
import { confirmEnrolment, isMfaRequired, startEnrolment } from '../identity/mfa.ts';
import { forbidden, unauthorized } from '../http-error.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';

const applicationManager = { scope: 'applicationmanager' } as const;

export const wrongEnrolmentCodeMessage =
  'That code is not correct. Check the time on your phone and try again.';

/**
 * Two-step verification from the account menu (issue 31): start enrolment (a new secret, kept
 * pending), then confirm it with one code, which returns the ten recovery codes shown once.
 * Replacing a second factor already set up needs a sign-in that used it.
 */
export function registerMfaRoutes({ app, db, access }: RouteContext) {
  const caller = async (userId: string) => {
    const user = await findUserById(db, userId);
    if (!user) throw unauthorized('The account can no longer sign in.');
    return user;
  };

  app.get(
    '/api/account/mfa',
    { onRequest: access.requireAccess(applicationManager), schema: { response: { 200: MfaStatusSchema } } },
    async (request) => {
      const user = await caller(principalOf(request).userId);
      return { Enabled: user.totpSecret !== null, Required: isMfaRequired(tenantOf(request), user) };
    },
  );

  app.post(
    '/api/account/initiatemfa',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(applicationManager),
      schema: { response: { 200: InitiateMfaResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const user = await caller(principal.userId);
      if (user.totpSecret && !principal.amr.includes('otp')) {
        throw forbidden('Sign in with your current verification code before setting up a new one.');
      }
      return { ...(await startEnrolment(db, tenantOf(request), user)), Replacing: user.totpSecret !== null };
    },
  );

  app.post(
    '/api/account/confirmmfa',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(applicationManager),
      schema: { body: ConfirmMfaRequestSchema, response: { 200: ConfirmMfaResponseSchema } },
    },
    async (request) => {
      const user = await caller(principalOf(request).userId);
      const codes = await confirmEnrolment(db, user, request.body.Code);
      if (!codes) return { Success: false, Message: wrongEnrolmentCodeMessage, RecoveryCodes: [] };
      return { Success: true, Message: 'Two-step verification is on.', RecoveryCodes: codes };
    },
  );
}
