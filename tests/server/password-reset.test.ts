import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { api, hosts, refresh, signIn, startTestServer, userWith, type TestServer } from './harness.ts';
import { accountAudit, outbox, passwordResetTokens, userInvitations, users } from '../../server/db/schema.ts';
import { escapeHtml } from '../../server/html.ts';
import { resetLinkProblems } from '../../server/identity/password-reset-pages.ts';
import { lockedMessage } from '../../server/identity/interaction.routes.ts';
import { resetPassword } from '../../server/identity/password-reset.ts';
import { passwordsMismatchMessage } from '../../src/domain/password-policy.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const newPassword = 'Fresh-Start9!';

// Each test from an address of its own: the per-address limits are tested once, on purpose.
let testAddress = 0;
beforeEach(() => {
  testAddress += 1;
});

function form(url: string, body: Record<string, string>, host: string = hosts.demo) {
  return server.app.inject({
    method: 'POST',
    url,
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress: `10.0.0.${testAddress}`,
    payload: new URLSearchParams(body).toString(),
  });
}

const forgot = (email: string, host: string = hosts.demo) => form('/account/forgotpassword', { email }, host);
const openLink = (token: string, host: string = hosts.demo) =>
  server.app.inject({ method: 'GET', url: `/account/resetpassword?token=${encodeURIComponent(token)}`, headers: { host }, remoteAddress: `10.0.0.${testAddress}` });
const reset = (token: string, password = newPassword, confirm = password, host: string = hosts.demo) =>
  form('/account/resetpassword', { token, password, confirm }, host);

