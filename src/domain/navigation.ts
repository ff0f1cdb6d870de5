import { canSeeAllApps, canSeeMyApps, hasClaim, type Claims } from './permissions.ts';

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
  if (hasClaim(claims, 'entityverification.access')) internal('Verifications', '/verifications');
  if (hasClaim(claims, 'reports.login')) internal('Reports', '/reports');
  if (hasClaim(claims, 'labid.login')) internal('ID Verification', '/list');
  if (hasClaim(claims, 'usermanagement.access')) internal('Users', '/users');
  if (hasClaim(claims, 'portal.settings')) internal('Settings', '/list');
  items.push({ label: 'Help', to: helpUrl, external: true });
  return items;
}
