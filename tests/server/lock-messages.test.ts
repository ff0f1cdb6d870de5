import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { accessTokenFor, api, signIn, startTestServer, type TestServer } from './harness.ts';
import { users } from '../../server/db/schema.ts';
import { escapeHtml } from '../../server/html.ts';
import { disabledMessage, lockedMessage } from '../../server/identity/interaction.routes.ts';
import { maxFailedMfaCodes, recordWrongMfaCode } from '../../server/identity/accounts.ts';
import { seededStaffDomain } from '../../server/db/users-seed.ts';

/**
 * Issue 39 point 13 and issue 38 point 13 (SUV §4): each lock says its own reason and the tenant's
 * support contacts, and an MFA lock's row has its time, as the other locks' rows do.
 */
let server: TestServer;

const support = 'You can also reach support at support@demo.test or 1300 555 010.';
const mfaReason = 'Your account is locked after too many wrong verification codes. Please contact your administrator to unlock it.';
const inactivityReason = 'Your account is locked because it was not used for 90 days. Please contact your administrator to unlock it.';

async function seededIn(status: string) {
  const [user] = await server.db
    .select()
    .from(users)
    .where(and(eq(users.status, status), like(users.email, `%@${seededStaffDomain('demo')}`)))
    .limit(1);
  return user!;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the sign-in page says which lock, with the support contacts, to whoever knows the password', () => {
  it('an inactivity lock says so (not the deactivated text)', async () => {
    const user = await seededIn('LockInactivity');
    const { loginPage, tokens } = await signIn(server, user.email);
    expect(tokens).toBeUndefined();
    expect(loginPage).toContain(escapeHtml(`${inactivityReason} ${support}`));
    expect(loginPage).not.toContain(escapeHtml(disabledMessage));
  });

  it('an account that locks for inactivity at this sign-in says so at once', async () => {
    const user = await seededIn('Active');
    const longAgo = new Date(Date.now() - 200 * 86_400_000);
    await server.db.update(users).set({ lastLoginAt: longAgo, createdAt: longAgo, statusChangedAt: null }).where(eq(users.id, user.id));
    const { loginPage } = await signIn(server, user.email);
    expect(loginPage).toContain(escapeHtml(`${inactivityReason} ${support}`));
  });

  it('an MFA lock gives its own reason (not the password lock’s)', async () => {
    const user = await seededIn('LockedMFAAttempts');
    const { loginPage } = await signIn(server, user.email);
    expect(loginPage).toContain(escapeHtml(`${mfaReason} ${support}`));
    expect(loginPage).not.toContain(escapeHtml(lockedMessage));
  });

  it('a password lock keeps its reason', async () => {
    const user = await seededIn('LockedPasswordAttempts');
    const { loginPage } = await signIn(server, user.email);
    expect(loginPage).toContain(escapeHtml(`${lockedMessage} ${support}`));
  });

  it('a wrong password learns only that the account is locked (the one text every lock and unknown name gives)', async () => {
    for (const status of ['LockedMFAAttempts', 'LockInactivity']) {
      const user = await seededIn(status);
      const { loginPage } = await signIn(server, user.email, 'Wrong-Passw0rd!');
      expect({ status, page: loginPage?.includes(escapeHtml(`${lockedMessage} ${support}`)) }).toEqual({ status, page: true });
    }
  });

  it('a deactivated account keeps the deactivated text', async () => {
    const user = await seededIn('Deactivated');
    const { loginPage } = await signIn(server, user.email);
    expect(loginPage).toContain(escapeHtml(disabledMessage));
  });
});

describe('the lock time of an MFA lock (issue 38 point 13)', () => {
  it('is recorded when the tenth wrong code locks the account, and the users list shows it', async () => {
    const user = await seededIn('Active');
    const before = Math.floor(Date.now() / 1000);
    let locked = false;
    for (let attempt = 1; attempt <= maxFailedMfaCodes; attempt++) locked = await recordWrongMfaCode(server.db, user.id);
    expect(locked).toBe(true);
    const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.status).toBe('LockedMFAAttempts');
    expect(row!.lockedAt).not.toBeNull();
    const admin = await accessTokenFor(server, 'admin@demo.test');
    const listed = (await api(server, 'GET', `/api/users/list?SearchQuery=${encodeURIComponent(user.email)}`, { token: admin })).json<{
      Users: { Email: string; LockedTimestamp: number | null }[];
    }>();
    const listedRow = listed.Users.find((entry) => entry.Email === user.email);
    expect(listedRow?.LockedTimestamp).toBeGreaterThanOrEqual(before);
    expect(listedRow?.LockedTimestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('a wrong code on an account already locked keeps the first lock time', async () => {
    const user = await seededIn('LockedMFAAttempts');
    const lockedAt = new Date('2026-01-02T03:04:05Z');
    await server.db.update(users).set({ lockedAt }).where(eq(users.id, user.id));
    await recordWrongMfaCode(server.db, user.id);
    const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.lockedAt?.toISOString()).toBe(lockedAt.toISOString());
  });
});
