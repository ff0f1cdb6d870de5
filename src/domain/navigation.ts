import { canSeeAllApps, canSeeMyApps, hasClaim, homePath, type Claims } from './permissions.ts';

export interface NavigationItem {
  label: string;
  /** An in-portal path, or an external address opened in a new tab. */
  to: string;
  external: boolean;
}

/** The side navigation of SUV §2, in its order, keeping only the items the claims allow. */
export function navigationItems(claims: Claims, helpUrl: string): NavigationItem[] {
  const items: NavigationItem[] = [];
  const internal = (label: string, to: string) => items.push({ label, to, external: false });
  if (canSeeMyApps(claims)) internal('Applications', '/list');
  else if (canSeeAllApps(claims)) internal('Applications', '/list/all');
  if (hasClaim(claims, areaClaims.verifications)) internal('Verifications', '/verifications');
  if (hasClaim(claims, areaClaims.reports)) internal('Reports', '/reports');
  if (hasClaim(claims, 'labid.login')) internal('ID Verification', '/list');
  if (hasClaim(claims, areaClaims.users)) internal('Users', '/users');
  if (hasClaim(claims, 'portal.settings')) internal('Settings', '/list');
  items.push({ label: 'Help', to: helpUrl, external: true });
  return items;
}

/** SUV §6: the claim each area's page needs (the side navigation shows its item with it). */
export const areaClaims = {
  verifications: 'entityverification.access',
  reports: 'reports.login',
  users: 'usermanagement.access',
  admin: 'admin',
} as const;

/**
 * Where `/` lands (issue 39 point 9). With an applications claim, My Apps or All Apps (AM §2,
 * `homePath`); without one, the applications list could only fail to load, so the first other
 * area of the side navigation the person may use (a verifier: Verifications, whose tab is the first
 * permitted one); with none at all, /list as SUV §2 says.
 */
export function landingPath(claims: Claims): string {
  if (canSeeMyApps(claims) || canSeeAllApps(claims)) return homePath(claims);
  // ID Verification and Settings lead to the applications list too (SUV §2): not an area of their own.
  const area = navigationItems(claims, '').find((item) => !item.external && !item.to.startsWith('/list'));
  return area?.to ?? '/list';
}
