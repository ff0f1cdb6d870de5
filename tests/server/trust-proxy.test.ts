import { afterAll, describe, expect, it } from 'vitest';
import { hosts, startTestServer, type TestServer } from './harness.ts';
import { parseTrustProxy } from '../../server/trust-proxy.ts';
import { readConfig } from '../../server/config.ts';

/**
 * Issue 27 point 6: X-Forwarded-* is believed only from the proxies TRUST_PROXY names. By default
 * a client sending a new X-Forwarded-For per request is still one address to every limit.
 */
describe('TRUST_PROXY', () => {
  it('is off when empty or false, a hop count when a number, an address list otherwise', () => {
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    const hops = parseTrustProxy('2');
    if (typeof hops !== 'function') throw new Error('a hop count is a trust function');
    expect([hops('198.51.100.1', 0), hops('198.51.100.1', 1), hops('198.51.100.1', 2)]).toEqual([true, true, false]);
    const list = parseTrustProxy('10.0.0.1, 192.168.0.0/16, loopback');
    if (typeof list !== 'function') throw new Error('an address list is a trust function');
    expect(['10.0.0.1', '::ffff:10.0.0.1', '192.168.4.5', '127.0.0.1', '::1'].map((address) => list(address, 0))).toEqual([true, true, true, true, true]);
    expect(['10.0.0.2', '203.0.113.9', 'nonsense'].map((address) => list(address, 0))).toEqual([false, false, false]);
  });

  it('refuses true and what is not an address, at start-up', () => {
    expect(() => readConfig({ TRUST_PROXY: 'true' })).toThrow(/from anyone[\s\S]*TRUST_PROXY/);
    expect(() => readConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/proxy\.internal is not an address[\s\S]*TRUST_PROXY/);
    expect(() => readConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });
});

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serverWith(trustProxy: string) {
  const server = await startTestServer({ RATE_LIMIT_WRITES_PER_ADDRESS: '2', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) });
  servers.push(server);
  /** An anonymous write (401) from `peer`, claiming to forward for `forwardedFor`. */
  return (peer: string, forwardedFor: string) =>
    server.app.inject({
      method: 'POST',
      url: '/identity/account/changepassword',
      remoteAddress: peer,
      headers: { host: hosts.demo, 'x-forwarded-for': forwardedFor },
      payload: {},
    });
}

describe('the address a limit counts', () => {
  it('by default is the peer: a new X-Forwarded-For per request does not escape the limit', async () => {
    const post = await serverWith('');
    const statuses = [];
    for (let n = 1; n <= 3; n++) statuses.push((await post('192.0.2.50', `203.0.113.${n}`)).statusCode);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('behind a configured proxy is the client it names, and only the configured proxy is believed', async () => {
    const post = await serverWith('10.0.0.1');
    // Through the proxy: each client has its own allowance.
    for (let n = 1; n <= 3; n++) expect((await post('10.0.0.1', `203.0.113.${n}`)).statusCode).toBe(401);
    // Straight from a client that is no proxy: its header is ignored.
    const direct = [];
    for (let n = 1; n <= 3; n++) direct.push((await post('192.0.2.60', `203.0.113.${n + 10}`)).statusCode);
    expect(direct).toEqual([401, 401, 429]);
  });

  it('with a hop count takes the address that many hops out', async () => {
    const post = await serverWith('1');
    // A client's own X-Forwarded-For entry comes before the proxy's: only the proxy's is believed.
    const spoofed = [];
    for (let n = 1; n <= 3; n++) spoofed.push((await post('10.0.0.9', `198.51.100.${n}, 203.0.113.77`)).statusCode);
    expect(spoofed).toEqual([401, 401, 429]);
    expect((await post('10.0.0.9', '203.0.113.78')).statusCode).toBe(401);
  });
});

describe('X-Forwarded-Host', () => {
  it('is ignored from a client, and names the tenant behind a trusted proxy', async () => {
    await serverWith('');
    const direct = servers.at(-1)!;
    const forged = await direct.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      headers: { host: hosts.demo, 'x-forwarded-host': hosts.acme },
    });
    expect(forged.json()).toMatchObject({ issuer: `http://${hosts.demo}/oidc` });

    await serverWith('loopback');
    const proxied = await servers.at(-1)!.app.inject({
      method: 'GET',
      url: '/oidc/.well-known/openid-configuration',
      remoteAddress: '127.0.0.1',
      headers: { host: 'internal:8080', 'x-forwarded-host': hosts.acme, 'x-forwarded-proto': 'https' },
    });
    expect(proxied.json()).toMatchObject({ issuer: `https://${hosts.acme}/oidc` });

    // What a trusted proxy forwards is held to the Host rules: a bad value is a 400, not an issuer.
    const bad = (headers: Record<string, string>) =>
      servers.at(-1)!.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', remoteAddress: '127.0.0.1', headers: { host: hosts.demo, ...headers } });
    expect((await bad({ 'x-forwarded-proto': 'javascript' })).statusCode).toBe(400);
    for (const forwarded of ['localhost:-1', 'local host', '[::1', "localhost' OR 1=1 --"]) {
      expect((await bad({ 'x-forwarded-host': forwarded })).statusCode, forwarded).toBe(400);
    }
  });
});
