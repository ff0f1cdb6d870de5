import * as z from 'zod';
import {
  RuntimeConfigSchema,
  SystemConfigurationSchema,
  SystemInformationSchema,
  TenantConfigurationSchema,
  TenantValidationSchema,
} from '../../src/schemas/configuration.schema.ts';
import { applicationStatuses } from '../../src/domain/application-status.ts';
import { embeddedSentryDsn } from '../config.ts';
import { apiResource, portalClientId, portalScope } from '../identity/provider.ts';
import { requestOrigin } from './auth.ts';
import { tenantOf, type RouteContext } from './context.ts';
import type { Tenant } from '../tenancy.ts';

/** Per-tenant values the spec leaves open; seeded with defaults (ARCHITECTURE §5). */
const TenantSettingsSchema = z.object({
  MaximumLabelLimit: z.number().int().default(20),
  AcceptedDocumentUploadExtensions: z.array(z.string()).default(['pdf', 'jpg', 'jpeg', 'png', 'tif', 'tiff', 'docx']),
  ShowDocumentListBeforeCompletion: z.boolean().default(false),
  ShowEVSummaryResult: z.boolean().default(false),
  AustralianMobileNumberOnly: z.boolean().default(true),
  DisplayUserInviteAlert: z.boolean().default(false),
  UserInviteAlertText: z.string().default(''),
  EditPermissionsDisclaimerText: z.string().default(''),
  NewUserAppAccessToggleDefaultON: z.boolean().default(false),
});
export const tenantSettingsOf = (tenant: Tenant) => TenantSettingsSchema.parse(tenant.settings ?? {});

/** Shown on the tenant-not-found page, where no tenant's contacts are known. */
const platformSupport = {
  TenantName: '',
  DisplayName: 'LAB Portal',
  LogoUrl: '',
  PrimaryColor: '#0b5cad',
  SecondaryColor: '#f0a202',
  SupportEmail: 'support@labportal.test',
  SupportPhone: '1300 555 000',
  HelpUrl: '',
};

export function registerConfigurationRoutes({ app, config, access }: RouteContext) {
  /** Public: the portal reads it before signing in. */
  app.get('/api/configuration/portal', { schema: { response: { 200: RuntimeConfigSchema } } }, async (request) => {
    const origin = requestOrigin(request);
    return {
      authority: `${origin}/oidc`,
      clientId: portalClientId,
      scope: portalScope,
      resource: apiResource,
      apiBase: '/api',
      entityVerificationBase: '/entity-verification/api/v1',
      identityBase: '/identity',
      sentryDsn: config.SENTRY_DSN || embeddedSentryDsn,
      sentryTunnel: config.SENTRY_DSN ? '' : '/api/monitoring',
      tokenRefreshLeadSeconds: config.TOKEN_REFRESH_LEAD,
    };
  });

  /** Public: branding and support contacts, also for the unavailable and tenant-not-found pages. */
  app.get('/api/configuration/tenant', { schema: { response: { 200: TenantConfigurationSchema } } }, async (request) => {
    const tenant = request.tenant;
    if (!tenant) return platformSupport;
    return {
      TenantName: tenant.id,
      DisplayName: tenant.name,
      LogoUrl: tenant.logoUrl,
      PrimaryColor: tenant.primaryColor,
      SecondaryColor: tenant.secondaryColor,
      SupportEmail: tenant.supportEmail,
      SupportPhone: tenant.supportPhone,
      HelpUrl: tenant.helpUrl,
    };
  });

  /**
   * The browser asks every host for /favicon.ico: the tenant's logo (an SVG data URL as seeded is
   * sent as the image itself, a web address redirects there), else its initial on its colour.
   */
  app.get('/favicon.ico', async (request, reply) => {
    const tenant = request.tenant;
    const icon = tenant ? tenantIcon(tenant) : { svg: initialIcon('', '#5b6b80') };
    if ('redirect' in icon) return reply.header('cache-control', 'public, max-age=3600').redirect(icon.redirect, 302);
    // An image, never a document: the SVG runs no script even when opened on its own.
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=3600')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(icon.svg);
  });

  /** SUV §7 tenant validation ("identity"): does this host serve a tenant? */
  app.get('/api/tenant/validate', { schema: { response: { 200: TenantValidationSchema } } }, async (request) => ({
    Success: Boolean(request.tenant),
    TenantName: request.tenant?.id ?? '',
  }));

  app.get(
    '/api/configuration/information',
    {
      onRequest: access.requireAccess({ scope: 'applicationmanager' }),
      schema: { response: { 200: SystemInformationSchema } },
    },
    async (request) => {
      const settings = tenantSettingsOf(tenantOf(request));
      return {
        ApplicationStatuses: [...applicationStatuses],
        MaximumLabelLimit: settings.MaximumLabelLimit,
        AcceptedDocumentUploadExtensions: settings.AcceptedDocumentUploadExtensions,
      };
    },
  );

  app.get(
    '/api/configuration/custom',
    {
      onRequest: access.requireAccess({ scope: 'applicationmanager' }),
      schema: { response: { 200: SystemConfigurationSchema } },
    },
    async (request) => {
      const { ShowDocumentListBeforeCompletion, ShowEVSummaryResult, MaximumLabelLimit: _m, AcceptedDocumentUploadExtensions: _e, ...userManagement } =
        tenantSettingsOf(tenantOf(request));
      return {
        UISystemConfiguration: { ShowDocumentListBeforeCompletion, ShowEVSummaryResult },
        UserManagementConfiguration: userManagement,
      };
    },
  );
}

const svgDataUrl = 'data:image/svg+xml,';

function tenantIcon(tenant: Tenant): { svg: string } | { redirect: string } {
  if (tenant.logoUrl.startsWith(svgDataUrl)) {
    try {
      return { svg: decodeURIComponent(tenant.logoUrl.slice(svgDataUrl.length)) };
    } catch {
      // A malformed logo address: the generated icon below.
    }
  }
  if (/^https:\/\//.test(tenant.logoUrl)) return { redirect: tenant.logoUrl };
  return { svg: initialIcon(tenant.name.trim().charAt(0).toUpperCase(), tenant.primaryColor) };
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

const initialIcon = (initial: string, colour: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="${escapeXml(colour)}"/>` +
  `<text x="20" y="27" font-family="sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">${escapeXml(initial)}</text></svg>`;
