import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import * as OTPAuth from 'otpauth';
import { portalClientId, portalScope } from '../../server/identity/provider.ts';
import { demoPassword } from '../../server/db/seed.ts';
import type { TestServer, TokenSet } from './harness.ts';

/** A TOTP code of `secret` for the time step `stepsAhead` steps from now, as an authenticator app shows it. */
export const totpCode = (secret: string, stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

export interface StepsResult {
  tokens?: TokenSet;
  /** The page the sign-in stopped on and its status. */
  page?: string;
  status?: number;
  /** The browser's cookies when it stopped (a Cookie header), to go on by hand in the same interaction. */
  cookies?: string;
}

/**
 * Signs in as the portal does (code + PKCE through the real pages) and answers each identity page
 * on the way: the login form with the password, the second step with the codes given (one per
 * page), a required enrolment through `enrol(secret)`. Stops on the first page it has no answer for.
 */
export async function signInSteps(
  server: TestServer,
  options: {
    email?: string;
    password?: string;
    codes?: string[];
    enrol?: (secret: string) => string;
    host: string;
    authorize?: Record<string, string>;
    /** Where the code page's codes are sent: an attacker may post them to another step's route. */
    codeStepRoute?: 'loginmfa' | 'enrolmfa';
  },
): Promise<StepsResult> {
  const { app } = server;
  const { host } = options;
  const codes = [...(options.codes ?? [])];
  const origin = `http://${host}`;
  const redirectUri = `${origin}/authentication/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const cookies = new Map<string, string>();
  const store = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const go = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        host,
        cookie: cookieHeader(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    store(response);
    return response;
  };
  const query = new URLSearchParams({
    client_id: portalClientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: portalScope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'test-state',
    ...options.authorize,
  });
  let response = await go('GET', `/oidc/auth?${query}`);
  for (let hop = 0; hop < 20; hop++) {
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      const next = new URL(location, origin);
      if (next.pathname === '/authentication/callback') {
        const code = next.searchParams.get('code');
        if (!code) return { page: location, status: response.statusCode };
        const token = await app.inject({
          method: 'POST',
          url: '/oidc/token',
          headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: portalClientId }).toString(),
        });
        return { tokens: token.json<TokenSet>() };
      }
      response = await go('GET', next.pathname + next.search);
      continue;
    }
    const body = response.body;
    const action = (name: string) => new RegExp(`action="(/interaction/[^/"]+/${name})"`).exec(body)?.[1];
    const login = action('login');
    const loginMfa = action('loginmfa');
    const enrolMfa = action('enrolmfa');
    if (login && options.email && response.statusCode === 200) {
      response = await go('POST', login, { email: options.email, password: options.password ?? demoPassword });
      continue;
    }
    if (loginMfa && codes.length > 0) {
      response = await go('POST', loginMfa.replace(/loginmfa$/, options.codeStepRoute ?? 'loginmfa'), { code: codes.shift()! });
      continue;
    }
    if (enrolMfa && options.enrol) {
      const secret = /id="secret">([A-Z2-7]+)</.exec(body)?.[1];
      if (body.includes('id="recovery-codes"')) {
        response = await go('POST', enrolMfa, { code: '' });
        continue;
      }
      if (!secret) return { page: body, status: response.statusCode };
      response = await go('POST', enrolMfa, { code: options.enrol(secret) });
      continue;
    }
    return { page: body, status: response.statusCode, cookies: cookieHeader() };
  }
  throw new Error('Too many steps');
}
