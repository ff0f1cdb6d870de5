import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { accountAudit } from '../db/schema.ts';

/** Where a lock came from: the account's tenant and the client's address (as TRUST_PROXY allows). */
export interface LockSource {
  tenantId: string;
  sourceAddress: string;
}

export const lockSourceOf = (request: FastifyRequest, tenantId: string): LockSource => ({ tenantId, sourceAddress: request.ip });

/** What locked, as the account's audit trail says it. */
export const lockActivities = {
  passwordAttempts: 'Locked after five wrong passwords from browsers that had not signed in to the account',
  changePasswordAttempts: 'Locked after five wrong current passwords on change password; every session ended',
  mfaAttempts: 'Locked after ten wrong two-step codes; every session ended',
  inactivity: 'Locked for inactivity at sign-in',
  deviceCookie: 'A browser that had signed in to the account was locked out after five wrong passwords',
} as const;

/**
 * Every lock of an account writes one audit line (who: the account; what; when; from which address),
 * in the transaction of the lock itself (issue 27 point 11).
 */
export async function auditLock(
  tx: Pick<Database, 'insert'>,
  userId: string,
  source: LockSource,
  activity: (typeof lockActivities)[keyof typeof lockActivities],
) {
  await tx.insert(accountAudit).values({ tenantId: source.tenantId, userId, activity, sourceAddress: source.sourceAddress });
}
