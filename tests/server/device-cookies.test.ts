import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accountAudit, deviceCookieFailures, users } from '../../server/db/schema.ts';
import { lockedMessage, wrongCredentialsMessage } from '../../server/identity/interaction.routes.ts';
import { deviceCookieName, deviceCookiePath } from '../../server/identity/device-cookie.ts';
import { lockActivities } from '../../server/identity/lock-audit.ts';
import { escapeHtml } from '../../server/html.ts';
import { api, CookieJar, refresh, signIn, startTestServer, userWith, type TestServer } from './harness.ts';

/**
 * Issue 27 point 11: five wrong passwords from anywhere locked any account and stopped its owner's
 * live token. The lock now keeps out browsers that never signed in to the account; the owner's
 * browser (its device cookie) counts its own failures apart and still signs in.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_SIGN_IN: '10000', RATE_LIMIT_SIGN_IN_FAILURES: '10000' });
});
afterAll(() => server.close());

const record = async (email: string) => (await server.db.select().from(users).where(eq(users.email, email)))[0]!;
const auditOf = (userId: string) => server.db.select().from(accountAudit).where(eq(accountAudit.userId, userId));
const ping = (token: string) => api(server, 'GET', '/api/account/ping', { token });

/**
 * One browser that signs out after each sign-in: it keeps its device cookies, not the identity
 * provider's session, so every sign-in goes through the login form.
 */
function browser() {
  const kept = new Map<string, string>();
  const jar = () => {
    const next = new CookieJar();
    for (const [name, value] of kept) next.set(name, value);
    return next;
  };
  return {
    kept,
    async signIn(email: string, password?: string) {
      const used = jar();
      const result = await signIn(server, email, password, undefined, { jar: used });
      for (const [name, cookie] of used.lastSet) if (name.startsWith('portal_device_')) kept.set(name, cookie.value);
      return result;
    },
    async wrongPasswords(email: string, times: number) {
      const pages: string[] = [];
      for (let attempt = 0; attempt < times; attempt++) pages.push((await this.signIn(email, `wrong-${attempt}`)).loginPage ?? '');
      return pages;
    },
  };
}

/** Wrong passwords from browsers that never signed in to the account, each a new one. */
const elsewhere = () => browser();

