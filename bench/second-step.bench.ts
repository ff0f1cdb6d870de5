// Issue 31 budget: the second step (a TOTP code after the password) adds ≤ 300 ms of server time
// to login → shell. In-process (the server's own request handling, no network), on a fresh seeded
// in-memory database: the same sign-in with and without two-step verification, from the password
// POST to the authorisation code, code exchange included; the difference of the medians is what
// the second step adds (its page, the code check, the challenge bookkeeping).
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { buildApp } from '../server/app.ts';
import { readConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { demoPassword, seedDemo } from '../server/db/seed.ts';
import { users } from '../server/db/schema.ts';
import { portalClientId, portalScope } from '../server/identity/provider.ts';
import { percentile, report } from './support.ts';

const runs = Number(process.env.BENCH_SECOND_STEP_RUNS ?? 15);
const database = await openDatabase({ memory: true });
await seedDemo(database.db);
const app = await buildApp({ db: database.db, config: readConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_SIGN_IN: '100000', RATE_LIMIT_WRITES_PER_ADDRESS: '100000' }) });
await app.ready();

const secret = new OTPAuth.Secret({ size: 20 }).base32;
await database.db.update(users).set({ totpSecret: secret }).where(eq(users.email, 'manager@demo.test'));

/** Milliseconds of server time from the password POST to the tokens. */
async function signInTime(email: string, withCode: boolean): Promise<number> {
  const host = 'localhost';
  const verifier = randomBytes(32).toString('base64url');
  const cookies = new Map<string, string>();
  const go = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await app.inject({
      method,
      url,
      headers: { host, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
    return response;
  };
  const query = new URLSearchParams({
    client_id: portalClientId,
    redirect_uri: `http://${host}/authentication/callback`,
    response_type: 'code',
    scope: portalScope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let response = await go('GET', `/oidc/auth?${query}`);
  response = await go('GET', new URL(String(response.headers.location), `http://${host}`).pathname);
  const uid = /action="\/interaction\/([^/"]+)\/login"/.exec(response.body)?.[1];
  // A fresh step for every run: a code is accepted once.
  await database.db.update(users).set({ totpLastStep: null }).where(eq(users.email, email));
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
  const started = performance.now();
  response = await go('POST', `/interaction/${uid}/login`, { email, password: demoPassword });
  if (withCode) response = await go('POST', `/interaction/${uid}/loginmfa`, { code });
  for (let hop = 0; hop < 6 && response.headers.location; hop++) {
    const next = new URL(String(response.headers.location), `http://${host}`);
    if (next.pathname === '/authentication/callback') {
      const token = await app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code: next.searchParams.get('code') ?? '', code_verifier: verifier, redirect_uri: `http://${host}/authentication/callback`, client_id: portalClientId }).toString(),
      });
      if (token.statusCode !== 200) throw new Error(`token exchange failed: ${token.body}`);
      return performance.now() - started;
    }
    response = await go('GET', next.pathname + next.search);
  }
  throw new Error(`sign-in of ${email} did not finish: ${response.statusCode} ${response.body.slice(0, 200)}`);
}

try {
  const passwordOnly: number[] = [];
  const secondStep: number[] = [];
  for (let run = 0; run < runs; run++) {
    passwordOnly.push(await signInTime('staff@demo.test', false));
    secondStep.push(await signInTime('manager@demo.test', true));
  }
  console.log(`password only (ms): ${passwordOnly.map((ms) => ms.toFixed(0)).join(', ')}`);
  console.log(`with the second step (ms): ${secondStep.map((ms) => ms.toFixed(0)).join(', ')}`);
  report('sign-in server time, password only (median)', percentile(passwordOnly, 50), 1500, 'ms');
  report('sign-in server time, with the second step (median)', percentile(secondStep, 50), 1500, 'ms');
  report('server time the second step adds (median difference)', Math.max(0, percentile(secondStep, 50) - percentile(passwordOnly, 50)), 300, 'ms');
} finally {
  await app.close();
  await database.close();
}
