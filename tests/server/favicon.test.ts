import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, startTestServer, type TestServer } from './harness.ts';
import { tenantHosts, tenants } from '../../server/db/schema.ts';

/**
 * /favicon.ico on every host: the tenant's SVG logo itself, a redirect to a logo on the web, or the
 * tenant's initial on its colour; a host that is no tenant gets a neutral icon. Tenants of each kind
 * are added here under hosts of their own.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  const tenant = (id: string, name: string, logoUrl: string, primaryColor = '#123456') => ({
    id,
    name,
    logoUrl,
    primaryColor,
    secondaryColor: '#ffffff',
    supportEmail: `support@${id}.test`,
    supportPhone: '1300 000 000',
    helpUrl: '',
  });
  await server.db.insert(tenants).values([
    tenant('weblogo', 'Web Logo Pty', 'https://cdn.example.com/logo.png'),
    tenant('nologo', '  zebra & <Co>', 'http://insecure.example.com/logo.png?from=https://cdn.example.com/', '#0a0"b'),
    tenant('badlogo', 'Broken', 'data:image/svg+xml,%E0%A4%A'),
  ]);
  await server.db.insert(tenantHosts).values([
    { host: 'weblogo.localhost', tenantId: 'weblogo' },
    { host: 'nologo.localhost', tenantId: 'nologo' },
    { host: 'badlogo.localhost', tenantId: 'badlogo' },
  ]);
});
afterAll(() => server.close());

const icon = (host: string) => server.app.inject({ method: 'GET', url: '/favicon.ico', headers: { host } });

describe('the favicon', () => {
  it("sends a tenant's SVG data-URL logo as the image, cached for an hour and unable to run script", async () => {
    const response = await icon(hosts.demo);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.body).toMatch(/^<svg[\s\S]*DW[\s\S]*<\/svg>$/);
  });

  it('redirects to a logo on an https address', async () => {
    const response = await icon('weblogo.localhost');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://cdn.example.com/logo.png');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it("draws the tenant's initial on its colour for any other logo (one that only mentions https too), escaped", async () => {
    const response = await icon('nologo.localhost');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.body).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#0a0&#34;b"/>' +
        '<text x="20" y="27" font-family="sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">Z</text></svg>',
    );
  });

  it('draws the initial when the SVG data URL cannot be decoded', async () => {
    const response = await icon('badlogo.localhost');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('fill="#123456"');
    expect(response.body).toContain('>B</text>');
  });

  it('gives a host that is no tenant a neutral icon without an initial', async () => {
    const response = await icon(hosts.unknown);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('fill="#5b6b80"');
    expect(response.body).toContain('text-anchor="middle"></text>');
  });
});
