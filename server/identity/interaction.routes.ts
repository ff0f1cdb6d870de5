import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import * as z from 'zod';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { findUserByEmail, findUserById, maxFailedSignIns, recordWrongPassword, signInStatuses } from './accounts.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { renderLoginPage } from './login-page.ts';
import { inactivityDaysOf, lockIfInactive } from './account-status.ts';
import { lockedMfaMessage, supportContacts } from './mfa-pages.ts';
import { isLockedStatus } from '../../src/domain/user-status.ts';
import { afterPasswordStep } from './mfa-interaction.ts';
import { federatedLogin, federatedParameters } from './federated-sign-in.ts';
import { notFound } from '../http-error.ts';
import { recordNameFailure } from './name-failures.ts';
import { describeWait } from '../rate-limits.ts';
import { accountUnavailableReason } from './interaction-policy.ts';
import type { IdentitySecrets } from './secrets.ts';
import { forgetDeviceFailures, isDeviceLockedOut, issueDeviceCookie, presentedDeviceNonce, recordDeviceFailure } from './device-cookie.ts';
import { auditLock, lockActivities, lockSourceOf } from './lock-audit.ts';

export const wrongCredentialsMessage = 'The email or password is incorrect.';
export const lockedMessage =
  'Your account is locked after too many failed sign-in attempts. Please contact your administrator to unlock it.';
export const inactivityLockMessage = (days: number) =>
  `Your account is locked because it was not used for ${days > 0 ? `${days} days` : 'a long time'}. Please contact your administrator to unlock it.`;

/** SUV §4: each lock says its own reason (issue 39 point 13); the tenant's setting gives the inactivity days. */
export function lockReason(status: string, tenantSettings: unknown): string {
  if (status === 'LockedMFAAttempts') return lockedMfaMessage;
  if (status === 'LockInactivity') return inactivityLockMessage(inactivityDaysOf(tenantSettings));
  return lockedMessage;
}

/** What a locked person can do about it: the tenant's support contacts (issue 27 point 11), after the lock's reason. */
export const lockedHelp = (tenant: { supportEmail: string; supportPhone: string }, reason: string = lockedMessage) => `${reason} ${supportContacts(tenant)}`;
export const disabledMessage = 'Your account is not active. Please contact your administrator.';
export const throttledMessage = (seconds: number) =>
  `Too many failed sign-in attempts from your network. Please try again in ${describeWait(seconds)}.`;

const LoginFormSchema = z.object({ email: z.string().default(''), password: z.string().default('') });

type ProviderFor = (request: FastifyRequest) => Promise<Provider>;

function tenantOf(request: FastifyRequest) {
  if (!request.tenant) throw notFound('Unknown tenant.');
  return request.tenant;
}

/**
 * The login interaction: renders the branded page, checks the password, locks after five failures.
 * An address past its failures (app.signInFailures) waits without its guesses being checked, and
 * every other answer costs one password check, so neither timing nor the 'locked' message tells
 * whether an account exists (docs/decisions/003-abuse-limits.md). The five-failure lock counts the
 * failures of browsers without the account's device cookie; a browser that signed in before counts
 * its own apart and still signs in past that lock with the right password (device-cookie.ts).
 */
