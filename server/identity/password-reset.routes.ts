import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import {
  ForgotPasswordFormSchema,
  ResetPasswordFormSchema,
  ResetPasswordQuerySchema,
  ValidateTokenRequestSchema,
  ValidateTokenResponseSchema,
} from '../../src/schemas/sign-in.schema.ts';
import { failedPasswordRules, passwordsMismatchMessage } from '../../src/domain/password-policy.ts';
import { tenantOf, type RouteContext } from '../api/context.ts';
import { linkOrigin } from '../tenancy.ts';
import type { Mailer } from '../providers/mail/mailer.ts';
import { describeWait } from '../rate-limits.ts';
import { databaseCounters } from '../counters.ts';
import { sendIdentityPage, type IdentityPage } from './identity-page.ts';
import { resetPassword, resetTokenState, sendResetLink } from './password-reset.ts';
import {
  forgotPasswordPage,
  passwordResetDonePage,
  resetLinkProblemPage,
  resetLinkSentPage,
  resetPasswordPage,
  tooManyResetRequests,
} from './password-reset-pages.ts';

/** Reset limits, per address and per account, over 15 minutes (docs/decisions/003-abuse-limits.md). */
export const resetLimits = {
  window: 15 * 60_000,
  perAddress: 10,
  linksPerAccount: 3,
  resetsPerAccount: 6,
} as const;

/**
 * Forgot and reset password (AM §7 /account/forgotpassword, /validatetoken, /resetpassword), as
 * server-rendered pages beside the login page. Opening the e-mailed link (GET) only shows the form:
 * mail scanners open links, so only the form's POST uses the token.
 */
export function registerPasswordResetRoutes({ app, db, config }: RouteContext, mailer: Mailer) {
  // In the database on PGlite too (issue 38 point 9): every instance counts the same requests, and
  // a restart does not hand out a new allowance of reset e-mails. The requests are few, so one
  // upsert each costs nothing that matters.
  const counters = databaseCounters(db);
  // Keys are hashed: the counters table is not to hold the addresses people typed.
  const key = (...parts: string[]) => `passwordReset ${createHash('sha256').update(parts.join('\n')).digest('base64url')}`;
  type Limit = { kind: string; max: number };
  const forgotPerAddress: Limit = { kind: 'forgot per address', max: resetLimits.perAddress };
  const resetPerAddress: Limit = { kind: 'reset per address', max: resetLimits.perAddress };
  // Per account: for a request, the address typed (known or not, the same count); for a reset, its account.
  const forgotPerAccount: Limit = { kind: 'forgot per account', max: resetLimits.linksPerAccount };
  const resetPerAccount: Limit = { kind: 'reset per account', max: resetLimits.resetsPerAccount };

  /** Counts one request against `limit` for `subject`; the seconds to wait when it is past the limit, else 0. */
  const over = async (limit: Limit, subject: string) => {
    const count = await counters.hit(key(limit.kind, subject), resetLimits.window);
    return count.hits > limit.max ? count.resetInSeconds : 0;
  };
  /** Seconds to wait when either limit is spent; counts this request against both. */
  const throttled = async (byAddress: Limit, byAccount: Limit, request: FastifyRequest, accountKey: string) =>
    Math.max(await over(byAddress, normalizeIP(request.ip)), await over(byAccount, accountKey));

  const send = (reply: FastifyReply, request: FastifyRequest, page: IdentityPage, status = 200) =>
    sendIdentityPage(reply, tenantOf(request), page, status);

  app.get('/account/forgotpassword', async (request, reply) => send(reply, request, forgotPasswordPage()));

  app.post(
    '/account/forgotpassword',
    { config: { application: 'none' }, schema: { body: ForgotPasswordFormSchema } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const email = request.body.email.trim().toLowerCase();
      if (!email)
        return send(reply, request, forgotPasswordPage('', 'Enter the e-mail address of your account.'), 400);
      const wait = await throttled(forgotPerAddress, forgotPerAccount, request, `${tenant.id} ${email}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(reply, request, forgotPasswordPage(email, tooManyResetRequests(describeWait(wait))), 429);
      }
      // After the answer: looking the account up, storing the link and mailing it take time only
      // when there is an account, and the person must not be able to tell.
      const origin = linkOrigin(tenant, config);
      setImmediate(() => {
        sendResetLink(db, mailer, tenant, origin, email).catch((error: unknown) =>
          request.log.error({ err: error }, 'password reset link could not be sent'),
        );
      });
      return send(reply, request, resetLinkSentPage());
    },
  );

  app.get(
    '/account/resetpassword',
    { schema: { querystring: ResetPasswordQuerySchema } },
    async (request, reply) => {
      const token = request.query.token ?? '';
      const { state } = await resetTokenState(db, tenantOf(request).id, token);
      if (state !== 'valid') return send(reply, request, resetLinkProblemPage(state), 410);
      return send(reply, request, resetPasswordPage(token));
    },
  );

  app.post(
    '/account/resetpassword',
    { config: { application: 'none' }, schema: { body: ResetPasswordFormSchema } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const { token, password, confirm } = request.body;
      const checked = await resetTokenState(db, tenant.id, token);
      const wait = await throttled(resetPerAddress, resetPerAccount, request, checked.userId ?? `token ${token}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(reply, request, resetPasswordPage(token, tooManyResetRequests(describeWait(wait))), 429);
      }
      if (checked.state !== 'valid') return send(reply, request, resetLinkProblemPage(checked.state), 410);
      const failed = failedPasswordRules(password);
      if (failed.length > 0) {
        const needs = failed.map((rule) => rule.label.toLowerCase()).join(', ');
        return send(reply, request, resetPasswordPage(token, `The new password needs: ${needs}.`), 400);
      }
      if (password !== confirm)
        return send(reply, request, resetPasswordPage(token, passwordsMismatchMessage), 400);
      const outcome = await resetPassword(db, tenant.id, token, password);
      if (outcome !== 'reset') return send(reply, request, resetLinkProblemPage(outcome), 410);
      return send(reply, request, passwordResetDonePage());
    },
  );

  app.post(
    '/api/account/validatetoken',
    {
      config: { application: 'none' },
      schema: { body: ValidateTokenRequestSchema, response: { 200: ValidateTokenResponseSchema } },
    },
    async (request) => {
      const { state } = await resetTokenState(db, tenantOf(request).id, request.body.Token);
      return { Valid: state === 'valid', Reason: state };
    },
  );
}
