import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import QRCode from 'qrcode';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { sendAccountEmail } from '../db/account-audit-store.ts';
import { LoginMfaFormSchema } from '../../src/schemas/sign-in.schema.ts';
import { composeEmail } from '../providers/mail/compose.ts';
import type { Mailer } from '../providers/mail/mailer.ts';
import { notFound } from '../http-error.ts';
import type { Tenant } from '../tenancy.ts';
import { findUserById, recordWrongMfaCode, sessionStatuses, type User } from './accounts.ts';
import { revokeAccountSessions } from './adapter.ts';
import { sendIdentityPage } from './identity-page.ts';
import { auditLock, lockActivities, lockSourceOf } from './lock-audit.ts';
import { renderLoginPage } from './login-page.ts';
import {
  authenticationLevels,
  closeChallenge,
  confirmEnrolment,
  countWrongCode,
  findChallenge,
  isMfaRequired,
  markChallengeEnrolled,
  maxWrongCodesPerSignIn,
  openChallenge,
  remainingRecoveryCodes,
  startEnrolment,
  verifySecondFactor,
  type ChallengeStep,
} from './mfa.ts';
import {
  lockedMfaMessage,
  mfaCodePage,
  supportContacts,
  mfaEnrolmentPage,
  recoveryCodesPage,
  tooManyWrongCodesMessage,
  wrongCodeMessage,
} from './mfa-pages.ts';

type ProviderFor = (request: FastifyRequest) => Promise<Provider>;
type Level = (typeof authenticationLevels)[keyof typeof authenticationLevels];

/** A step's route called for an interaction at another step: nothing is checked, the sign-in starts again. */
export const wrongStepMessage = 'This sign-in step is not available. Please sign in again.';
export const federatedOnlyMessage = 'Your account signs in through your organisation’s single sign-on link.';

/** Ends the interaction with a login: amr and acr go into the session, the code and the tokens. */
export async function finishLogin(
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  level: Level,
) {
  reply.hijack();
  await provider.interactionFinished(
    request.raw,
    reply.raw,
    { login: { accountId, amr: [...level.amr], acr: level.acr } },
    { mergeWithLastSubmission: false },
  );
}

/** Back to the login page of this interaction, with a message (the password step starts again). */
function sendLoginPage(reply: FastifyReply, tenant: Tenant, uid: string, error: string, status = 401) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'`,
    )
    .type('text/html; charset=utf-8')
    .send(renderLoginPage({ tenant, action: `/interaction/${uid}/login`, email: '', error, nonce }));
}

const requestTenant = (request: FastifyRequest) => {
  if (!request.tenant) throw notFound('Unknown tenant.');
  return request.tenant;
};

async function sendEnrolment(
  db: Database,
  reply: FastifyReply,
  tenant: Tenant,
  uid: string,
  user: User,
  error?: string,
) {
  const { Secret, OtpAuthUri } = await startEnrolment(db, tenant, user);
  const svg = await QRCode.toString(OtpAuthUri, { type: 'svg', margin: 1 });
  const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return sendIdentityPage(reply, tenant, mfaEnrolmentPage(uid, Secret, dataUrl, error), error ? 401 : 200);
}

/**
 * What follows a right password (the login interaction calls this instead of finishing): a person
 * with two-step verification is asked for a code; one whose tenant requires it and who has none is
 * walked through enrolment; one whom the tenant lets in only by SSO is refused; everyone else is in.
 */
export async function afterPasswordStep(
  db: Database,
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
  user: User,
) {
  const tenant = requestTenant(request);
  const settings = tenant.settings as { FormLoginRequiresClaim?: unknown };
  if (settings.FormLoginRequiresClaim === true && !user.claims.includes('user.formlogin')) {
    return sendLoginPage(reply, tenant, uid, federatedOnlyMessage, 403);
  }
  // An account that has a second factor is only ever asked for it; enrolment is for one that has none.
  if (user.totpSecret) {
    await openChallenge(db, uid, user.id, 'code');
    return sendIdentityPage(reply, tenant, mfaCodePage(uid));
  }
  if (isMfaRequired(tenant, user)) {
    await openChallenge(db, uid, user.id, 'enrol');
    return sendEnrolment(db, reply, tenant, uid, user);
  }
  return finishLogin(provider, request, reply, user.id, authenticationLevels.password);
}

