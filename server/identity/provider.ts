import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/client.ts';
import type { ServerConfig } from '../config.ts';
import type { IdentitySecrets } from './secrets.ts';
import { createPostgresAdapter } from './adapter.ts';
import { accessTokenClaims, findUserById, sessionStatuses, signInStatuses } from './accounts.ts';
import { portalInteractionPolicy } from './interaction-policy.ts';

export const portalClientId = 'portal';
/** One resource server (this portal server) carries both APIs; each API route checks its own scope. */
export const apiResource = 'urn:portal:api';
export const apiScopes = ['applicationmanager', 'entityverification'] as const;
export const portalScope = ['openid', 'profile', 'offline_access', ...apiScopes].join(' ');

interface ProviderDeps {
  db: Database;
  config: ServerConfig;
  secrets: IdentitySecrets;
  tenantId: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Builds the OpenID provider for one tenant origin (`http://demo.localhost:8080/oidc`). Each
 * tenant is its own issuer, so a token of one tenant can never be replayed on another's host.
 */
export function createProvider(origin: string, { db, config, secrets, tenantId }: ProviderDeps): Provider {
  const absoluteRemaining = (issuedAt: number | undefined) =>
    Math.max(1, (issuedAt ?? nowSeconds()) + config.SESSION_MAX_TTL - nowSeconds());
  // Sliding idle window, never past the absolute limit counted from the first sign-in.
  const slidingTtl = (firstIssuedAt: number | undefined) =>
    Math.min(config.SESSION_IDLE_TTL, absoluteRemaining(firstIssuedAt));

  const configuration: Configuration = {
    adapter: createPostgresAdapter(db),
    clients: [
      {
        client_id: portalClientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${origin}/authentication/callback`, `${origin}/authentication/silent-callback`],
        post_logout_redirect_uris: [`${origin}/`, `${origin}/timeout`],
      },
    ],
    pkce: { required: () => true },
    // A federated link's token and hash reach the login interaction with the authorisation request.
    extraParams: ['federation_token', 'federation_hash'],
    scopes: ['openid', 'profile', 'offline_access'],
    acrValues: ['urn:portal:loa:1', 'urn:portal:loa:2'],
    claims: { openid: ['sub', 'acr', 'amr'], profile: ['name', 'email'] },
    findAccount: async (_ctx, id) => {
      const user = await findUserById(db, id);
      if (!user || user.tenantId !== tenantId || !sessionStatuses.has(user.status)) return undefined;
      return {
        accountId: user.id,
        claims: () => ({ sub: user.id, name: `${user.firstName} ${user.lastName}`, email: user.email }),
      };
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: apiScopes.join(' '),
          audience: apiResource,
          accessTokenTTL: config.ACCESS_TOKEN_TTL,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: async (ctx, token) => {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const user = await findUserById(db, token.accountId);
      const sessionUid = 'sessionUid' in token && typeof token.sessionUid === 'string' ? token.sessionUid : undefined;
      const grantId = 'grantId' in token && typeof token.grantId === 'string' ? token.grantId : undefined;
      // amr/acr of the sign-in (issue 31): from the code on the first exchange, the refresh token after.
      const { AuthorizationCode: code, RefreshToken: refreshToken } = ctx.oidc.entities;
      const { amr, acr } = code ?? refreshToken ?? {};
      return user ? { ...accessTokenClaims(user), sid: sessionUid, gid: grantId, amr, acr } : undefined;
    },
    // The portal is a first-party client: every sign-in yields a refresh token, rotated on each use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: config.ACCESS_TOKEN_TTL,
      Interaction: 30 * 60,
      Grant: config.SESSION_MAX_TTL,
      Session: (_ctx: KoaContextWithOIDC, session) => slidingTtl(session.loginTs),
      RefreshToken: (_ctx: KoaContextWithOIDC, token) => slidingTtl(token.iiat ?? token.iat),
    },
    interactions: { policy: portalInteractionPolicy(), url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: secrets.cookieKeys },
    jwks: { keys: secrets.signingKeys },
    clientBasedCORS: (ctx, requestOrigin) => requestOrigin === origin,
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Sign-in error</title><h1>Sign-in could not continue</h1><p>${String(
        out.error_description ?? out.error,
      ).replace(/[<>&"]/g, '')}</p><p><a href="/">Return to the portal</a></p>`;
    },
  };

  const provider = new Provider(`${origin}/oidc`, configuration);
  provider.proxy = true;
  return provider;
}

export { signInStatuses };
