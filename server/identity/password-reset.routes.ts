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
import { requestOrigin } from '../api/auth.ts';
import type { Mailer } from '../providers/mail/mailer.ts';
import { describeWait } from '../rate-limits.ts';
import { windowCounter } from './window-counter.ts';

type Counter = ReturnType<typeof windowCounter>;
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
export function registerPasswordResetRoutes({ app, db }: RouteContext, mailer: Mailer) {
  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  const limiter = (max: number) => windowCounter({ max, windowMs: resetLimits.window });
  const forgotPerAddress = limiter(resetLimits.perAddress);
  const resetPerAddress = limiter(resetLimits.perAddress);
  // Per account: for a request, the address typed (known or not, the same count); for a reset, its account.
  const forgotPerAccount = limiter(resetLimits.linksPerAccount);
  const resetPerAccount = limiter(resetLimits.resetsPerAccount);

  /** Seconds to wait when either limit is spent; counts this request against both. */
  const throttled = (byAddress: Counter, byAccount: Counter, request: FastifyRequest, accountKey: string) =>
    Math.max(byAddress.hit(address(request)), byAccount.hit(accountKey));

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
      const wait = throttled(forgotPerAddress, forgotPerAccount, request, `${tenant.id} ${email}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(reply, request, forgotPasswordPage(email, tooManyResetRequests(describeWait(wait))), 429);
      }
      // After the answer: looking the account up, storing the link and mailing it take time only
      // when there is an account, and the person must not be able to tell.
      const origin = requestOrigin(request);
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
      const wait = throttled(resetPerAddress, resetPerAccount, request, checked.userId ?? `token ${token}`);
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
