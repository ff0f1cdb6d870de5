// Device cookies (issue 27 point 11): what one login form submission costs, over real HTTP to a
// server process (budget ≤ 300 ms each, p50), for a browser without the account's device cookie
// (wrong passwords, then the account locked against it) and for the owner's browser with one
// (its own wrong passwords, and the right one while the account is locked against others).
// `npx tsx bench/device-cookie.bench.ts`
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { cookieBrowser } from './http-sign-in.ts';
import { startServerProcess, stopProcess, report, percentile } from './support.ts';
import { portalClientId, portalScope } from '../server/identity/provider.ts';
import { demoPassword } from '../server/db/seed.ts';

const dataDir = '.data/bench-device-cookie';
await rm(dataDir, { recursive: true, force: true });
const { child, port } = await startServerProcess({
  DATA_DIR: dataDir,
  RATE_LIMIT_SIGN_IN: '100000',
  RATE_LIMIT_SIGN_IN_FAILURES: '100000',
});
const origin = `http://localhost:${port}`;
const email = 'staff@demo.test';
const samples = Number(process.env.BENCH_DEVICE_SAMPLES ?? 20);

/** A browser: its cookies, kept across requests. */
function browser() {
  const { go, cookies } = cookieBrowser(origin);
  /** Opens the login form of a new authorisation: its form action. */
  async function loginForm(): Promise<string> {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({
      client_id: portalClientId,
      redirect_uri: `${origin}/authentication/callback`,
      response_type: 'code',
      scope: portalScope,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'bench',
    });
    let response = await go('GET', `/oidc/auth?${query}`);
    for (let hop = 0; hop < 5 && response.location; hop++) response = await go('GET', response.location);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(response.body)?.[1];
    if (!action) throw new Error(`no login form: ${response.status} ${response.body.slice(0, 200)}`);
    return action;
  }
  /** One form submission, timed. */
  async function submit(action: string, password: string) {
    const started = performance.now();
    const response = await go('POST', action, { email, password });
    return { ms: performance.now() - started, status: response.status };
  }
  /** Signed out: only the device cookies are left. */
  function forgetSession() {
    for (const name of [...cookies.keys()]) if (!name.startsWith('portal_device_')) cookies.delete(name);
  }
  return { loginForm, submit, forgetSession };
}

try {
  const owner = browser();
  const first = await owner.submit(await owner.loginForm(), demoPassword);
  if (first.status !== 303) throw new Error(`the owner's first sign-in answered ${first.status}`);

  const stranger = browser();
  const strangerForm = await stranger.loginForm();
  const strangerTimes: number[] = [];
  for (let run = 0; run < samples; run++) strangerTimes.push((await stranger.submit(strangerForm, `wrong-${run}`)).ms);

  owner.forgetSession();
  let ownerForm = await owner.loginForm();
  const ownerWrong: number[] = [];
  // Four at a time: a fifth would lock out the owner's cookie; a right password starts its count again.
  for (let run = 0; run < samples; run++) {
    ownerWrong.push((await owner.submit(ownerForm, `typo-${run}`)).ms);
    if (run % 4 === 3) {
      const right = await owner.submit(ownerForm, demoPassword);
      if (right.status !== 303) throw new Error(`the owner's right password answered ${right.status}`);
      owner.forgetSession();
      ownerForm = await owner.loginForm();
    }
  }

  const ownerRight: number[] = [];
  for (let run = 0; run < samples; run++) {
    owner.forgetSession();
    const result = await owner.submit(await owner.loginForm(), demoPassword);
    if (result.status !== 303) throw new Error(`the owner's sign-in past the lock answered ${result.status}`);
    ownerRight.push(result.ms);
  }
  const locked = await stranger.submit(strangerForm, demoPassword);
  if (locked.status !== 401) throw new Error(`a stranger's right password answered ${locked.status}, not the locked page`);

  console.log(`samples per figure: ${samples} (taken on a shared, loaded machine)`);
  report('login POST, no device cookie (wrong, then locked)', percentile(strangerTimes, 50), 300, 'ms');
  report('login POST, owner device cookie, wrong password', percentile(ownerWrong, 50), 300, 'ms');
  report('login POST, owner device cookie, right, account locked', percentile(ownerRight, 50), 300, 'ms');
  report('login POST, no device cookie (p95)', percentile(strangerTimes, 95), 300, 'ms');
  report('login POST, owner device cookie, right (p95)', percentile(ownerRight, 95), 300, 'ms');
} finally {
  await stopProcess(child);
  await rm(dataDir, { recursive: true, force: true });
}
