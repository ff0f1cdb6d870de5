import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, hosts, startTestServer, type TestServer } from './harness.ts';
import { fastifyRoutes } from './fuzz/routes.ts';

/**
 * Issue 27 point 7: the per-account write limit holds on every write route that authenticates,
 * whichever hook the route authenticates in. The routes come from the route catalogue (as the fuzz
 * suite's do), so a route added tomorrow is checked too.
 */
let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_WRITES_PER_ACCOUNT: '1', RATE_LIMIT_WRITES_PER_ADDRESS: '100000' });
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A concrete path for a route pattern: the limit is counted before parameters are read. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

const send = (method: string, url: string, token?: string) =>
  server.app.inject({
    method: method as 'POST',
    url,
    headers: { host: hosts.demo, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

describe('the per-account write limit', () => {
  it('answers 429 on every authenticated write route once the account has spent its allowance', async () => {
    const writes = fastifyRoutes(server.app).filter((route) => !readMethods.has(route.method));
    // The allowance is one write: this one spends it (no body: 400, but counted, as authenticated).
    expect((await send('POST', '/api/comment/999999999', admin)).statusCode).toBe(400);

    const authenticated: string[] = [];
    const anonymous: string[] = [];
    const unlimited: string[] = [];
    for (const route of writes) {
      const path = concrete(route.url);
      const name = `${route.method} ${route.url}`;
      if ((await send(route.method, path)).statusCode !== 401) {
        anonymous.push(name);
        continue;
      }
      authenticated.push(name);
      const limited = await send(route.method, path, admin);
      if (limited.statusCode !== 429 || !/^\d+$/.test(String(limited.headers['retry-after']))) unlimited.push(`${name}: ${limited.statusCode}`);
    }
    expect(unlimited).toEqual([]);
    expect(authenticated.length).toBeGreaterThan(20);
    // Writes anyone may send are few and known; each has its own per-address limit (rate-limits.ts).
    // The account pages before a sign-in (reset, invitation, second step) and the link holders' pages.
    expect(anonymous.sort()).toEqual([
      'POST /account/forgotpassword',
      'POST /account/resetpassword',
      'POST /api/account/validatetoken',
      'POST /api/monitoring',
      'POST /entity-verification/sandbox/biometric/:token',
      'POST /external/application-form/:guid',
      'POST /interaction/:uid/enrolmfa',
      'POST /interaction/:uid/login',
      'POST /interaction/:uid/loginmfa',
      'POST /invitation/:token',
      'POST /invitation/:token/renew',
    ]);
  });

  it('still lets the account read', async () => {
    expect((await send('GET', '/api/account/info', admin)).statusCode).toBe(200);
  });
});
