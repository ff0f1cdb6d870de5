import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Database } from '../db/client.ts';
import { mfaChallenges, mfaRecoveryCodes, users } from '../db/schema.ts';
import { auditAccount } from '../db/account-audit-store.ts';
import type { Tenant } from '../tenancy.ts';
import type { User } from './accounts.ts';

/**
 * Two-step verification with TOTP (RFC 6238: SHA-1, 6 digits, 30 s, what every authenticator app
 * reads), ten one-time recovery codes, and the sign-in challenge between password and code.
 */

export const recoveryCodeCount = 10;
/** A code of the step before or after the current one is accepted too (clock drift of the phone). */
const driftSteps = 1;
const period = 30;
/** How long the second step waits for its code after the password (the interaction lives 30 min). */
const challengeMinutes = 10;
/** Wrong codes that end one sign-in attempt (the account's own counter locks at ten). */
export const maxWrongCodesPerSignIn = 5;

const totp = (secret: string, label = '', issuer = '') =>
  new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period, secret: OTPAuth.Secret.fromBase32(secret) });

/** The time step a 6-digit code belongs to, or undefined when it matches none near now. */
function matchingStep(secret: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: driftSteps });
  return delta === null ? undefined : Math.floor(now / 1000 / period) + delta;
}

/** Whether the tenant requires a second step of this person (tenant settings, by role or for all). */
export function isMfaRequired(tenant: Pick<Tenant, 'settings'>, user: Pick<User, 'roleName'>): boolean {
  const settings = tenant.settings as { TwoStepVerificationRequired?: unknown; TwoStepVerificationRoles?: unknown };
  if (settings.TwoStepVerificationRequired === true) return true;
  return Array.isArray(settings.TwoStepVerificationRoles) && settings.TwoStepVerificationRoles.includes(user.roleName);
}

/** Starts enrolment: a new secret kept as pending; the current one (if any) stays until a code confirms. */
export async function startEnrolment(db: Database, tenant: Tenant, user: User) {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, user.id));
  return { Secret: secret, OtpAuthUri: totp(secret, user.email, tenant.name).toString() };
}

const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashRecoveryCode = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
/** 10 characters of Crockford-like base32 (50 bits), shown as XXXXX-XXXXX. */
function newRecoveryCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';
  const chars = [...randomBytes(10)].map((byte) => alphabet[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * Confirms enrolment with one code of the pending secret: the secret becomes the account's, the
 * code's step is spent (it cannot sign in afterwards), and ten new recovery codes replace any old
 * ones. Undefined when the code does not match.
 */
export async function confirmEnrolment(db: Database, user: User, code: string): Promise<string[] | undefined> {
  const [current] = await db.select({ pending: users.totpPendingSecret }).from(users).where(eq(users.id, user.id));
  const pending = current?.pending;
  const step = pending ? matchingStep(pending, code) : undefined;
  if (!pending || step === undefined) return undefined;
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ totpSecret: pending, totpPendingSecret: null, totpLastStep: step }).where(eq(users.id, user.id));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
    await tx.insert(mfaRecoveryCodes).values(codes.map((value) => ({ userId: user.id, codeHash: hashRecoveryCode(value) })));
    await auditAccount(tx, { tenantId: user.tenantId, userId: user.id, activity: 'Two-step verification set up' });
  });
  return codes;
}

export type SecondFactor = 'otp' | 'recovery' | undefined;

/**
 * Checks the second step's code: a TOTP code of a step after the last one accepted (taken by a
 * conditional update, so a code signs in once even when sent twice at the same moment), or an
 * unused recovery code (spent the same way).
 */
export async function verifySecondFactor(db: Database, user: User, code: string): Promise<SecondFactor> {
  const trimmed = code.replace(/\s/g, '');
  if (!user.totpSecret) return undefined;
  const step = matchingStep(user.totpSecret, trimmed);
  if (step !== undefined) {
    const taken = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return taken.length > 0 ? 'otp' : undefined;
  }
  if (normaliseRecoveryCode(trimmed).length !== 10) return undefined;
  const spent = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(mfaRecoveryCodes.userId, user.id), eq(mfaRecoveryCodes.codeHash, hashRecoveryCode(trimmed)), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ userId: mfaRecoveryCodes.userId });
  return spent.length > 0 ? 'recovery' : undefined;
}

/** Recovery codes not used yet. */
export async function remainingRecoveryCodes(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/** The step a sign-in's second step is at: a code of the account's own factor, or a required enrolment. */
export type ChallengeStep = (typeof mfaChallenges.$inferSelect)['step'];

/**
 * The sign-in waits for its second step: remembered under the identity provider's interaction id,
 * with the step it is at, which only that step's route may answer (issue 38 point 1).
 */
export async function openChallenge(db: Database, interactionUid: string, userId: string, step: ChallengeStep) {
  const expiresAt = new Date(Date.now() + challengeMinutes * 60_000);
  await db
    .insert(mfaChallenges)
    .values({ interactionUid, userId, expiresAt, step })
    .onConflictDoUpdate({ target: mfaChallenges.interactionUid, set: { userId, wrongCodes: 0, expiresAt, step, enrolled: false } });
}

export async function findChallenge(db: Database, interactionUid: string) {
  const [challenge] = await db.select().from(mfaChallenges).where(eq(mfaChallenges.interactionUid, interactionUid));
  return challenge && challenge.expiresAt.getTime() > Date.now() ? challenge : undefined;
}

/** Counts a wrong code against this sign-in attempt; answers how many it has had. */
export async function countWrongCode(db: Database, interactionUid: string): Promise<number> {
  const [row] = await db
    .update(mfaChallenges)
    .set({ wrongCodes: sql`${mfaChallenges.wrongCodes} + 1` })
    .where(eq(mfaChallenges.interactionUid, interactionUid))
    .returning({ wrongCodes: mfaChallenges.wrongCodes });
  return row?.wrongCodes ?? maxWrongCodesPerSignIn;
}

export async function markChallengeEnrolled(db: Database, interactionUid: string) {
  await db.update(mfaChallenges).set({ enrolled: true }).where(eq(mfaChallenges.interactionUid, interactionUid));
}

export async function closeChallenge(db: Pick<Database, 'delete'>, interactionUid: string) {
  await db.delete(mfaChallenges).where(eq(mfaChallenges.interactionUid, interactionUid));
}

/** The first sign-in steps: amr and acr as the tokens carry them (RFC 8176 method names). */
export const authenticationLevels = {
  password: { amr: ['pwd'], acr: 'urn:portal:loa:1' },
  secondFactor: { amr: ['pwd', 'otp'], acr: 'urn:portal:loa:2' },
  federated: { amr: ['fed'], acr: 'urn:portal:loa:1' },
} as const;