/** The second step's routes (AM §7 initiatemfa / loginmfa semantics) inside the identity provider's interaction. */
export function registerMfaInteractionRoutes(
  app: FastifyInstance,
  db: Database,
  providerFor: ProviderFor,
  mailer: Mailer,
) {
  /**
   * The challenge and its person, or the login page again when the sign-in cannot go on. Each
   * route answers only the step the interaction is at: a code challenge (the account has a second
   * factor) never enrols another, and an enrolment never finishes by a code route (issue 38 point 1).
   */
  async function challengeFor(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply, step: ChallengeStep) {
    const provider = await providerFor(request);
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const tenant = requestTenant(request);
    const challenge = await findChallenge(db, details.uid);
    const user = challenge ? await findUserById(db, challenge.userId) : undefined;
    if (!challenge || !user || user.tenantId !== tenant.id) {
      await sendLoginPage(reply, tenant, details.uid, 'Your sign-in has expired. Please sign in again.');
      return undefined;
    }
    // A challenge opens only after a right password, from a browser the account's lock lets in.
    if (!sessionStatuses.has(user.status)) {
      await closeChallenge(db, details.uid);
      await sendLoginPage(
        reply,
        tenant,
        details.uid,
        user.status === 'LockedMFAAttempts' ? `${lockedMfaMessage} ${supportContacts(tenant)}` : 'Your account cannot sign in.',
      );
      return undefined;
    }
    // An enrolment also stops when the account gained a factor meanwhile (set up in another session).
    const enrolmentOutgrown = step === 'enrol' && !challenge.enrolled && user.totpSecret !== null;
    if (challenge.step !== step || enrolmentOutgrown) {
      await sendLoginPage(reply, tenant, details.uid, wrongStepMessage, 403);
      return undefined;
    }
    return { provider, uid: details.uid, tenant, challenge, user };
  }

  /** A wrong code: counted for this attempt (five end it) and for the account (ten in 15 minutes lock it). */
  async function wrongCode(
    request: FastifyRequest,
    reply: FastifyReply,
    tenant: Tenant,
    uid: string,
    user: User,
    retry: () => unknown,
  ) {
    const locked = await db.transaction(async (tx) => {
      if (!(await recordWrongMfaCode(tx, user.id))) return false;
      await auditLock(tx, user.id, lockSourceOf(request, tenant.id), lockActivities.mfaAttempts);
      await revokeAccountSessions(tx, user.id);
      await closeChallenge(tx, uid);
      return true;
    });
    if (locked) return sendLoginPage(reply, tenant, uid, `${lockedMfaMessage} ${supportContacts(tenant)}`);
    if ((await countWrongCode(db, uid)) >= maxWrongCodesPerSignIn) {
      await closeChallenge(db, uid);
      return sendLoginPage(reply, tenant, uid, tooManyWrongCodesMessage);
    }
    return retry();
  }

  async function signedIn(uid: string, userId: string) {
    await closeChallenge(db, uid);
    await db.update(users).set({ mfaFailedAttempts: 0, mfaFailuresSince: null }).where(eq(users.id, userId));
  }

  app.post<{ Params: { uid: string } }>(
    '/interaction/:uid/loginmfa',
    { config: { application: 'none' } },
    async (request, reply) => {
      const found = await challengeFor(request, reply, 'code');
      if (!found) return reply;
      const { provider, uid, tenant, user } = found;
      const { code } = LoginMfaFormSchema.parse(request.body ?? {});
      const factor = await verifySecondFactor(db, user, code);
      if (!factor) {
        return wrongCode(request, reply, tenant, uid, user, () =>
          sendIdentityPage(reply, tenant, mfaCodePage(uid, wrongCodeMessage), 401),
        );
      }
      await signedIn(uid, user.id);
      if (factor === 'recovery') await mailRecoveryCodeUse(db, mailer, tenant, user);
      return finishLogin(provider, request, reply, user.id, authenticationLevels.secondFactor);
    },
  );

  /** A required enrolment: the code confirms it and shows the recovery codes; Continue then signs in. */
  app.post<{ Params: { uid: string } }>(
    '/interaction/:uid/enrolmfa',
    { config: { application: 'none' } },
    async (request, reply) => {
      const found = await challengeFor(request, reply, 'enrol');
      if (!found) return reply;
      const { provider, uid, tenant, challenge, user } = found;
      if (challenge.enrolled) {
        await signedIn(uid, user.id);
        return finishLogin(provider, request, reply, user.id, authenticationLevels.secondFactor);
      }
      const codes = await confirmEnrolment(
        db,
        user,
        LoginMfaFormSchema.parse(request.body ?? {}).code.trim(),
      );
      if (!codes)
        return wrongCode(request, reply, tenant, uid, user, () =>
          sendEnrolment(db, reply, tenant, uid, user, wrongCodeMessage),
        );
      await markChallengeEnrolled(db, uid);
      return sendIdentityPage(reply, tenant, recoveryCodesPage(uid, codes));
    },
  );
}

/** A recovery code was used: the person hears of it, in case it was not them. */
async function mailRecoveryCodeUse(db: Database, mailer: Mailer, tenant: Tenant, user: User) {
  const left = await remainingRecoveryCodes(db, user.id);
  const { text, html } = composeEmail({
    greeting: `Hello ${user.firstName},`,
    paragraphs: [
      `A recovery code was just used to sign in to your ${tenant.name} account. You have ${left} recovery code${left === 1 ? '' : 's'} left.`,
    ],
    closing: [`If this was not you, contact ${tenant.supportEmail} at once.`],
    signature: [tenant.name],
  });
  await sendAccountEmail(
    db,
    mailer,
    {
      fromName: tenant.name,
      to: user.email,
      subject: `A recovery code was used for your ${tenant.name} account`,
      text,
      html,
    },
    { tenantId: tenant.id, userId: user.id, activity: 'Signed in with a recovery code' },
  );
}