describe('device cookies', () => {
  it('are set at sign-in: signed, HttpOnly, SameSite=Lax, only for the identity pages', async () => {
    const { user } = await userWith(server, 'device-attributes@demo.test', []);
    const jar = new CookieJar();
    expect((await signIn(server, user.email, undefined, undefined, { jar })).tokens).toBeDefined();
    const cookie = jar.lastSet.get(deviceCookieName(user.id));
    expect(cookie).toMatchObject({ path: deviceCookiePath, httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.value.startsWith(`${user.id}.`)).toBe(true);
    expect(cookie?.secure).toBeFalsy();
  });

  it("keep the owner's browser and live token working after five failures from elsewhere", async () => {
    const { user } = await userWith(server, 'device-owner@demo.test', []);
    const owner = browser();
    const { tokens } = await owner.signIn(user.email);

    const pages = await elsewhere().wrongPasswords(user.email, 5);
    expect(pages[4]).toContain(escapeHtml(lockedMessage));
    expect((await record(user.email)).status).toBe('LockedPasswordAttempts');
    // Another browser is locked out, even with the right password.
    const stranger = await elsewhere().signIn(user.email);
    expect(stranger.tokens).toBeUndefined();
    expect(stranger.loginPage).toContain(escapeHtml(lockedMessage));

    // The owner's live token and refresh token go on; its browser signs in with the right password.
    expect((await ping(tokens!.access_token)).statusCode).toBe(200);
    expect((await refresh(server, tokens!.refresh_token)).statusCode).toBe(200);
    const again = await owner.signIn(user.email);
    expect(again.tokens).toBeDefined();
    expect((await ping(again.tokens!.access_token)).statusCode).toBe(200);
    // The lock against other browsers stays until an administrator lifts it.
    expect((await record(user.email)).status).toBe('LockedPasswordAttempts');
    expect((await elsewhere().signIn(user.email)).tokens).toBeUndefined();

    const locks = (await auditOf(user.id)).filter((entry) => entry.activity === lockActivities.passwordAttempts);
    expect(locks.map((entry) => entry.sourceAddress)).toEqual(['127.0.0.1']);
  });

  it("count the owner's own failures apart: five lock out only that browser's cookie", async () => {
    const { user } = await userWith(server, 'device-typos@demo.test', []);
    const owner = browser();
    await owner.signIn(user.email);

    const pages = await owner.wrongPasswords(user.email, 5);
    expect(pages.every((page) => page.includes(escapeHtml(wrongCredentialsMessage)))).toBe(true);
    expect(await record(user.email)).toMatchObject({ status: 'Active', failedAttempts: 0 });
    const [device] = await server.db.select().from(deviceCookieFailures).where(eq(deviceCookieFailures.userId, user.id));
    expect(device?.failedAttempts).toBe(5);
    expect(device?.lockedAt).not.toBeNull();
    expect((await auditOf(user.id)).map((entry) => [entry.activity, entry.sourceAddress])).toEqual([
      [lockActivities.deviceCookie, '127.0.0.1'],
    ]);
    // Other browsers are not affected.
    expect((await elsewhere().signIn(user.email)).tokens).toBeDefined();

    // The locked-out cookie is one more untrusted browser: its failures now count for the account.
    await owner.wrongPasswords(user.email, 5);
    expect((await record(user.email)).status).toBe('LockedPasswordAttempts');
    const refused = await owner.signIn(user.email);
    expect(refused.tokens).toBeUndefined();
    expect(refused.loginPage).toContain(escapeHtml(lockedMessage));
  });

  it('start the owner\'s own count again at its right password', async () => {
    const { user } = await userWith(server, 'device-restart@demo.test', []);
    const owner = browser();
    await owner.signIn(user.email);
    await owner.wrongPasswords(user.email, 4);
    expect((await owner.signIn(user.email)).tokens).toBeDefined();
    await owner.wrongPasswords(user.email, 4);
    const rows = await server.db.select().from(deviceCookieFailures).where(eq(deviceCookieFailures.userId, user.id));
    expect(rows.map((row) => [row.failedAttempts, row.lockedAt])).toEqual([[4, null]]);
    expect((await record(user.email)).failedAttempts).toBe(0);
  });

  it("count forged cookies and another account's cookie as untrusted", async () => {
    const { user } = await userWith(server, 'device-victim@demo.test', []);
    const { user: other } = await userWith(server, 'device-other@demo.test', []);
    const someoneElse = browser();
    await someoneElse.signIn(other.email);
    const othersValue = someoneElse.kept.get(deviceCookieName(other.id))!;
    const [, nonce, mac] = othersValue.split('.');
    const owner = browser();
    await owner.signIn(user.email);
    const [, ownNonce, ownMac] = owner.kept.get(deviceCookieName(user.id))!.split('.');

    const forgeries = [
      // Another account's cookie under this account's name, and its nonce and signature relabelled.
      othersValue,
      `${user.id}.${nonce}.${mac}`,
      // This account's nonce with another signature, and a made-up one.
      `${user.id}.${ownNonce}.${ownMac!.slice(0, -2)}AA`,
      `${user.id}.${'A'.repeat(22)}.${'B'.repeat(43)}`,
      'garbage',
    ];
    const forgedBrowser = (value: string) => {
      const jar = new CookieJar();
      jar.set(deviceCookieName(user.id), value);
      return jar;
    };
    for (const value of forgeries) await signIn(server, user.email, 'wrong', undefined, { jar: forgedBrowser(value) });
    expect((await record(user.email)).status).toBe('LockedPasswordAttempts');
    for (const value of forgeries) {
      const attempt = await signIn(server, user.email, undefined, undefined, { jar: forgedBrowser(value) });
      expect(attempt.tokens, value).toBeUndefined();
      expect(attempt.loginPage, value).toContain(escapeHtml(lockedMessage));
    }
    expect(await server.db.select().from(deviceCookieFailures).where(eq(deviceCookieFailures.userId, user.id))).toEqual([]);
    // The genuine cookie still signs in.
    expect((await owner.signIn(user.email)).tokens).toBeDefined();
  });

  it('audit the change-password lock with its address, in the transaction of the lock', async () => {
    const { user, token } = await userWith(server, 'device-change@demo.test', []);
    for (let attempt = 0; attempt < 5; attempt++) {
      await api(server, 'POST', '/identity/account/changepassword', {
        token,
        body: { oldPassword: `wrong-${attempt}`, newPassword: 'Better-Passw0rd!' },
      });
    }
    expect((await ping(token)).statusCode).toBe(401);
    const audit = await server.db
      .select()
      .from(accountAudit)
      .where(and(eq(accountAudit.userId, user.id), eq(accountAudit.activity, lockActivities.changePasswordAttempts)));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.sourceAddress).toBe('127.0.0.1');
  });

  it('let no session guess the current password past a lock against other browsers', async () => {
    const { user } = await userWith(server, 'device-borrowed@demo.test', []);
    const owner = browser();
    const { tokens } = await owner.signIn(user.email);
    await elsewhere().wrongPasswords(user.email, 5);
    expect((await ping(tokens!.access_token)).statusCode).toBe(200);
    const change = await api(server, 'POST', '/identity/account/changepassword', {
      token: tokens!.access_token,
      body: { oldPassword: 'a-guess', newPassword: 'Better-Passw0rd!' },
    });
    expect(change.json()).toMatchObject({ result: 1, message: expect.stringContaining('locked') });
    expect((await ping(tokens!.access_token)).statusCode).toBe(401);
    expect((await refresh(server, tokens!.refresh_token)).statusCode).toBe(400);
    // The owner's browser signs in again at once, and the new token works even within the second
    // of the lock (only the ended grants' tokens of that second are refused).
    const again = await owner.signIn(user.email);
    expect((await ping(again.tokens!.access_token)).statusCode).toBe(200);
  });
});
