import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { accessTokenFor, api, hosts, signIn, startTestServer, userWith, type TestServer } from './harness.ts';
import { signInSteps, totpCode } from './sign-in-steps.ts';
import { accountAudit, outbox, tenantHosts, tenants, users } from '../../server/db/schema.ts';
import { seedTenants } from '../../server/db/seed.ts';
import { escapeHtml } from '../../server/html.ts';
import { lockActivities } from '../../server/identity/lock-audit.ts';
import { lockedMfaMessage, tooManyWrongCodesMessage, wrongCodeMessage } from '../../server/identity/mfa-pages.ts';
import { wrongEnrolmentCodeMessage } from '../../server/api/mfa.routes.ts';

let server: TestServer;
/** A tenant that requires a second step of its Admin Staff (Full Access) and guards the admin claim with it. */
const strictHost = 'strict.localhost';
beforeAll(async () => {
  // Every test here signs in several times from one address: the per-address form limit is abuse-limits.test.ts's subject.
  server = await startTestServer({ RATE_LIMIT_SIGN_IN: '1000' });
  const demo = seedTenants[0]!;
  await server.db.insert(tenants).values({
    ...demo,
    id: 'strict',
    name: 'Strict Co',
    settings: { ...demo.settings, TwoStepVerificationRoles: ['Admin Staff (Full Access)'], ClaimsRequiringSecondFactor: ['admin'] },
  });
  await server.db.insert(tenantHosts).values({ host: strictHost, tenantId: 'strict' });
});
afterAll(() => server.close());

/** Sets up two-step verification through the API as the account menu does; answers the secret and recovery codes. */
async function enrol(email: string) {
  const { user, token } = await userWith(server, email, ['view.myapps']);
  const started = await api(server, 'POST', '/api/account/initiatemfa', { token });
  expect(started.statusCode).toBe(200);
  const { Secret, OtpAuthUri, Replacing } = started.json<{ Secret: string; OtpAuthUri: string; Replacing: boolean }>();
  expect(Replacing).toBe(false);
  expect(OtpAuthUri).toMatch(/^otpauth:\/\/totp\/Demo%20Wealth:.*secret=/);
  const wrong = await api(server, 'POST', '/api/account/confirmmfa', { token, body: { Code: totpCode(Secret, 10) } });
  expect(wrong.json()).toEqual({ Success: false, Message: wrongEnrolmentCodeMessage, RecoveryCodes: [] });
  const confirmCode = totpCode(Secret);
  const confirmed = await api(server, 'POST', '/api/account/confirmmfa', { token, body: { Code: confirmCode } });
  const { RecoveryCodes } = confirmed.json<{ RecoveryCodes: string[] }>();
  expect(RecoveryCodes).toHaveLength(10);
  expect(new Set(RecoveryCodes).size).toBe(10);
  return { user, token, secret: Secret, recoveryCodes: RecoveryCodes, confirmCode };
}

const freshSteps = (userId: string) => server.db.update(users).set({ totpLastStep: null }).where(eq(users.id, userId));

