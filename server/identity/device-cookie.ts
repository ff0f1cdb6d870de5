import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { deviceCookieFailures } from '../db/schema.ts';
import { isUserId, maxFailedSignIns } from './accounts.ts';

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies", issue 27 point 11):
 * a browser that signed in to an account holds a cookie naming that account and a nonce, signed
 * with the server's cookie keys. The account's five-failure lock keeps out browsers without one;
 * a browser with one is counted apart, per nonce, and five of its own failures lock out only it.
 * The cookie is sent only to the login interaction (`/interaction`), HttpOnly, SameSite=Lax.
 */
export const deviceCookiePath = '/interaction';
/** Renewed at every sign-in, so a browser in use stays known. */
export const deviceCookieMaxAgeSeconds = 180 * 86_400;

/** One cookie per account a browser signed in to (a shared computer may know several). */
export const deviceCookieName = (userId: string) => `portal_device_${userId.replaceAll('-', '')}`;

const macOf = (key: string, userId: string, nonce: string) =>
  createHmac('sha256', key).update(`device-cookie\0${userId}\0${nonce}`).digest();

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The nonce of this request's device cookie for the account, when its signature holds (under any of
 * the cookie keys) and it names that account; anything else (forged, another account's, malformed)
 * is a browser that has not signed in to it.
 */
export function presentedDeviceNonce(request: FastifyRequest, keys: readonly string[], userId: string): string | undefined {
  if (!isUserId(userId)) return undefined;
  const value = cookieValue(request.headers.cookie, deviceCookieName(userId));
  const [named, nonce, mac, ...rest] = (value ?? '').split('.');
  if (rest.length > 0 || named !== userId || !nonce || !mac || !/^[A-Za-z0-9_-]{22}$/.test(nonce)) return undefined;
  const presented = Buffer.from(mac, 'base64url');
  const valid = keys.some((key) => {
    const expected = macOf(key, userId, nonce);
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  });
  return valid ? nonce : undefined;
}

/** Whether five wrong passwords from this device cookie have locked it out. */
export async function isDeviceLockedOut(db: Pick<Database, 'select'>, nonce: string): Promise<boolean> {
  const [row] = await db
    .select({ lockedAt: deviceCookieFailures.lockedAt })
    .from(deviceCookieFailures)
    .where(eq(deviceCookieFailures.nonce, nonce));
  return row?.lockedAt != null;
}

/** Counts a wrong password sent with this device cookie; true when this one locked the cookie out. */
export async function recordDeviceFailure(db: Pick<Database, 'insert'>, nonce: string, userId: string): Promise<boolean> {
  const [row] = await db
    .insert(deviceCookieFailures)
    .values({ nonce, userId, failedAttempts: 1 })
    .onConflictDoUpdate({
      target: deviceCookieFailures.nonce,
      set: {
        failedAttempts: sql`${deviceCookieFailures.failedAttempts} + 1`,
        lockedAt: sql`case when ${deviceCookieFailures.failedAttempts} + 1 >= ${maxFailedSignIns} then coalesce(${deviceCookieFailures.lockedAt}, now()) else null end`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ failedAttempts: deviceCookieFailures.failedAttempts });
  return row?.failedAttempts === maxFailedSignIns;
}

/** A right password from this browser: its count starts again (a new cookie follows). */
export async function forgetDeviceFailures(db: Pick<Database, 'delete'>, nonce: string) {
  await db.delete(deviceCookieFailures).where(eq(deviceCookieFailures.nonce, nonce));
}

/**
 * Sets a fresh device cookie for the account on this response. Written on the raw response so it
 * survives the identity provider finishing the interaction on it (a hijacked reply).
 */
export function issueDeviceCookie(request: FastifyRequest, reply: FastifyReply, keys: readonly string[], userId: string) {
  const [key] = keys;
  if (!key) throw new Error('No cookie key to sign the device cookie with');
  const nonce = randomBytes(16).toString('base64url');
  const value = `${userId}.${nonce}.${macOf(key, userId, nonce).toString('base64url')}`;
  const attributes = [
    `${deviceCookieName(userId)}=${value}`,
    `Path=${deviceCookiePath}`,
    `Max-Age=${deviceCookieMaxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(request.protocol === 'https' ? ['Secure'] : []),
  ];
  reply.raw.appendHeader('set-cookie', attributes.join('; '));
}
