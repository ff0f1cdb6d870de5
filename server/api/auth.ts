import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as z from 'zod';
import type { Database } from '../db/client.ts';
import type { IdentitySecrets } from '../identity/secrets.ts';
import { apiResource, type apiScopes } from '../identity/provider.ts';
import { sessionStatuses } from '../identity/accounts.ts';
import { Lru } from '../lru.ts';
import { callerLookup } from './caller-record.ts';
import { grantLiveness } from './grant-liveness.ts';
import { forbidden, notFound, unauthorized } from '../http-error.ts';
import type { Tenant } from '../tenancy.ts';
import type { AccountWriteLimit } from '../rate-limits.ts';

/** Who is calling: established from the bearer token and re-checked against the user record. */
export interface Principal {
  userId: string;
  tenantId: string;
  displayName: string;
  email: string;
  createdDate: string;
  claims: readonly string[];
  sessionUid: string | undefined;
  scopes: ReadonlySet<string>;
  /** How the person signed in (RFC 8176: pwd, otp, fed), from the token. */
  amr: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant | undefined;
    principal: Principal | undefined;
  }
}

const TokenClaimsSchema = z.object({
  sub: z.string(),
  iat: z.number(),
  scope: z.string().default(''),
  Tenant: z.string(),
  Permissions: z.array(z.string()),
  sid: z.string().optional(),
  /** The grant the token was issued under (provider.ts): when it ends, so does the token. */
  gid: z.string(),
  amr: z.array(z.string()).default([]),
});

type ApiScope = (typeof apiScopes)[number];

export interface AccessRule {
  /** The API the route belongs to; the token must carry its scope. */
  scope: ApiScope;
  /** Every one of these claims is required (exact match). */
  claims?: readonly string[];
  /** At least one of these claims is required (match-any). */
  anyClaim?: readonly string[];
}

function secondFactorClaims(tenant: Tenant | undefined): readonly string[] {
  const setting = (tenant?.settings as { ClaimsRequiringSecondFactor?: unknown } | undefined)?.ClaimsRequiringSecondFactor;
  return Array.isArray(setting) ? setting.filter((claim): claim is string => typeof claim === 'string') : [];
}

export const requestOrigin = (request: FastifyRequest) => `${request.protocol}://${request.headers.host ?? ''}`;

type TokenClaims = z.infer<typeof TokenClaimsSchema>;

/** Verified tokens kept, so that a client's next calls skip the RSA check (bounded; each until it expires). */
const maxVerifiedTokens = 10_000;

/**
 * `limitAccountWrite` is the per-account write limit (server/rate-limits.ts): every route that
 * authenticates goes through requireAccess, so every authenticated write is counted, once.
 */
export function createAccessControl(db: Database, secrets: IdentitySecrets, limitAccountWrite: AccountWriteLimit) {
  const jwks = createLocalJWKSet({ keys: secrets.publicKeys });
  const findCaller = callerLookup(db);
  const isGrantAlive = grantLiveness(db);
  const verified = new Lru<{ claims: TokenClaims; expiresAt: number }>();

  /** The token's claims if its signature, issuer, audience and lifetime hold; the result of a check is kept until the token expires. */
  async function verifiedClaims(token: string, issuer: string): Promise<TokenClaims | undefined> {
    // The issuer is the tenant's own origin, so another tenant's token fails here.
    const key = `${issuer} ${token}`;
    const known = verified.get(key);
    if (known && Date.now() < known.expiresAt) return known.claims;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer, audience: apiResource, algorithms: ['RS256'] }));
    } catch {
      verified.delete(key);
      return undefined;
    }
    const parsed = TokenClaimsSchema.safeParse(payload);
    if (!parsed.success || payload.exp === undefined) return undefined;
    verified.set(key, { claims: parsed.data, expiresAt: payload.exp * 1000 });
    verified.evict(() => verified.size > maxVerifiedTokens);
    return parsed.data;
  }

  async function verifyBearer(request: FastifyRequest): Promise<Principal> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized();
    if (!request.tenant) throw notFound('Unknown tenant.');

    const token = await verifiedClaims(match[1], `${requestOrigin(request)}/oidc`);
    if (!token) throw unauthorized('The bearer token is invalid or has expired.');
    if (token.Tenant !== request.tenant.id) throw unauthorized('The token is not for this tenant.');

    // Tokens are short-lived but stateless; the user record makes lock, deactivation and
    // "signed out everywhere" take effect at once.
    const user = await findCaller(token.sub);
    if (!user || user.tenantId !== request.tenant.id || !sessionStatuses.has(user.status)) {
      throw unauthorized('The account can no longer sign in.');
    }
    // iat has whole seconds: a token issued in the second of a password change is the new session's
    // (the change also ends every grant, which the check below catches for the old ones).
    const endedAt = Math.floor(user.tokensValidAfter.getTime() / 1000);
    if (token.iat < endedAt) throw unauthorized('The session has ended.');
    // A token of that very second is the new session's or an old one: its grant decides, read afresh,
    // since a grant seen alive a moment ago may be one the change just ended (PostgreSQL trusts a
    // seen grant for a few seconds; issue 27 point 11's change-password lock relies on this).
    if (!(await isGrantAlive(token.gid, token.iat === endedAt))) throw unauthorized('The session has ended.');

    return {
      userId: user.id,
      tenantId: user.tenantId,
      displayName: `${user.firstName} ${user.lastName}`.trim(),
      email: user.email,
      createdDate: user.createdAt.toISOString(),
      claims: user.claims,
      sessionUid: token.sid,
      scopes: new Set(token.scope.split(' ')),
      amr: token.amr,
    };
  }

  /** onRequest hook for a route (runs before body validation): 401 without a valid token, 403 without the scope or claims. */
  function requireAccess(rule: AccessRule): onRequestAsyncHookHandler {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = await verifyBearer(request);
      if (!principal.scopes.has(rule.scope)) throw forbidden(`The token lacks the ${rule.scope} scope.`);
      const missing = (rule.claims ?? []).filter((claim) => !principal.claims.includes(claim));
      if (missing.length > 0) throw forbidden(`Requires the ${missing.join(', ')} claim.`);
      if (rule.anyClaim && !rule.anyClaim.some((claim) => principal.claims.includes(claim))) {
        throw forbidden(`Requires one of the ${rule.anyClaim.join(', ')} claims.`);
      }
      // Claims the tenant guards with a second factor (setting ClaimsRequiringSecondFactor, issue 31).
      const guarded = secondFactorClaims(request.tenant);
      const needed = [...(rule.claims ?? []), ...(rule.anyClaim ?? [])].filter((claim) => guarded.includes(claim));
      if (needed.length > 0 && !principal.amr.includes('otp')) {
        throw forbidden(`Requires two-step verification for the ${needed.join(', ')} claim.`);
      }
      request.principal = principal;
      if (await limitAccountWrite(request, reply)) return reply;
    };
  }

  return { verifyBearer, requireAccess };
}
