import { createHmac, randomBytes } from 'node:crypto';

/**
 * The federated sign-in link (SUV §2 `/federated/:token/:hash`): a partner signs
 * `token = base64url(JSON {email, issued, expiry, nonce, kid})` with the tenant's key,
 * `hash = base64url(HMAC-SHA256(key, token))`. Times are Unix seconds; expiry at most 5 minutes
 * after issued. The README tells partners how to build one; scripts/federated-link.ts prints one.
 */
export interface FederatedClaims {
  email: string;
  issued: number;
  expiry: number;
  nonce: string;
  kid: string;
}

export const maxLinkLifetimeSeconds = 300;

export const federatedHash = (secret: string, token: string) => createHmac('sha256', secret).update(token).digest();

export function signFederatedLink(
  origin: string,
  { email, kid, secret, now = Math.floor(Date.now() / 1000), lifetime = maxLinkLifetimeSeconds }: { email: string; kid: string; secret: string; now?: number; lifetime?: number },
): string {
  const claims: FederatedClaims = { email, issued: now, expiry: now + lifetime, nonce: randomBytes(16).toString('base64url'), kid };
  const token = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${origin}/federated/${token}/${federatedHash(secret, token).toString('base64url')}`;
}

/** The demo tenant's partner key (seeded; README). A real tenant's key is its own secret. */
export const demoFederationKey = { tenantId: 'demo', keyId: 'demo-partner-1', secret: 'demo-federation-secret-change-me' } as const;
