import { createHash, randomBytes } from 'node:crypto';
import { portalClientId, portalScope } from '../server/identity/provider.ts';
import { demoPassword } from '../server/db/seed.ts';

/** How a bench reaches the server: fetch, or one that picks an instance behind one host name. */
export type Transport = (url: URL, init: RequestInit) => Promise<Response>;

/**
 * A browser for HTTP benches: keeps the cookies servers set (dropping expired ones) and sends them
 * back; redirects are not followed, so a caller sees each hop.
 */
export function cookieBrowser(origin: string, transport: Transport = fetch) {
  const cookies = new Map<string, string>();
  const go = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await transport(new URL(url, origin), {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /expires=Thu, 01 Jan 1970/i.test(cookie) || /max-age=0\b/i.test(cookie);
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: await response.text(),
    };
  };
  return { go, cookies };
}

/**
 * Signs in over real HTTP against a server in another process, exactly as the portal does:
 * authorization code with PKCE through the real login page, then the token exchange (the same
 * steps as tests/server/harness.ts's signIn, which drives an in-process app instead).
 * `origin` is the tenant's address, e.g. http://127.0.0.1:8080 (the demo tenant).
 */
export async function signInOverHttp(
  origin: string,
  email: string,
  password = demoPassword,
  transport: Transport = fetch,
): Promise<string> {
  const redirectUri = `${origin}/authentication/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: portalClientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: portalScope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'soak',
  });

  const { go } = cookieBrowser(origin, transport);

  let response = await go('GET', `/oidc/auth?${query}`);
  for (let hop = 0; hop < 10; hop++) {
    if (response.status >= 300 && response.status < 400 && response.location) {
      const next = new URL(response.location, origin);
      if (next.pathname === '/authentication/callback') {
        const code = next.searchParams.get('code');
        if (!code) throw new Error(`sign-in of ${email}: no code in ${response.location}`);
        const token = await transport(new URL('/oidc/token', origin), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            code_verifier: verifier,
            redirect_uri: redirectUri,
            client_id: portalClientId,
          }),
        });
        if (token.status !== 200)
          throw new Error(
            `sign-in of ${email}: token exchange answered ${token.status}: ${(await token.text()).slice(0, 200)}`,
          );
        const { access_token: accessToken } = (await token.json()) as { access_token: string };
        return accessToken;
      }
      response = await go('GET', next.pathname + next.search);
      continue;
    }
    if (response.status === 200 && response.body.includes('name="password"')) {
      const uid = /action="\/interaction\/([^/"]+)\/login"/.exec(response.body)?.[1];
      if (!uid) throw new Error(`sign-in of ${email}: login form without action`);
      const login = await go('POST', `/interaction/${uid}/login`, { email, password });
      if (login.status !== 303 && login.status !== 302)
        throw new Error(`sign-in of ${email}: login answered ${login.status}`);
      response = login;
      continue;
    }
    throw new Error(
      `sign-in of ${email}: unexpected step ${response.status}: ${response.body.slice(0, 200)}`,
    );
  }
  throw new Error(`sign-in of ${email}: too many redirects`);
}