export function registerInteractionRoutes(app: FastifyInstance, db: Database, providerFor: ProviderFor, secrets: IdentitySecrets) {
  function sendPage(reply: FastifyReply, request: FastifyRequest, uid: string, email = '', error?: string, status = error ? 401 : 200) {
    const tenant = request.tenant;
    if (!tenant) throw notFound('Unknown tenant.');
    const nonce = randomBytes(16).toString('base64');
    return reply
      .code(status)
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'`,
      )
      .type('text/html; charset=utf-8')
      .send(renderLoginPage({ tenant, action: `/interaction/${uid}/login`, email, error, nonce }));
  }

  app.get<{ Params: { uid: string } }>('/interaction/:uid', async (request, reply) => {
    const provider = await providerFor(request);
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.prompt.name === 'login') {
      // A federated link (SUV §2) signs in without the form: federated-sign-in.ts.
      const link = federatedParameters(details);
      if (link) return federatedLogin(db, provider, request, reply, link);
      // The account was locked or deactivated while this sign-in was under way (interaction-policy.ts).
      if (details.prompt.reasons.includes(accountUnavailableReason)) {
        const user = await findUserById(db, String(details.session?.accountId ?? ''));
        // The password was right (the sign-in got this far), so the lock's own reason may be said.
        const tenant = tenantOf(request);
        const message = user && isLockedStatus(user.status) ? lockedHelp(tenant, lockReason(user.status, tenant.settings)) : disabledMessage;
        return sendPage(reply, request, details.uid, '', message, 200);
      }
      return sendPage(reply, request, details.uid);
    }
    // The portal is our own client: consent is implied, so grant what it asked for and continue.
    const grantId = await grantRequestedAccess(provider, details);
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  app.post<{ Params: { uid: string } }>('/interaction/:uid/login', { config: { application: 'none' } }, async (request, reply) => {
    const provider = await providerFor(request);
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const tenant = request.tenant;
    if (!tenant) throw notFound('Unknown tenant.');
    const { email, password } = LoginFormSchema.parse(request.body ?? {});

    // Before any password is checked: a throttled guess never counts against the account.
    const wait = await app.signInFailures.waitSeconds(request);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return sendPage(reply, request, details.uid, email, throttledMessage(wait), 429);
    }

    // An account unused past the tenant's limit locks here (account-status.ts), before anything is checked.
    const source = lockSourceOf(request, tenant.id);
    const user = await lockIfInactive(db, tenant.settings, email ? await findUserByEmail(db, tenant.id, email) : undefined, source);
    // A browser that signed in to this account before (device-cookie.ts), unless its own failures locked it out.
    const presented = user ? presentedDeviceNonce(request, secrets.cookieKeys, user.id) : undefined;
    const device = presented && !(await isDeviceLockedOut(db, presented)) ? presented : undefined;
    const matches = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDummy(password);
    if (!matches) await app.signInFailures.recordFailure(request);
    // The password-attempts lock keeps out other browsers, not the owner's (issue 27 point 11).
    const ownerPastLock = user?.status === 'LockedPasswordAttempts' && device !== undefined;
    const canSignIn = user !== undefined && (signInStatuses.has(user.status) || ownerPastLock);

    // Every lock, inactivity's too (its status does not start "Locked"). Its own reason only to whoever
    // gives the right password; anyone else reads the one text every lock and a guessed name give.
    if (user && isLockedStatus(user.status) && !ownerPastLock) {
      return sendPage(reply, request, details.uid, email, lockedHelp(tenant, matches ? lockReason(user.status, tenant.settings) : lockedMessage));
    }
    if (!canSignIn) {
      // Only someone who knows the password learns that the account is deactivated.
      if (user && matches) return sendPage(reply, request, details.uid, email, disabledMessage);
      // Unknown and deactivated names show 'locked' after five failures as a real account would.
      const locked = (await recordNameFailure(db, tenant.id, email)) >= maxFailedSignIns;
      return sendPage(reply, request, details.uid, email, locked ? lockedHelp(tenant) : wrongCredentialsMessage);
    }

    if (!matches && device) {
      // The owner's browser: its failures count for it alone, and five lock out only this cookie.
      await db.transaction(async (tx) => {
        if (await recordDeviceFailure(tx, device, user.id)) await auditLock(tx, user.id, source, lockActivities.deviceCookie);
      });
      return sendPage(reply, request, details.uid, email, wrongCredentialsMessage);
    }
    if (!matches) {
      const locked = await db.transaction(async (tx) => {
        const lockedNow = await recordWrongPassword(tx, user);
        if (lockedNow) await auditLock(tx, user.id, source, lockActivities.passwordAttempts);
        return lockedNow;
      });
      return sendPage(reply, request, details.uid, email, locked ? lockedHelp(tenant) : wrongCredentialsMessage);
    }

    // A lock against other browsers stays until an administrator unlocks it or the password is reset.
    await db
      .update(users)
      .set({ failedAttempts: sql`case when ${users.status} = 'LockedPasswordAttempts' then ${users.failedAttempts} else 0 end`, lastLoginAt: new Date() })
      .where(eq(users.id, user.id));
    if (presented) await forgetDeviceFailures(db, presented);
    issueDeviceCookie(request, reply, secrets.cookieKeys, user.id);
    // The second step (or a required enrolment) comes next when there is one: mfa-interaction.ts.
    return afterPasswordStep(db, provider, request, reply, details.uid, user);
  });
}

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

async function grantRequestedAccess(provider: Provider, details: InteractionDetails): Promise<string> {
  const { params, session, prompt } = details;
  const accountId = session?.accountId;
  if (!accountId) throw notFound('No session.');
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId: String(params.client_id) }))
    : new provider.Grant({ accountId, clientId: String(params.client_id) });
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}
