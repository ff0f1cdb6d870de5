import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, refresh, signIn, startTestServer, type TestServer } from './harness.ts';
import { users } from '../../server/db/schema.ts';
import { demoPassword } from '../../server/db/seed.ts';
import { portalClientId, portalScope } from '../../server/identity/provider.ts';
import { lockedMessage, wrongCredentialsMessage } from '../../server/identity/interaction.routes.ts';
import { escapeHtml } from '../../server/html.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';

/** A login form fetched as a browser would, so that only its POST is timed or repeated. */
interface LoginForm {
  uid: string;
  cookie: string;
}

const collectCookies = (jar: Map<string, string>, response: LightMyRequestResponse) => {
  for (const cookie of response.cookies) jar.set(cookie.name, cookie.value);
};

async function openLoginForm(server: TestServer, host: string = hosts.demo): Promise<LoginForm> {
  const origin = `http://${host}`;
  const query = new URLSearchParams({
    client_id: portalClientId,
    redirect_uri: `${origin}/authentication/callback`,
    response_type: 'code',
    scope: portalScope,
    code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'abuse',
  });
  const jar = new Map<string, string>();
  let url = `/oidc/auth?${query}`;
  for (let hop = 0; hop < 5; hop++) {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await server.app.inject({ method: 'GET', url, headers: { host, cookie } });
    collectCookies(jar, response);
    const location = response.headers.location;
    if (typeof location === 'string') {
      const next = new URL(location, origin);
      url = next.pathname + next.search;
      continue;
    }
    const uid = /action="\/interaction\/([^/"]+)\/login"/.exec(response.body)?.[1];
    if (!uid) throw new Error(`No login form: ${response.statusCode} ${response.body.slice(0, 200)}`);
    return { uid, cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
  throw new Error('Too many redirects before the login form');
}

function postLogin(
  server: TestServer,
  form: LoginForm,
  email: string,
  password: string,
  address = '127.0.0.1',
  host: string = hosts.demo,
) {
  return server.app.inject({
    method: 'POST',
    url: `/interaction/${form.uid}/login`,
    remoteAddress: address,
    headers: { host, cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email, password }).toString(),
  });
}

const userNamed = async (server: TestServer, email: string) => {
  const [user] = await server.db.select().from(users).where(eq(users.email, email));
  if (!user) throw new Error(`No user ${email}`);
  return user;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe('sign-in answers do not tell whether an account exists', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_SIGN_IN: '1000', RATE_LIMIT_SIGN_IN_FAILURES: '1000' });
  });
  afterAll(() => server.close());

  it('takes as long for an unknown e-mail as for a wrong password of a real account', async () => {
    const samples = Number(process.env.ABUSE_TIMING_SAMPLES ?? 9);
    const existing: number[] = [];
    const unknown: number[] = [];
    const staff = await userNamed(server, 'staff@demo.test');
    for (let sample = 0; sample < samples; sample++) {
      for (const [email, times] of [
        ['staff@demo.test', existing],
        [`nobody-${sample}@demo.test`, unknown],
      ] as const) {
        const form = await openLoginForm(server);
        const started = performance.now();
        const response = await postLogin(server, form, email, 'not-the-password');
        times.push(performance.now() - started);
        expect(response.statusCode).toBe(401);
      }
      // Keep the real account below the lock so every sample measures a password check.
      await server.db
        .update(users)
        .set({ failedAttempts: 0, status: staff.status })
        .where(eq(users.id, staff.id));
    }
    if (process.env.ABUSE_TIMING_SAMPLES)
      console.log(
        `wrong password, median of ${samples}: existing ${median(existing).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`,
      );
    expect(median(unknown)).toBeGreaterThan(median(existing) * 0.5);
  });

  it('shows an unknown e-mail as locked after five failures, as it would a real account', async () => {
    const form = await openLoginForm(server);
    const pages: string[] = [];
    for (let attempt = 1; attempt <= 6; attempt++)
      pages.push((await postLogin(server, form, 'ghost@demo.test', `wrong-${attempt}`)).body);
    for (const page of pages.slice(0, 4)) expect(page).toContain(escapeHtml(wrongCredentialsMessage));
    expect(pages[4]).toContain(escapeHtml(lockedMessage));
    expect(pages[5]).toContain(escapeHtml(lockedMessage));
    // What to do about it: the tenant's support contacts, as a real account's lock says.
    expect(pages[5]).toContain('You can also reach support at support@demo.test or ');
  });

  it('still shows an unknown e-mail as locked after a restart, as a real account stays locked', async () => {
    const form = await openLoginForm(server);
    for (let attempt = 1; attempt <= 5; attempt++) await postLogin(server, form, 'revenant@demo.test', `wrong-${attempt}`);
    // A new server process on the same database (what a restart is), with nothing in memory.
    const restarted = await buildApp({ db: server.db, config: readConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_SIGN_IN_FAILURES: '1000' }) });
    try {
      const again = { ...server, app: restarted };
      const page = await postLogin(again, await openLoginForm(again), 'revenant@demo.test', 'wrong-6');
      expect(page.body).toContain(escapeHtml(lockedMessage));
    } finally {
      await restarted.close();
    }
  });
});

