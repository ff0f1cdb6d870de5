import { canSeeAllApps, canSeeMyApps, hasAnyClaim, hasClaim, type Claims } from './permissions.ts';

/** How the New button starts an application (AM §6): on-behalf goes through the owner picker. */
export type NewApplicationMode = 'direct' | 'onBehalf';

/** AM §6: app.createonbehalf picks an owner first; app.create alone creates at once; neither, no New button. */
export function newApplicationMode(claims: Claims): NewApplicationMode | undefined {
  if (hasClaim(claims, 'app.createonbehalf')) return 'onBehalf';
  if (hasClaim(claims, 'app.create')) return 'direct';
  return undefined;
}

/** What the list's action bar, table and menus offer (AM §2 Application list, §6). */
export interface ListPermissions {
  /** The My Apps / All Apps toggle: an all-apps claim and view.myapps. */
  scopeToggle: boolean;
  newApplication: boolean;
  bulkUpload: boolean;
  export: boolean;
  /** Row checkboxes, select-all, 'Cancel N application(s)' and Cancel Application. */
  cancel: boolean;
}

export function listPermissions(claims: Claims): ListPermissions {
  return {
    scopeToggle: canSeeMyApps(claims) && canSeeAllApps(claims),
    newApplication: hasAnyClaim(claims, ['app.create', 'app.createonbehalf']),
    bulkUpload: hasClaim(claims, 'app.bulkupload'),
    export: hasClaim(claims, 'app.export'),
    cancel: hasClaim(claims, 'app.cancel'),
  };
}

/** The More menu shows when it holds at least one entry. */
export const hasMoreMenu = (permissions: ListPermissions): boolean =>
  permissions.bulkUpload || permissions.export || permissions.cancel;

/** AM §2 the More menu's cancel entry, letter for letter. */
export const cancelApplicationsLabel = (count: number): string => `Cancel ${count} application(s)`;

/** AM §2: the tenant configuration page is blank without the admin claim. */
export const canConfigureTenant = (claims: Claims): boolean => hasClaim(claims, 'admin');
