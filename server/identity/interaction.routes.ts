import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import * as z from 'zod';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { findUserByEmail, maxFailedSignIns, signInStatuses } from './accounts.ts';
import { verifyPassword } from './passwords.ts';
import { renderLoginPage } from './login-page.ts';
import { notFound } from '../http-error.ts';

export const wrongCredentialsMessage = 'The email or password is incorrect.';
export const lockedMessage =
  'Your account is locked after too many failed sign-in attempts. Please contact your administrator to unlock it.';
export const disabledMessage = 'Your account is not active. Please contact your administrator.';

const LoginFormSchema = z.object({ email: z.string().default(''), password: z.string().default('') });

type ProviderFor = (request: FastifyRequest) => Promise<Provider>;

/** The login interaction: renders the branded page, checks the password, locks after five failures. */
export function registerInteractionRoutes(app: FastifyInstance, db: Database, providerFor: ProviderFor) {
  function sendPage(reply: FastifyReply, request: FastifyRequest, uid: string, email = '', error?: string) {
    const tenant = request.tenant;
    if (!tenant) throw notFound('Unknown tenant.');
    const nonce = randomBytes(16).toString('base64');
    return reply
      .code(error ? 401 : 200)
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
    if (details.prompt.name === 'login') return sendPage(reply, request, details.uid);
    // The portal is our own client: consent is implied, so grant what it asked for and continue.
    const grantId = await grantRequestedAccess(provider, details);
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  app.post<{ Params: { uid: string } }>('/interaction/:uid/login', async (request, reply) => {
    const provider = await providerFor(request);
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const tenant = request.tenant;
    if (!tenant) throw notFound('Unknown tenant.');
    const { email, password } = LoginFormSchema.parse(request.body ?? {});

    const user = email ? await findUserByEmail(db, tenant.id, email) : undefined;
    if (!user) return sendPage(reply, request, details.uid, email, wrongCredentialsMessage);
    if (user.status.startsWith('Locked')) return sendPage(reply, request, details.uid, email, lockedMessage);
    if (!signInStatuses.has(user.status)) return sendPage(reply, request, details.uid, email, disabledMessage);

    if (!(await verifyPassword(password, user.passwordHash))) {
      const [updated] = await db
        .update(users)
        .set({
          failedAttempts: sql`${users.failedAttempts} + 1`,
          status: sql`case when ${users.failedAttempts} + 1 >= ${maxFailedSignIns} then 'LockedPasswordAttempts' else ${users.status} end`,
        })
        .where(eq(users.id, user.id))
        .returning({ status: users.status });
      const locked = updated?.status === 'LockedPasswordAttempts';
      return sendPage(reply, request, details.uid, email, locked ? lockedMessage : wrongCredentialsMessage);
    }

    await db.update(users).set({ failedAttempts: 0, lastLoginAt: new Date() }).where(eq(users.id, user.id));
    reply.hijack();
    await provider.interactionFinished(
      request.raw,
      reply.raw,
      { login: { accountId: user.id } },
      { mergeWithLastSubmission: false },
    );
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