describe('failed sign-ins are throttled per address before they lock an account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_SIGN_IN_FAILURES: '3',
      RATE_LIMIT_SIGN_IN_FAILURE_WINDOW: '600',
    });
  });
  afterAll(() => server.close());

  it('answers 429 to an address past its failures, without counting them against the account', async () => {
    const attacker = '203.0.113.7';
    const form = await openLoginForm(server);
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let attempt = 1; attempt <= 30; attempt++) {
      last = await postLogin(server, form, 'staff@demo.test', `guess-${attempt}`, attacker);
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.body).toContain('Too many failed sign-in attempts');

    // Throttled guesses never reached the account: it is neither locked nor further counted.
    const staff = await userNamed(server, 'staff@demo.test');
    expect(staff.status).not.toMatch(/^Locked/);
    expect(staff.failedAttempts).toBe(3);

    // Even the right password waits on that address; the owner elsewhere signs in.
    expect(
      (await postLogin(server, await openLoginForm(server), 'staff@demo.test', demoPassword, attacker))
        .statusCode,
    ).toBe(429);
    expect([302, 303]).toContain(
      (await postLogin(server, await openLoginForm(server), 'staff@demo.test', demoPassword, '198.51.100.20'))
        .statusCode,
    );
  });
});

describe('request limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      RATE_LIMIT_SIGN_IN: '3',
      RATE_LIMIT_TOKEN: '3',
      RATE_LIMIT_MONITORING: '2',
      RATE_LIMIT_WRITES_PER_ADDRESS: '4',
      RATE_LIMIT_WRITES_PER_ACCOUNT: '3',
    });
  });
  afterAll(() => server.close());

  const expectTooMany = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.json()).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/try again/i),
    });
  };

  it('limits sign-in posts per address', async () => {
    const form = await openLoginForm(server);
    const address = '192.0.2.1';
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await postLogin(server, form, 'nobody@demo.test', 'x', address)).statusCode).toBe(401);
    expectTooMany(await postLogin(server, form, 'nobody@demo.test', 'x', address));
    expect((await postLogin(server, form, 'nobody@demo.test', 'x', '192.0.2.2')).statusCode).toBe(401);
  });

  it('limits the token endpoints per address, before oidc-provider answers', async () => {
    const post = (url: string) =>
      server.app.inject({
        method: 'POST',
        url,
        remoteAddress: '192.0.2.3',
        headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'forged',
          client_id: portalClientId,
        }).toString(),
      });
    for (let attempt = 0; attempt < 2; attempt++) expect((await post('/oidc/token')).statusCode).toBe(400);
    expect((await post('/oidc/token/revocation')).statusCode).not.toBe(429);
    expectTooMany(await post('/oidc/token'));
    expectTooMany(await post('/oidc/token/revocation'));
  });

  it('limits writes per address, signed in or not', async () => {
    const post = () =>
      server.app.inject({
        method: 'POST',
        url: '/identity/account/changepassword',
        remoteAddress: '192.0.2.4',
        headers: { host: hosts.demo },
        payload: {},
      });
    for (let attempt = 0; attempt < 4; attempt++) expect((await post()).statusCode).toBe(401);
    expectTooMany(await post());
  });

  it('limits writes per account, whatever the address', async () => {
    const token = await accessTokenFor(server, 'admin@demo.test');
    const post = (address: string) =>
      server.app.inject({
        method: 'POST',
        url: '/identity/account/changepassword',
        remoteAddress: address,
        headers: { host: hosts.demo, authorization: `Bearer ${token}` },
        payload: { oldPassword: demoPassword, newPassword: 'weak' },
      });
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await post(`198.18.0.${attempt}`)).statusCode).toBe(200);
    expectTooMany(await post('198.18.0.9'));
    // Reads are not writes.
    expect((await api(server, 'GET', '/api/account/ping', { token })).statusCode).toBe(200);
  });

  it('limits the monitoring tunnel per address', async () => {
    const send = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/monitoring',
        remoteAddress: '192.0.2.5',
        headers: { host: hosts.demo, 'content-type': 'text/plain' },
        payload: envelope('x'),
      });
    for (let attempt = 0; attempt < 2; attempt++) expect((await send()).statusCode).toBe(200);
    expectTooMany(await send());
  });
});

const envelope = (message: string) =>
  `${JSON.stringify({ dsn: 'https://public@monitoring.invalid/1' })}\n{"type":"event"}\n${JSON.stringify({ message })}`;

describe('change password', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('locks the account after five wrong current passwords and ends its sessions', async () => {
    const { tokens } = await signIn(server, 'staff@demo.test');
    const change = (oldPassword: string) =>
      api(server, 'POST', '/identity/account/changepassword', {
        token: tokens!.access_token,
        body: { oldPassword, newPassword: 'Better-Passw0rd!' },
      });
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await change(`wrong-${attempt}`)).json()).toMatchObject({
        result: 1,
        message: 'The current password is incorrect.',
      });
    }
    expect((await change('wrong-5')).json()).toMatchObject({
      result: 1,
      message: expect.stringContaining('locked'),
    });
    expect((await userNamed(server, 'staff@demo.test')).status).toBe('LockedPasswordAttempts');
    expect((await api(server, 'GET', '/api/account/ping', { token: tokens!.access_token })).statusCode).toBe(
      401,
    );
    expect((await refresh(server, tokens!.refresh_token)).statusCode).toBe(400);
    expect((await signIn(server, 'staff@demo.test')).loginPage).toContain(escapeHtml(lockedMessage));
  });

  it('starts the count again after a right current password', async () => {
    const token = await accessTokenFor(server, 'manager@demo.test');
    const change = (oldPassword: string, newPassword = 'Better-Passw0rd!') =>
      api(server, 'POST', '/identity/account/changepassword', { token, body: { oldPassword, newPassword } });
    for (let attempt = 1; attempt <= 4; attempt++) await change(`wrong-${attempt}`);
    expect((await change(demoPassword, 'weak')).json().result).toBe(0);
    expect((await change('wrong-5')).json().message).toBe('The current password is incorrect.');
    expect((await userNamed(server, 'manager@demo.test')).failedAttempts).toBe(1);
  });
});
