import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { serverSecrets } from '../db/schema.ts';

export interface IdentitySecrets {
  /** Private signing keys for oidc-provider (RS256). */
  signingKeys: JWK[];
  /** Public halves, for verifying access tokens on the API. */
  publicKeys: JWK[];
  cookieKeys: string[];
}

/**
 * Reads the signing key and cookie secret, creating them on first start. They live in the database
 * so restarts keep people signed in and several instances issue and accept the same tokens.
 */
export async function loadIdentitySecrets(db: Database): Promise<IdentitySecrets> {
  const stored = await db.select().from(serverSecrets).where(eq(serverSecrets.name, 'identity'));
  const existing = stored[0]?.value as IdentitySecrets | undefined;
  if (existing) return existing;

  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const secrets: IdentitySecrets = {
    signingKeys: [{ ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }],
    publicKeys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }],
    cookieKeys: [randomBytes(32).toString('hex')],
  };
  // Two instances starting together: the first insert wins and both read it back.
  await db.insert(serverSecrets).values({ name: 'identity', value: secrets }).onConflictDoNothing();
  const [winner] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, 'identity'));
  return winner?.value as IdentitySecrets;
}
