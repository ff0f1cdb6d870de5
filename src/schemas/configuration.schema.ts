import * as z from 'zod/mini';

/** The portal's runtime configuration, served by the portal server and validated at boot. */
export const RuntimeConfigSchema = z.object({
  authority: z.url(),
  clientId: z.string().check(z.minLength(1)),
  scope: z.string().check(z.minLength(1)),
  resource: z.string().check(z.minLength(1)),
  apiBase: z.string().check(z.minLength(1)),
  entityVerificationBase: z.string().check(z.minLength(1)),
  identityBase: z.string().check(z.minLength(1)),
  sentryDsn: z.string(),
  sentryTunnel: z.string(),
  /** Seconds before expiry at which the access token is renewed (AM §9: 120). */
  tokenRefreshLeadSeconds: z.int().check(z.positive()),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

/** GET /api/configuration/tenant: branding and support contacts (public: the unavailable pages need them). */
export const TenantConfigurationSchema = z.object({
  TenantName: z.string(),
  DisplayName: z.string(),
  LogoUrl: z.string(),
  PrimaryColor: z.string(),
  SecondaryColor: z.string(),
  SupportEmail: z.string(),
  SupportPhone: z.string(),
  HelpUrl: z.string(),
});
export type TenantConfiguration = z.infer<typeof TenantConfigurationSchema>;

/** SUV §3 tenant validation: Success and TenantName. */
export const TenantValidationSchema = z.object({ Success: z.boolean(), TenantName: z.string() });
export type TenantValidation = z.infer<typeof TenantValidationSchema>;

/** AM §3 System information. */
export const SystemInformationSchema = z.object({
  ApplicationStatuses: z.array(z.string()),
  MaximumLabelLimit: z.int(),
  AcceptedDocumentUploadExtensions: z.array(z.string()),
});
export type SystemInformation = z.infer<typeof SystemInformationSchema>;

export const UserManagementConfigurationSchema = z.object({
  AustralianMobileNumberOnly: z.boolean(),
  DisplayUserInviteAlert: z.boolean(),
  UserInviteAlertText: z.string(),
  EditPermissionsDisclaimerText: z.string(),
  NewUserAppAccessToggleDefaultON: z.boolean(),
});

/** AM §3 System configuration (GET /configuration/custom). */
export const SystemConfigurationSchema = z.object({
  UISystemConfiguration: z.object({
    ShowDocumentListBeforeCompletion: z.boolean(),
    ShowEVSummaryResult: z.boolean(),
  }),
  UserManagementConfiguration: UserManagementConfigurationSchema,
});
export type SystemConfiguration = z.infer<typeof SystemConfigurationSchema>;
