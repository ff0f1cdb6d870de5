import {
  SystemConfigurationSchema,
  TenantConfigurationSchema,
  TenantValidationSchema,
  type SystemConfiguration,
  type TenantConfiguration,
  type TenantValidation,
} from '../schemas/configuration.schema.ts';
import { getJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** SUV §7: where the validated tenant name is remembered. */
const tenantNameStorageKey = 'tenantName';

/** GET /configuration/tenant: branding and support contacts. Public: the unavailable pages need it. */
export function tenantConfiguration(): Promise<TenantConfiguration> {
  return getJson(api('/configuration/tenant'), TenantConfigurationSchema, { anonymous: true });
}

/** SUV §7: does this address serve a tenant? A valid tenant's name is kept in local storage. */
export async function validateTenant(): Promise<TenantValidation> {
  const validation = await getJson(api('/tenant/validate'), TenantValidationSchema, { anonymous: true });
  if (validation.Success) {
    try {
      window.localStorage.setItem(tenantNameStorageKey, validation.TenantName);
    } catch {
      // Storage can be disabled (private mode, policy); the name is a convenience, not a requirement.
    }
  }
  return validation;
}

/** GET /configuration/custom: system configuration. A 401 ends the session like any other call. */
export function systemConfiguration(): Promise<SystemConfiguration> {
  return getJson(api('/configuration/custom'), SystemConfigurationSchema);
}
