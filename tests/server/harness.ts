import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { openDatabase, type DatabaseHandle } from '../../server/db/client.ts';
import { readConfig } from '../../server/config.ts';
import { buildApp } from '../../server/app.ts';
import { portalClientId, portalScope } from '../../server/identity/provider.ts';
import { demoPassword } from '../../server/db/seed.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema.ts';
import { databaseUrl, quoteIdentifier, templateDatabaseName, templateDumpPath, testDatabaseUrl, withAdminConnection } from './template.ts';

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

let copies = 0;

/**
 * A private copy of the seeded template database: an in-memory PGlite restored from the dump, or
 * on PostgreSQL (TEST_DATABASE_URL) a database created from the template one, dropped on close.
 */
async function openCopy(): Promise<DatabaseHandle> {
  if (!testDatabaseUrl) return openDatabase({ dump: new Blob([await readFile(templateDumpPath)]) });
  const name = `portal_test_${process.pid}_${++copies}_${randomBytes(3).toString('hex')}`;
  await withAdminConnection((query) => query(`create database ${quoteIdentifier(name)} template ${quoteIdentifier(templateDatabaseName)}`));
  // Without FORCE first: pool.end() resolves before its connections have closed, and DROP DATABASE
  // waits (up to 5 s) for them to, where FORCE would end them with an error their client reports as
  // an uncaught exception. FORCE only for a connection that something still holds.
  const drop = () =>
    withAdminConnection(async (query) => {
      try {
        await query(`drop database if exists ${quoteIdentifier(name)}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '55006') throw error;
        await query(`drop database if exists ${quoteIdentifier(name)} with (force)`);
      }
    });
  try {
    const database = await openDatabase({ url: databaseUrl(name) });
    return {
      ...database,
      close: async () => {
        await database.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** The real server in-process on a private copy of the seeded template database. */
export async function startTestServer(env: Record<string, string> = {}) {
  const database = await openCopy();
  // Documents go to a directory of this server's own, removed on close.
  const filesDir = env.FILES_DIR ?? (await mkdtemp(join(tmpdir(), 'portal-files-')));
  // An in-memory database has no files for depersonalise to scrub (depersonalise-disk.test.ts scrubs a data directory's).
  const config = readConfig({ LOG_LEVEL: 'silent', FILES_DIR: filesDir, DEPERSONALISE_SCRUB: 'off', ...env });
  const app = await buildApp({ db: database.db, config });
  await app.ready();
  return {
    app,
    db: database.db,
    filesDir,
    close: async () => {
      await app.close();
      await database.close();
      if (!env.FILES_DIR) await rm(filesDir, { recursive: true, force: true });
    },
  };
}

export const hosts = { demo: 'localhost', acme: 'acme.localhost', unknown: 'nowhere.localhost' } as const;

type SetCookie = LightMyRequestResponse['cookies'][number];

/** A browser's cookies: pass one jar to several sign-ins to be the same browser (its device cookie). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  /** Each cookie as last set, with its attributes (path, httpOnly, sameSite...). */
  readonly lastSet: Map<string, SetCookie> = new Map();
  store(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      this.lastSet.set(cookie.name, cookie);
      if (cookie.expires && cookie.expires.getTime() < Date.now()) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }
  get(name: string) {
    return this.cookies.get(name);
  }
  set(name: string, value: string) {
    this.cookies.set(name, value);
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  id_token: string;
  expires_in: number;
}

export interface SignInResult {
  tokens?: TokenSet;
  /** The login page's HTML when sign-in did not complete (wrong password, locked...). */
  loginPage?: string;
  loginStatus?: number;
  /** The browser's cookies after sign-in (the identity provider's session): what a server-rendered page sees. */
  cookie?: string;
}

/**
 * Signs in exactly as the portal does: authorization code with PKCE through the real login page,
 * then the token exchange. Nothing is forged.
 */
export async function signIn(
  server: TestServer,
  email: string,
  password = demoPassword,
  host: string = hosts.demo,
  /** `jar`: the browser (a new one by default); `afterPassword`: runs once the password step has been accepted. */
  options: { jar?: CookieJar; afterPassword?: () => Promise<unknown> } = {},
): Promise<SignInResult> {
  const { app } = server;
  const origin = `http://${host}`;
  const redirectUri = `${origin}/authentication/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const jar = options.jar ?? new CookieJar();
  const query = new URLSearchParams({
    client_id: portalClientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: portalScope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'test-state',
  });

  const go = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await app.inject({
      method,
      url,
      headers: {
        host,
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    jar.store(response);
    return response;
  };

  let response = await go('GET', `/oidc/auth?${query}`);
  for (let hop = 0; hop < 10; hop++) {
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
      const next = new URL(location, origin);
      if (next.pathname === '/authentication/callback') {
        const code = next.searchParams.get('code');
        if (!code) throw new Error(`No code in ${location}`);
        const token = await app.inject({
          method: 'POST',
          url: '/oidc/token',
          headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            code_verifier: verifier,
            redirect_uri: redirectUri,
            client_id: portalClientId,
          }).toString(),
        });
        if (token.statusCode !== 200) throw new Error(`Token exchange failed: ${token.body}`);
        return { tokens: token.json<TokenSet>(), cookie: jar.header() };
      }
      response = await go('GET', next.pathname + next.search);
      continue;
    }
    if (response.statusCode === 200 && response.body.includes('name="password"')) {
      const uid = /action="\/interaction\/([^/"]+)\/login"/.exec(response.body)?.[1];
      if (!uid) throw new Error('Login form without action');
      const login = await go('POST', `/interaction/${uid}/login`, { email, password });
      if (login.statusCode !== 303 && login.statusCode !== 302) {
        return { loginPage: login.body, loginStatus: login.statusCode };
      }
      await options.afterPassword?.();
      response = login;
      continue;
    }
    throw new Error(`Unexpected step ${response.statusCode}: ${response.body.slice(0, 300)}`);
  }
  throw new Error('Too many redirects');
}

export async function accessTokenFor(server: TestServer, email: string, host: string = hosts.demo): Promise<string> {
  const { tokens } = await signIn(server, email, demoPassword, host);
  if (!tokens) throw new Error(`Sign-in failed for ${email}`);
  return tokens.access_token;
}

/** The refresh grant, as the portal sends it; `scope` narrows the new token's scopes, as any client may. */
export function refresh(server: TestServer, refreshToken: string, host: string = hosts.demo, scope?: string) {
  return server.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: portalClientId,
      ...(scope ? { scope } : {}),
    }).toString(),
  });
}

/** A GET/POST on the API as the holder of `token` on `host`. */
export function api(server: TestServer, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; host?: string; body?: unknown } = {}) {
  return server.app.inject({
    method,
    url,
    headers: {
      host: options.host ?? hosts.demo,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
}

/**
 * A signed-in user of tenant demo with exactly these claims and the demo password (staff's hash),
 * and their access token. Tokens carry whole seconds: the record predates this second.
 */
export async function userWith(server: TestServer, email: string, claims: readonly string[]) {
  const [template] = await server.db.select().from(users).where(eq(users.email, 'staff@demo.test'));
  const [user] = await server.db
    .insert(users)
    .values({
      tenantId: 'demo',
      email,
      firstName: 'Test',
      lastName: email.split('@')[0] ?? email,
      roleName: 'Staff',
      passwordHash: template!.passwordHash,
      claims: [...claims],
      tokensValidAfter: new Date(Date.now() - 60_000),
    })
    .returning();
  return { user: user!, token: await accessTokenFor(server, email) };
}
