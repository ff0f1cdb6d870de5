import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 27 point 8: an absolute-form request target (`GET http://host/api/...`) is the same request
 * as its path: the /api rules (no-store, the monitoring limit) apply to it. Sent over a real socket,
 * as inject() would rewrite the target itself.
 */
let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MONITORING: '1' });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  port = (server.app.server.address() as AddressInfo).port;
});
afterAll(() => server.close());

/** One raw HTTP/1.1 request (connection: close); the answer's status, headers and body. */
function raw(requestLine: string, headers: Record<string, string>, body = ''): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => void (answer += chunk.toString('utf8')));
    socket.on('end', () => {
      const end = answer.indexOf('\r\n\r\n');
      resolve({ status: Number(answer.slice(9, 12)), headers: answer.slice(0, end).toLowerCase(), body: answer.slice(end + 4) });
    });
    socket.on('error', reject);
    const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' }).map(([name, value]) => `${name}: ${value}`);
    socket.write(`${requestLine}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

describe('absolute-form request targets', () => {
  it('get the /api no-store header as their path does', async () => {
    const answer = await raw('GET http://localhost/api/configuration/portal HTTP/1.1', { host: 'localhost' });
    expect(answer.status).toBe(200);
    expect(answer.headers).toContain('cache-control: no-store');
  });

  it('count against the monitoring limit', async () => {
    const envelope = '{}\n{"type":"event"}\n{}';
    const post = () => raw('POST http://localhost/api/monitoring HTTP/1.1', { host: 'localhost', 'content-type': 'text/plain' }, envelope);
    expect((await post()).status).not.toBe(429);
    expect((await post()).status).toBe(429);
  });

  it('name their host in the target, as RFC 9112 says, not in the Host header', async () => {
    const answer = await raw('GET http://acme.localhost/oidc/.well-known/openid-configuration HTTP/1.1', { host: 'localhost' });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"issuer":"http://acme.localhost/oidc"');
  });
});

/**
 * Issue 38 point 8: a path with percent-encoded unreserved characters is the same path (RFC 3986
 * §6.2.2.2), and the router serves it as such: every rule that reads the path decides on it decoded.
 */
describe('percent-encoded paths', () => {
  it('get the /api no-store header as their decoded path does', async () => {
    const answer = await raw('GET /%61pi/configuration/portal HTTP/1.1', { host: 'localhost' });
    expect(answer.status).toBe(200);
    expect(answer.headers).toContain('cache-control: no-store');
  });

  it('count against the limit of their decoded path', async () => {
    const envelope = '{}\n{"type":"event"}\n{}';
    const post = (path: string) => raw(`POST ${path} HTTP/1.1`, { host: 'localhost', 'content-type': 'text/plain' }, envelope);
    await post('/api/monitoring');
    expect((await post('/api/monitoring')).status).toBe(429);
    expect((await post('/%61pi/%6Donitoring')).status).toBe(429);
  });

  it('keep an encoded slash encoded: it names no other path', async () => {
    const answer = await raw('GET /api%2Fconfiguration%2Fportal HTTP/1.1', { host: 'localhost' });
    expect(answer.status).toBe(404);
  });
});
