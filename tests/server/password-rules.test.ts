import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { onPostgres } from './template.ts';
import { unannouncedGrantTrustMs } from '../../server/api/grant-liveness.ts';

/**
 * The identity server applies each password rule alone (AM §5), the same rules the form shows: a
 * new password that breaks exactly one rule is refused, naming that rule; one that meets all five
 * at the minimum length is accepted.
 */
const breaksOnlyOneRule = [
  { label: 'at least 8 characters', password: 'Ab1!xyz' },
  { label: 'at least 8 characters', password: 'Ab1!xy' },
  { label: 'one lowercase letter', password: 'AB1!WXYZ' },
  { label: 'one uppercase letter', password: 'ab1!wxyz' },
  { label: 'one number', password: 'Ab!?wxyz' },
  { label: 'one punctuation symbol', password: 'Ab12wxyz' },
];

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await accessTokenFor(server, 'staff@demo.test');
});
afterAll(() => server.close());

const changePassword = (newPassword: string) =>
  api(server, 'POST', '/identity/account/changepassword', {
    token,
    body: { oldPassword: 'Demo-Passw0rd!', newPassword },
  });

describe('POST /identity/account/changepassword, one rule at a time', () => {
  it.each(breaksOnlyOneRule)('refuses $password: it needs only "$label"', async ({ label, password }) => {
    const response = await changePassword(password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: 0, message: `The new password needs: ${label}.` });
  });

  it('accepts an 8-character password that meets every rule (and signs the session out)', async () => {
    const response = await changePassword('Ab1!wxyz');
    expect(response.json()).toMatchObject({ result: 2 });
    // PostgreSQL has no change feed: a grant seen alive is trusted for a few seconds (grant-liveness.ts).
    if (onPostgres) vi.setSystemTime(Date.now() + unannouncedGrantTrustMs);
    try {
      const after = await api(server, 'GET', '/api/account/ping', { token });
      expect(after.statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});
