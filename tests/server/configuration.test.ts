import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { tenants } from '../../server/db/schema.ts';
import { applicationStatuses } from '../../src/domain/application-status.ts';

/**
 * server/api/configuration.routes.ts, every route with every field: the runtime configuration and
 * branding the portal reads before sign-in, tenant validation, and the per-tenant settings behind
 * system information and the custom configuration. Demo's settings are changed here (before the
 * first request, so the tenant cache holds them); acme's are emptied to show the defaults.
 * /favicon.ico has favicon.test.ts.
 */
const demoSettings = {
  MaximumLabelLimit: 7,
  AcceptedDocumentUploadExtensions: ['pdf', 'odt'],
  ShowDocumentListBeforeCompletion: true,
  ShowEVSummaryResult: true,
  AustralianMobileNumberOnly: false,
  DisplayUserInviteAlert: true,
  UserInviteAlertText: 'Invites expire after 7 days.',
  EditPermissionsDisclaimerText: 'Changes apply at next sign-in.',
  NewUserAppAccessToggleDefaultON: true,
};

let server: TestServer;
let demoToken: string;
let acmeToken: string;
beforeAll(async () => {
  server = await startTestServer();
  await server.db.update(tenants).set({ settings: demoSettings }).where(eq(tenants.id, 'demo'));
  await server.db.update(tenants).set({ settings: {} }).where(eq(tenants.id, 'acme'));
  demoToken = await accessTokenFor(server, 'readonly@demo.test');
  acmeToken = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
});
afterAll(() => server.close());

const get = (url: string, options: { token?: string; host?: string } = {}) => api(server, 'GET', url, options);

describe('GET /api/configuration/portal', () => {
  it('tells the portal where to sign in and call, on the host it was asked on, without a token', async () => {
    const response = await get('/api/configuration/portal', { host: hosts.acme });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      authority: 'http://acme.localhost/oidc',
      clientId: 'portal',
      scope: 'openid profile offline_access applicationmanager entityverification',
      resource: 'urn:portal:api',
      apiBase: '/api',
      entityVerificationBase: '/entity-verification/api/v1',
      identityBase: '/identity',
      sentryDsn: 'https://public@monitoring.invalid/1',
      sentryTunnel: '/api/monitoring',
      tokenRefreshLeadSeconds: 120,
    });
  });

  it('sends error reports straight to a configured Sentry, with no tunnel', async () => {
    const sentry = await startTestServer({ SENTRY_DSN: 'https://key@sentry.example.com/42', TOKEN_REFRESH_LEAD: '90' });
    try {
      expect((await sentry.app.inject({ method: 'GET', url: '/api/configuration/portal', headers: { host: hosts.demo } })).json()).toMatchObject({
        sentryDsn: 'https://key@sentry.example.com/42',
        sentryTunnel: '',
        tokenRefreshLeadSeconds: 90,
      });
    } finally {
      await sentry.close();
    }
  });
});

describe('GET /api/configuration/tenant', () => {
  it("brands each tenant's host with its own name, colours and contacts, without a token", async () => {
    const acme = await get('/api/configuration/tenant', { host: hosts.acme });
    expect(acme.statusCode).toBe(200);
    expect(acme.json()).toEqual({
      TenantName: 'acme',
      DisplayName: 'Acme Super',
      LogoUrl: expect.stringMatching(/^data:image\/svg\+xml,/),
      PrimaryColor: '#1f7a4d',
      SecondaryColor: '#c2410c',
      SupportEmail: 'help@acme.test',
      SupportPhone: '1800 555 020',
      HelpUrl: 'https://help.acme.test/',
    });
    expect((await get('/api/configuration/tenant')).json()).toMatchObject({ TenantName: 'demo', DisplayName: 'Demo Wealth' });
  });

  it("gives a host that is no tenant the platform's support contacts", async () => {
    expect((await get('/api/configuration/tenant', { host: hosts.unknown })).json()).toEqual({
      TenantName: '',
      DisplayName: 'LAB Portal',
      LogoUrl: '',
      PrimaryColor: '#0b5cad',
      SecondaryColor: '#f0a202',
      SupportEmail: 'support@labportal.test',
      SupportPhone: '1300 555 000',
      HelpUrl: '',
    });
  });
});

describe('GET /api/tenant/validate', () => {
  it('says whether the host serves a tenant, and which', async () => {
    expect((await get('/api/tenant/validate', { host: hosts.acme })).json()).toEqual({ Success: true, TenantName: 'acme' });
    expect((await get('/api/tenant/validate', { host: hosts.unknown })).json()).toEqual({ Success: false, TenantName: '' });
  });
});

describe('GET /api/configuration/information', () => {
  it("gives a signed-in user the statuses and the tenant's own label limit and upload extensions", async () => {
    const response = await get('/api/configuration/information', { token: demoToken });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ApplicationStatuses: [...applicationStatuses],
      MaximumLabelLimit: 7,
      AcceptedDocumentUploadExtensions: ['pdf', 'odt'],
    });
  });

  it('falls back to the defaults for settings a tenant has not set', async () => {
    expect((await get('/api/configuration/information', { token: acmeToken, host: hosts.acme })).json()).toMatchObject({
      MaximumLabelLimit: 20,
      AcceptedDocumentUploadExtensions: ['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff', 'docx'],
    });
  });
});

describe('GET /api/configuration/custom', () => {
  it("splits the tenant's settings into the UI and user-management configuration", async () => {
    const response = await get('/api/configuration/custom', { token: demoToken });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      UISystemConfiguration: { ShowDocumentListBeforeCompletion: true, ShowEVSummaryResult: true },
      UserManagementConfiguration: {
        AustralianMobileNumberOnly: false,
        DisplayUserInviteAlert: true,
        UserInviteAlertText: 'Invites expire after 7 days.',
        EditPermissionsDisclaimerText: 'Changes apply at next sign-in.',
        NewUserAppAccessToggleDefaultON: true,
      },
    });
  });

  it('falls back to the defaults for settings a tenant has not set', async () => {
    expect((await get('/api/configuration/custom', { token: acmeToken, host: hosts.acme })).json()).toEqual({
      UISystemConfiguration: { ShowDocumentListBeforeCompletion: false, ShowEVSummaryResult: false },
      UserManagementConfiguration: {
        AustralianMobileNumberOnly: true,
        DisplayUserInviteAlert: false,
        UserInviteAlertText: '',
        EditPermissionsDisclaimerText: '',
        NewUserAppAccessToggleDefaultON: false,
      },
    });
  });
});

describe('the signed-in configuration routes', () => {
  it.each(['/api/configuration/information', '/api/configuration/custom'])('%s answers 401 without a token', async (url) => {
    expect((await get(url)).statusCode).toBe(401);
  });

  it.each(['/api/configuration/information', '/api/configuration/custom'])("%s refuses a token on another tenant's host", async (url) => {
    expect((await get(url, { token: acmeToken, host: hosts.demo })).statusCode).toBe(401);
  });
});