/** The link of the newest reset e-mail to `email`; the mail goes out after the answer, so this waits for it. */
const seenTokens = new Set<string>();
async function resetLinkFor(email: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [row] = await server.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email)))
      .orderBy(desc(outbox.id))
      .limit(1);
    const token = row && /token=([\w-]+)/.exec(row.body)?.[1];
    if (token && !seenTokens.has(token)) {
      seenTokens.add(token);
      return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No reset e-mail to ${email}`);
}

describe('forgot password', () => {
  it('is linked from the sign-in page and asks for the e-mail', async () => {
    const login = await signIn(server, 'nobody@demo.test', 'x');
    expect(login.loginPage).toContain('href="/account/forgotpassword">Forgot password?</a>');
    const page = await server.app.inject({ method: 'GET', url: '/account/forgotpassword', headers: { host: hosts.demo } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.headers['content-security-policy']).toContain("script-src 'nonce-");
  });

  it('answers the same, in the same time, whether or not the account exists; only a real account gets mail', async () => {
    await userWith(server, 'forgetful@demo.test', ['view.myapps']);
    const known = await forgot('forgetful@demo.test');
    const unknown = await forgot('ghost@demo.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    const body = (html: string) => html.replace(/nonce-[^']+'|nonce="[^"]+"/g, '');
    expect(body(known.body)).toBe(body(unknown.body));
    expect(known.body).toContain('If an account exists for that address, we have sent it a link');

    const token = await resetLinkFor('forgetful@demo.test');
    const stored = await server.db.select().from(passwordResetTokens);
    expect(stored.some((row) => row.tokenHash === token)).toBe(false);
    const ghostMail = await server.db.select().from(outbox).where(eq(outbox.recipient, 'ghost@demo.test'));
    expect(ghostMail).toHaveLength(0);

    // Timing: alternate the two, many times; the answer never waits for the lookup or the mail.
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let round = 0; round < 5; round++) {
      await userWith(server, `known${round}@demo.test`, ['view.myapps']);
      for (const [kind, email] of [['known', `known${round}@demo.test`], ['unknown', `ghost${round}@demo.test`]] as const) {
        const started = performance.now();
        await forgot(email);
        times[kind].push(performance.now() - started);
        // The mail goes out after the answer; let it, so it does not slow the next request down.
        if (kind === 'known') await resetLinkFor(email);
        testAddress += 1;
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(40);
  });

  it('throttles per address typed with the same message, known or not', async () => {
    for (const email of ['manager@demo.test', 'nobody-at-all@demo.test']) {
      for (let attempt = 1; attempt <= 3; attempt++) expect((await forgot(email)).statusCode).toBe(200);
      const fourth = await forgot(email);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.body).toContain('Too many password reset attempts. Please try again in');
      expect(fourth.headers['retry-after']).toBeDefined();
    }
  });

  it('throttles per network address across addresses typed', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) expect((await forgot(`someone${attempt}@demo.test`)).statusCode).toBe(200);
    expect((await forgot('someone-else@demo.test')).statusCode).toBe(429);
  });

  it('asks again for an empty address and refuses a body without one (400 naming the field)', async () => {
    const empty = await forgot('  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter the e-mail address of your account.');
    const missing = await form('/account/forgotpassword', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('email');
  });
});

/** An account that was invited and has not accepted (seeded like the Users page's invitees), its invitation revoked when asked. */
async function invitee(email: string, { revoked = false } = {}) {
  const [template] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
  const [user] = await server.db
    .insert(users)
    .values({ tenantId: 'demo', email, firstName: 'Ivy', lastName: 'Invitee', roleName: 'Admin', passwordHash: template!.passwordHash, claims: ['view.myapps', 'admin'], status: 'Invited' })
    .returning();
  await server.db.insert(userInvitations).values({
    tenantId: 'demo',
    userId: user!.id,
    tokenHash: createHash('sha256').update(`invitation of ${email}`).digest('hex'),
    expiresAt: new Date(Date.now() + 86_400_000),
    revokedAt: revoked ? new Date() : null,
  });
  return user!;
}

describe('an invited account (issue 38 point 3)', () => {
  it('gets no reset e-mail, with the same answer as an unknown address, invitation open or revoked', async () => {
    await invitee('open-invite@demo.test');
    await invitee('revoked-invite@demo.test', { revoked: true });
    await userWith(server, 'accepted@demo.test', ['view.myapps']);
    const body = (html: string) => html.replace(/nonce-[^']+'|nonce="[^"]+"/g, '');
    const unknown = await forgot('never-invited@demo.test');
    for (const email of ['open-invite@demo.test', 'revoked-invite@demo.test']) {
      const answer = await forgot(email);
      expect(answer.statusCode).toBe(200);
      expect(body(answer.body)).toBe(body(unknown.body));
    }
    // Sent after the invitees' requests: once its mail is there, theirs would be too.
    await forgot('accepted@demo.test');
    await resetLinkFor('accepted@demo.test');
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const email of ['open-invite@demo.test', 'revoked-invite@demo.test']) {
      expect(await server.db.select().from(outbox).where(eq(outbox.recipient, email))).toHaveLength(0);
      expect(await server.db.select().from(passwordResetTokens).innerJoin(users, eq(users.id, passwordResetTokens.userId)).where(eq(users.email, email))).toHaveLength(0);
    }
  });

  it('cannot use a reset link issued before: no form, no password, still Invited', async () => {
    const user = await invitee('early-link@demo.test', { revoked: true });
    const token = 'a-link-issued-while-invitees-still-got-them';
    await server.db.insert(passwordResetTokens).values({
      tokenHash: createHash('sha256').update(token).digest('hex'),
      userId: user.id,
      expiresAt: new Date(Date.now() + 10 * 60_000),
    });
    const page = await openLink(token);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain(escapeHtml(resetLinkProblems.unknown));
    const validate = await api(server, 'POST', '/api/account/validatetoken', { body: { Token: token } });
    expect(validate.json()).toEqual({ Valid: false, Reason: 'unknown' });
    const refused = await reset(token);
    expect(refused.statusCode).toBe(410);
    expect(refused.body).toContain(escapeHtml(resetLinkProblems.unknown));
    const [after] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.status).toBe('Invited');
    expect(after!.passwordHash).toBe(user.passwordHash);
    expect((await signIn(server, 'early-link@demo.test', newPassword)).tokens).toBeUndefined();
  });

  it('the check is made again in the transaction that sets the password: invited between the look and the write', async () => {
    const { user } = await userWith(server, 'turned-invitee@demo.test', ['view.myapps']);
    await forgot('turned-invitee@demo.test');
    const token = await resetLinkFor('turned-invitee@demo.test');
    const [before] = await server.db.select().from(users).where(eq(users.id, user.id));
    // resetPassword looks at the link first, then hashes the password and writes: the status
    // changes in between (as another instance's write could), just before the write's transaction.
    const racing = new Proxy(server.db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<typeof target.transaction>) => {
          await target.update(users).set({ status: 'Invited' }).where(eq(users.id, user.id));
          return target.transaction(...args);
        };
      },
    });
    expect(await resetPassword(racing, 'demo', token, newPassword)).toBe('unknown');
    const [after] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(after!.status).toBe('Invited');
  });
});

describe('reset password', () => {
  it('opening the link only shows the form; the POST sets the password, once, and signs out everywhere', async () => {
    const { user } = await userWith(server, 'resetter@demo.test', ['view.myapps']);
    const before = await signIn(server, 'resetter@demo.test');
    await forgot('resetter@demo.test');
    const token = await resetLinkFor('resetter@demo.test');

    const page = await openLink(token);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="token" value="' + token + '"');
    expect(page.body).toContain('One punctuation symbol');
    const stillValid = await api(server, 'POST', '/api/account/validatetoken', { body: { Token: token } });
    expect(stillValid.json()).toEqual({ Valid: true, Reason: 'valid' });

    const weak = await reset(token, 'weakpass');
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('The new password needs: one uppercase letter, one number, one punctuation symbol.');
    const mismatch = await reset(token, newPassword, 'Other-Pass9!');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain(escapeHtml(passwordsMismatchMessage));

    const done = await reset(token);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Your password has been changed');

    expect((await signIn(server, 'resetter@demo.test')).tokens).toBeUndefined();
    expect((await signIn(server, 'resetter@demo.test', newPassword)).tokens).toBeDefined();
    expect((await refresh(server, before.tokens!.refresh_token)).statusCode).toBe(400);

    const again = await reset(token, 'Another-Pass9!');
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain(escapeHtml(resetLinkProblems.used));
    expect(again.body).toContain('href="/account/forgotpassword">Send a new link');
    expect((await openLink(token)).body).toContain(escapeHtml(resetLinkProblems.used));

    const audit = await server.db.select().from(accountAudit).where(eq(accountAudit.userId, user.id));
    expect(audit.map((row) => row.activity)).toEqual(['Password reset link sent', 'Password reset with an e-mailed link']);
  });

  it('an expired link says so on GET and on POST, and changes nothing', async () => {
    await userWith(server, 'late@demo.test', ['view.myapps']);
    await forgot('late@demo.test');
    const token = await resetLinkFor('late@demo.test');
    await server.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const page = await openLink(token);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain(escapeHtml(resetLinkProblems.expired));
    expect((await reset(token)).body).toContain(escapeHtml(resetLinkProblems.expired));
    expect((await signIn(server, 'late@demo.test')).tokens).toBeDefined();
    const validate = await api(server, 'POST', '/api/account/validatetoken', { body: { Token: token } });
    expect(validate.json()).toEqual({ Valid: false, Reason: 'expired' });
  });

  it('clears a password lock but not an MFA lock', async () => {
    const { user } = await userWith(server, 'locked@demo.test', ['view.myapps']);
    for (let attempt = 0; attempt < 5; attempt++) await signIn(server, 'locked@demo.test', 'wrong');
    expect((await signIn(server, 'locked@demo.test')).loginPage).toContain(escapeHtml(lockedMessage));
    await forgot('locked@demo.test');
    expect((await reset(await resetLinkFor('locked@demo.test'))).statusCode).toBe(200);
    expect((await signIn(server, 'locked@demo.test', newPassword)).tokens).toBeDefined();

    await server.db.update(users).set({ status: 'LockedMFAAttempts' }).where(eq(users.id, user.id));
    await forgot('locked@demo.test');
    expect((await reset(await resetLinkFor('locked@demo.test'), 'Third-Time9!')).statusCode).toBe(200);
    const [after] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.status).toBe('LockedMFAAttempts');
  });

  it('a link of one tenant is not valid on another tenant host; unknown tokens are refused', async () => {
    await userWith(server, 'crossing@demo.test', ['view.myapps']);
    await forgot('crossing@demo.test');
    const token = await resetLinkFor('crossing@demo.test');
    expect((await openLink(token, hosts.acme)).body).toContain(escapeHtml(resetLinkProblems.unknown));
    expect((await reset(token, newPassword, newPassword, hosts.acme)).statusCode).toBe(410);
    expect((await openLink('made-up')).statusCode).toBe(410);
    expect((await openLink(token)).statusCode).toBe(200);
  });

  it('refuses bad input naming the field', async () => {
    const missing = await form('/account/resetpassword', { token: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/password/);
    const validate = await api(server, 'POST', '/api/account/validatetoken', { body: {} });
    expect(validate.statusCode).toBe(400);
    expect(validate.json().message).toContain('Token');
  });
});
