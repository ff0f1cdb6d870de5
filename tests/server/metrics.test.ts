import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';

/** Issue 40 point 5: what an operator scrapes, and that nobody else can. */
let server: TestServer;
const token = 'scrape-token-of-the-operator';
beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: token, RATE_LIMIT_MONITORING: '1' });
});
afterAll(() => server.close());

const scrape = (authorization?: string) =>
  server.app.inject({ method: 'GET', url: '/metrics', headers: { host: hosts.demo, ...(authorization ? { authorization } : {}) } });

describe('GET /metrics', () => {
  it('is refused without the token, or with another', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${token}x`)).statusCode).toBe(401);
    expect((await scrape(`Bearer ${token.slice(0, -1)}`)).statusCode).toBe(401);
    expect((await scrape(token)).statusCode).toBe(401);
  });

  it('counts requests by route pattern and status, with their latency', async () => {
    await server.app.inject({ method: 'GET', url: '/api/configuration/portal', headers: { host: hosts.demo } });
    await server.app.inject({ method: 'GET', url: '/api/configuration/portal', headers: { host: hosts.demo } });
    const admin = await accessTokenFor(server, 'admin@demo.test');
    expect((await api(server, 'GET', '/api/application/get/999999999', { token: admin })).statusCode).toBe(404);
    const answer = await scrape(`Bearer ${token}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    expect(answer.body).toContain('portal_http_requests_total{method="GET",route="/api/configuration/portal",status="200"} 2');
    // The pattern, not the id: one series per route.
    expect(answer.body).toContain('portal_http_requests_total{method="GET",route="/api/application/get/:id",status="404"} 1');
    expect(answer.body).not.toContain('999999999');
    expect(answer.body).toContain('portal_http_request_duration_seconds_bucket{le="0.15",method="GET",route="/api/configuration/portal",status="200"}');
  });

  it('shows the list engine counters and the abuse-limit refusals', async () => {
    const admin = await accessTokenFor(server, 'admin@demo.test');
    expect((await api(server, 'GET', '/api/application/list/all?PageNumber=1&PageSize=10', { token: admin })).statusCode).toBe(200);
    const envelope = '{}\n{"type":"event"}\n{}';
    const post = () => server.app.inject({ method: 'POST', url: '/api/monitoring', headers: { host: hosts.demo, 'content-type': 'text/plain' }, payload: envelope });
    await post();
    expect((await post()).statusCode).toBe(429);
    const body = (await scrape(`Bearer ${token}`)).body;
    expect(body).toMatch(/^portal_list_requests_total \d+$/m);
    expect(body).toMatch(/^portal_list_catch_ups_total \d+$/m);
    expect(body).toMatch(/^portal_list_recounts_total \d+$/m);
    expect(body).toContain('portal_rate_limit_refusals_total{route="/api/monitoring"} 1');
    expect(body).toMatch(/^portal_process_resident_memory_bytes \d+/m);
  });
});

describe('without METRICS_TOKEN', () => {
  it('there is no metrics route at all', async () => {
    const plain = await startTestServer();
    try {
      const answer = await plain.app.inject({ method: 'GET', url: '/metrics', headers: { host: hosts.demo, authorization: 'Bearer ' } });
      expect(answer.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