describe('enrolment from the account menu', () => {
  it('is on once confirmed by one code, and the recovery codes are stored hashed', async () => {
    const { user, token, recoveryCodes } = await enrol('enrolled@demo.test');
    const status = await api(server, 'GET', '/api/account/mfa', { token });
    expect(status.json()).toEqual({ Enabled: true, Required: false });
    const stored = JSON.stringify(await server.db.select().from(users).where(eq(users.id, user.id)));
    for (const code of recoveryCodes) expect(stored).not.toContain(code);
    const audit = await server.db.select().from(accountAudit).where(eq(accountAudit.userId, user.id));
    expect(audit.map((row) => row.activity)).toEqual(['Two-step verification set up']);
  });

  it('refuses bad input, no token, and replacing a second factor from a password-only sign-in', async () => {
    const { token } = await enrol('replacing@demo.test');
    expect((await api(server, 'POST', '/api/account/initiatemfa')).statusCode).toBe(401);
    expect((await api(server, 'GET', '/api/account/mfa')).statusCode).toBe(401);
    const bad = await api(server, 'POST', '/api/account/confirmmfa', { token, body: { Code: '12ab' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Code');
    const again = await api(server, 'POST', '/api/account/initiatemfa', { token });
    expect(again.statusCode).toBe(403);
  });
});

describe('setting up again with two-step verification on', () => {
  it('says that the new key replaces the current one (issue 39 point 16)', async () => {
    const { user, secret } = await enrol('again@demo.test');
    await freshSteps(user.id);
    const { tokens } = await signInSteps(server, { host: hosts.demo, email: user.email, codes: [totpCode(secret)] });
    const started = await api(server, 'POST', '/api/account/initiatemfa', { token: tokens!.access_token });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ Replacing: true });
  });
});

describe('the second step at sign-in', () => {
  it('asks for a code after the password and finishes only with it; the tokens carry amr and acr', async () => {
    const { user, secret, confirmCode } = await enrol('second@demo.test');
    const passwordOnly = await signIn(server, 'second@demo.test');
    expect(passwordOnly.tokens).toBeUndefined();
    expect(passwordOnly.loginPage).toContain('<label for="code">Verification code</label>');
    expect(passwordOnly.loginStatus).toBe(200);

    // The enrolment's own code cannot be replayed to sign in.
    const replayed = await signInSteps(server, { host: hosts.demo, email: 'second@demo.test', codes: [confirmCode] });
    expect(replayed.tokens).toBeUndefined();
    expect(replayed.page).toContain(escapeHtml(wrongCodeMessage));

    await freshSteps(user.id);
    const code = totpCode(secret);
    const { tokens } = await signInSteps(server, { host: hosts.demo, email: 'second@demo.test', codes: [code] });
    expect(decodeJwt(tokens!.access_token)).toMatchObject({ amr: ['pwd', 'otp'], acr: 'urn:portal:loa:2' });
    expect(decodeJwt(tokens!.id_token)).toMatchObject({ amr: ['pwd', 'otp'], acr: 'urn:portal:loa:2' });

    // The same code again (the same time step) is refused: a code is accepted once.
    const again = await signInSteps(server, { host: hosts.demo, email: 'second@demo.test', codes: [code] });
    expect(again.tokens).toBeUndefined();
  });

  it('a password-only account gets amr pwd', async () => {
    const { tokens } = await signIn(server, 'staff@demo.test');
    expect(decodeJwt(tokens!.access_token)).toMatchObject({ amr: ['pwd'], acr: 'urn:portal:loa:1' });
  });

  it('a recovery code signs in once, and its use is e-mailed to the person', async () => {
    const { user, recoveryCodes } = await enrol('recovery@demo.test');
    const code = recoveryCodes[3]!;
    const first = await signInSteps(server, { host: hosts.demo, email: 'recovery@demo.test', codes: [code.toLowerCase()] });
    expect(decodeJwt(first.tokens!.access_token).amr).toEqual(['pwd', 'otp']);
    const second = await signInSteps(server, { host: hosts.demo, email: 'recovery@demo.test', codes: [code] });
    expect(second.tokens).toBeUndefined();
    const mail = await server.db.select().from(outbox).where(eq(outbox.userId, user.id));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain('A recovery code was just used to sign in to your Demo Wealth account. You have 9 recovery codes left.');
  });

  it('five wrong codes end the attempt; they count apart from wrong passwords', async () => {
    const { user, secret } = await enrol('fumbler@demo.test');
    const wrong = Array.from({ length: 5 }, (_, i) => totpCode(secret, 20 + i));
    const result = await signInSteps(server, { host: hosts.demo, email: 'fumbler@demo.test', codes: wrong });
    expect(result.page).toContain(escapeHtml(tooManyWrongCodesMessage));
    expect(result.page).toContain('name="password"');
    const [after] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ status: 'Active', failedAttempts: 0, mfaFailedAttempts: 5 });
    await freshSteps(user.id);
    expect((await signInSteps(server, { host: hosts.demo, email: 'fumbler@demo.test', codes: [totpCode(secret)] })).tokens).toBeDefined();
  });

  it('ten wrong codes within 15 minutes lock the account (LockedMFAAttempts) until an administrator unlocks it', async () => {
    const { user, secret } = await enrol('guesser@demo.test');
    const wrong = () => Array.from({ length: 5 }, (_, i) => totpCode(secret, 20 + i));
    await signInSteps(server, { host: hosts.demo, email: 'guesser@demo.test', codes: wrong() });
    const locking = await signInSteps(server, { host: hosts.demo, email: 'guesser@demo.test', codes: wrong() });
    expect(locking.page).toContain(escapeHtml(lockedMfaMessage));
    // The lock says who can help besides the administrator (SUV §4, issue 39 point 13).
    expect(locking.page).toContain(escapeHtml('You can also reach support at support@demo.test or'));
    const [locked] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(locked!.status).toBe('LockedMFAAttempts');
    // Every lock is audited, with the address it came from (issue 27 point 11).
    const audit = await server.db.select().from(accountAudit).where(eq(accountAudit.userId, user.id));
    expect(audit.filter((entry) => entry.activity === lockActivities.mfaAttempts).map((entry) => entry.sourceAddress)).toEqual(['127.0.0.1']);
    const refused = await signInSteps(server, { host: hosts.demo, email: 'guesser@demo.test', codes: [totpCode(secret)] });
    expect(refused.tokens).toBeUndefined();

    // The administrator's Unlock on the Users page (SUV §4) clears the MFA lock and both counters.
    const unlock = async () =>
      (await api(server, 'POST', '/api/users/unlockuser', { token: await accessTokenFor(server, 'admin@demo.test'), body: { GlobalUserId: user.id } })).statusCode;
    expect(await unlock()).toBe(200);
    const [unlocked] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(unlocked).toMatchObject({ status: 'Active', mfaFailedAttempts: 0, failedAttempts: 0 });
    expect(await unlock()).toBe(409);
    await freshSteps(user.id);
    expect((await signInSteps(server, { host: hosts.demo, email: 'guesser@demo.test', codes: [totpCode(secret)] })).tokens).toBeDefined();
  });

  it('wrong codes of an earlier window do not count towards the lock', async () => {
    const { user, secret } = await enrol('slow@demo.test');
    await signInSteps(server, { host: hosts.demo, email: 'slow@demo.test', codes: Array.from({ length: 5 }, (_, i) => totpCode(secret, 20 + i)) });
    await server.db.update(users).set({ mfaFailuresSince: new Date(Date.now() - 16 * 60_000) }).where(eq(users.id, user.id));
    const later = await signInSteps(server, { host: hosts.demo, email: 'slow@demo.test', codes: Array.from({ length: 5 }, (_, i) => totpCode(secret, 20 + i)) });
    expect(later.page).toContain(escapeHtml(tooManyWrongCodesMessage));
    const [after] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ status: 'Active', mfaFailedAttempts: 5 });
  });

  it('an account with a second factor cannot enrol a new one at sign-in: the password alone gets no further (issue 38 point 1)', async () => {
    const { user, secret } = await enrol('hijacked@demo.test');
    await freshSteps(user.id);
    let shownSecret: string | undefined;
    const attack = await signInSteps(server, {
      host: hosts.demo,
      email: user.email,
      codes: ['000000'],
      codeStepRoute: 'enrolmfa',
      enrol: (shown) => {
        shownSecret = shown;
        return totpCode(shown);
      },
    });
    expect(attack.tokens).toBeUndefined();
    expect(shownSecret).toBeUndefined();
    expect(attack.status).toBe(403);
    const [after] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ totpSecret: secret, totpPendingSecret: null });
    // The owner's authenticator still signs in.
    const owner = await signInSteps(server, { host: hosts.demo, email: user.email, codes: [totpCode(secret)] });
    expect(decodeJwt(owner.tokens!.access_token).amr).toEqual(['pwd', 'otp']);
  });

  it('a required enrolment answers only on its own route: a code posted to loginmfa does not finish it', async () => {
    const [template] = await server.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    await server.db.insert(users).values({ ...template!, id: undefined, tenantId: 'strict', email: 'enrolling@strict.test', createdAt: undefined });
    // The enrolment page shows no code form, so the loginmfa route is called by hand in the same interaction.
    const shown = await signInSteps(server, { host: strictHost, email: 'enrolling@strict.test' });
    expect(shown.page).toContain('id="secret"');
    const uid = /action="\/interaction\/([^/"]+)\/enrolmfa"/.exec(shown.page ?? '')?.[1];
    expect(uid).toBeDefined();
    const cookie = shown.cookies ?? '';
    const secret = /id="secret">([A-Z2-7]+)</.exec(shown.page ?? '')![1]!;
    const wrongRoute = await server.app.inject({
      method: 'POST',
      url: `/interaction/${uid}/loginmfa`,
      headers: { host: strictHost, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `code=${totpCode(secret)}`,
    });
    expect(wrongRoute.statusCode).toBe(403);
    const [still] = await server.db.select().from(users).where(eq(users.email, 'enrolling@strict.test'));
    expect(still!.totpSecret).toBeNull();
  });

  it('a code without a password step is refused (no challenge for the interaction)', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/interaction/unknown/loginmfa',
      headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'code=123456',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe('a tenant that requires a second step', () => {
  it('walks the person through enrolment at sign-in, then guards its claims with the second factor', async () => {
    const [template] = await server.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    await server.db.insert(users).values({ ...template!, id: undefined, tenantId: 'strict', email: 'boss@strict.test', createdAt: undefined });
    let secret = '';
    const enrolled = await signInSteps(server, {
      host: strictHost,
      email: 'boss@strict.test',
      enrol: (shown) => {
        secret = shown;
        return totpCode(shown);
      },
    });
    expect(decodeJwt(enrolled.tokens!.access_token).amr).toEqual(['pwd', 'otp']);
    const token = enrolled.tokens!.access_token;
    const admin = await api(server, 'GET', '/api/admin/columns', { token, host: strictHost });
    expect(admin.statusCode).toBe(200);
    expect((await api(server, 'GET', '/api/account/mfa', { token, host: strictHost })).json()).toEqual({ Enabled: true, Required: true });
    const [boss] = await server.db.select().from(users).where(eq(users.email, 'boss@strict.test'));
    expect(boss!.totpSecret).toBe(secret);
  });

  it('a password-only token is refused for a claim the tenant guards', async () => {
    const [template] = await server.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    await server.db.insert(users).values({ ...template!, id: undefined, tenantId: 'strict', email: 'deputy@strict.test', roleName: 'Deputy', createdAt: undefined });
    const { tokens } = await signIn(server, 'deputy@strict.test', undefined, strictHost);
    const refused = await api(server, 'GET', '/api/admin/columns', { token: tokens!.access_token, host: strictHost });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Requires two-step verification for the admin claim.');
  });
});
