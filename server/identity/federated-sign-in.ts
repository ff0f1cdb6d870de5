import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import * as z from 'zod';
import type { Database } from '../db/client.ts';
import { federationKeys, federationNonces, users } from '../db/schema.ts';
import { html } from '../html.ts';
import { notFound } from '../http-error.ts';
import { findUserByEmail, signInStatuses } from './accounts.ts';
import { federatedHash, maxLinkLifetimeSeconds } from './federated-link.ts';
import { sendIdentityPage } from './identity-page.ts';
import { authenticationLevels } from './mfa.ts';
import { finishLogin } from './mfa-interaction.ts';

/** Clocks of the partner and ours may differ this much. */
const clockSkewSeconds = 30;

const ClaimsSchema = z.object({
  email: z.string().max(320),
  issued: z.number().int(),
  expiry: z.number().int(),
  nonce: z.string().min(8).max(200),
  kid: z.string().min(1).max(100),
});

export const federatedRefusals = {
  malformed: 'The sign-in link is damaged or incomplete.',
  unknownKey: 'The sign-in link was signed with a key this portal does not know.',
  forged: 'The sign-in link’s signature is not valid.',
  expired: 'The sign-in link has expired. Please open it again from your organisation’s site.',
  replayed: 'The sign-in link was already used. Each link signs in once.',
  noAccount: 'There is no active account for this sign-in link.',
} as const;
export type FederatedRefusal = keyof typeof federatedRefusals;

const decode = (value: string) => {
  try {
    return Buffer.from(value, 'base64url');
  } catch {
    return Buffer.alloc(0);
  }
};

/**
 * Checks a federated link for this tenant: the key by its id, the HMAC in constant time, the
 * lifetime (at most 5 minutes, small skew), then spends the nonce (an insert that only the first
 * use wins) and finds an existing, enabled account. The signature is checked before anything is
 * stored, so forged links cannot fill the nonce table.
 */
export async function checkFederatedLink(
  db: Database,
  tenantId: string,
  token: string,
  hash: string,
  now = Math.floor(Date.now() / 1000),
): Promise<{ userId: string } | { refused: FederatedRefusal }> {
  let parsed: z.infer<typeof ClaimsSchema>;
  try {
    const result = ClaimsSchema.safeParse(JSON.parse(decode(token).toString('utf8')));
    if (!result.success) return { refused: 'malformed' };
    parsed = result.data;
  } catch {
    return { refused: 'malformed' };
  }
  const [key] = await db
    .select()
    .from(federationKeys)
    .where(and(eq(federationKeys.tenantId, tenantId), eq(federationKeys.keyId, parsed.kid), eq(federationKeys.enabled, true)));
  if (!key) return { refused: 'unknownKey' };
  const expected = federatedHash(key.secret, token);
  const given = decode(hash);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { refused: 'forged' };
  const lifetime = parsed.expiry - parsed.issued;
  if (lifetime <= 0 || lifetime > maxLinkLifetimeSeconds || parsed.issued > now + clockSkewSeconds || now > parsed.expiry + clockSkewSeconds) {
    return { refused: 'expired' };
  }
  await db.delete(federationNonces).where(lt(federationNonces.expiresAt, new Date()));
  const spent = await db
    .insert(federationNonces)
    .values({ tenantId, nonce: parsed.nonce, expiresAt: new Date((parsed.expiry + clockSkewSeconds) * 1000) })
    .onConflictDoNothing()
    .returning({ nonce: federationNonces.nonce });
  if (spent.length === 0) return { refused: 'replayed' };
  const user = await findUserByEmail(db, tenantId, parsed.email);
  if (!user || !signInStatuses.has(user.status)) return { refused: 'noAccount' };
  return { userId: user.id };
}

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The link's token and hash, when this sign-in came from a federated link (extra authorisation parameters). */
export function federatedParameters(details: InteractionDetails): { token: string; hash: string } | undefined {
  const { federation_token: token, federation_hash: hash } = details.params;
  return typeof token === 'string' && typeof hash === 'string' && token && hash ? { token, hash } : undefined;
}

/**
 * Signs the person of a valid link in without a password (amr fed); a refused link shows why, on
 * the sign-in unavailable page, and no session is made.
 */
export async function federatedLogin(
  db: Database,
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  link: { token: string; hash: string },
) {
  const tenant = request.tenant;
  if (!tenant) throw notFound('Unknown tenant.');
  const outcome = await checkFederatedLink(db, tenant.id, link.token, link.hash);
  if ('refused' in outcome) {
    request.log.info({ refused: outcome.refused }, 'federated sign-in refused');
    return sendIdentityPage(
      reply,
      tenant,
      {
        title: 'SSO sign-in unavailable',
        body: html`<p class="error" role="alert">${federatedRefusals[outcome.refused]}</p>
  <p>You have not been signed in.</p>
  <a class="button" href="/">Sign in with your password</a>`,
      },
      403,
    );
  }
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, outcome.userId));
  return finishLogin(provider, request, reply, outcome.userId, authenticationLevels.federated);
}
