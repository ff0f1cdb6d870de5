import { applicationManagerClaims } from './claims.ts';
import { isAdminStaffRole } from './user-status.ts';

/**
 * Claims of AM §6 that are not about the tenant's applications: the tenant configuration page, the
 * form-login gate, the Reports and ID Verification entries. Reports count only the applications the
 * person may list, so without application access they count none.
 */
const notApplicationClaims: ReadonlySet<string> = new Set(['admin', 'user.formlogin', 'reports.login', 'labid.login']);

/** The claims that list, open or act on applications: what HasApplicationAccess grants or revokes. */
export const applicationAccessClaims: readonly string[] = applicationManagerClaims.filter((claim) => !notApplicationClaims.has(claim));

export interface ClaimHolder {
  claims: readonly string[];
  roleName: string;
  hasApplicationAccess: boolean;
}

/**
 * The claims a user holds in effect (SUV §1/§3/§6, issue 39 point 1). An administrator grants or
 * revokes each admin staff user's access to applications; the Permissions column shows the flag for
 * those two roles only, so it decides only for them: without it their role's application claims are
 * withheld, everywhere the server reads claims (token, account info, every API call). The other
 * roles have no switch and keep their claims.
 */
export function effectiveClaims(user: ClaimHolder): string[] {
  if (user.hasApplicationAccess || !isAdminStaffRole(user.roleName)) return [...user.claims];
  return user.claims.filter((claim) => !applicationAccessClaims.includes(claim));
}
