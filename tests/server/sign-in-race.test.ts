import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema.ts';
import { api, signIn, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 27 point 17: an account locked or deactivated while its sign-in is under way (after the
 * password was accepted, before the identity provider resumed the authorisation) made the provider
 * answer 500 "oops! something went wrong": the session named an account that findAccount no longer
 * returned, and the consent check read the grant that was therefore never loaded.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_SIGN_IN: '10000', RATE_LIMIT_SIGN_IN_FAILURES: '10000' });
});
afterAll(() => server.close());

const setStatus = (email: string, status: string) =>
  server.db.update(users).set({ status }).where(eq(users.email, email));

describe('a sign-in whose account changes under it', () => {
  for (const status of ['Deactivated', 'LockedMFAAttempts', 'LockInactivity'] as const) {
    it(`shows the login page, not a 500, when the account becomes ${status} after the password step`, async () => {
      const email = `race-${status.toLowerCase()}@demo.test`;
      await server.db.insert(users).values({
        tenantId: 'demo',
        email,
        firstName: 'Race',
        lastName: status,
        roleName: 'Staff',
        passwordHash: (await server.db.select().from(users).where(eq(users.email, 'staff@demo.test')))[0]!.passwordHash,
        claims: [],
      });
      const result = await signIn(server, email, undefined, undefined, { afterPassword: () => setStatus(email, status) });
      expect(result.tokens).toBeUndefined();
      expect(result.loginStatus).toBe(401);
      expect(result.loginPage).toContain('name="password"');
    });
  }

  it('never answers 500 while wrong current passwords lock the account during the sign-in', async () => {
    const first = await signIn(server, 'manager@demo.test');
    const token = first.tokens!.access_token;
    const wrong = () =>
      api(server, 'POST', '/identity/account/changepassword', {
        token,
        body: { oldPassword: 'wrong', newPassword: 'Better-Passw0rd!' },
      });
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 8 }, wrong),
      signIn(server, 'manager@demo.test'),
      signIn(server, 'manager@demo.test', undefined, undefined, { afterPassword: () => Promise.all([wrong(), wrong()]) }),
    ]);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') throw outcome.reason;
      const value = outcome.value;
      const status = 'statusCode' in value ? value.statusCode : (value.loginStatus ?? 200);
      expect(status).toBeLessThan(500);
    }
  });
});
