import { describe, expect, it } from 'vitest';
import { allAppsClaims } from '../../src/domain/claims.ts';
import {
  canConfigureTenant,
  hasMoreMenu,
  listPermissions,
  newApplicationMode,
} from '../../src/domain/list-permissions.ts';
import {
  canSeeAllApps,
  canSeeMyApps,
  claimValue,
  hasAnyClaim,
  hasClaim,
  hasClaimContaining,
  homePath,
  listPathFor,
} from '../../src/domain/permissions.ts';

/**
 * Every claim rule one claim at a time (AM §6): each compound rule gets a caller holding only one of
 * its halves, so a rule that drops or swaps a half fails its own line.
 */
describe('claim matching', () => {
  it('matches exactly, contains, or any of', () => {
    expect(hasClaim(['app.export'], 'app.export')).toBe(true);
    expect(hasClaim(['app.exports'], 'app.export')).toBe(false);
    expect(hasClaimContaining(['view.myapps', 'usermanagement.access'], 'usermanagement.')).toBe(true);
    // One holder is enough; not every claim needs to contain it.
    expect(hasClaimContaining(['usermanagement.access', 'app.view'], 'usermanagement.')).toBe(true);
    expect(hasClaimContaining(['app.view'], 'usermanagement.')).toBe(false);
    expect(hasAnyClaim(['app.create'], ['app.create', 'app.createonbehalf'])).toBe(true);
    expect(hasAnyClaim(['app.view'], ['app.create', 'app.createonbehalf'])).toBe(false);
  });

  it('reads a prefixed claim by its prefix only', () => {
    const claims = ['view.myapps', 'GlobalId:u-1', 'Tenant:demo', 'CreatedDate:2024-01-02'];
    expect(claimValue(claims, 'Tenant')).toBe('demo');
    expect(claimValue(claims, 'GlobalId')).toBe('u-1');
    expect(claimValue(['xTenant:acme', 'Tenant:demo'], 'Tenant')).toBe('demo');
    expect(claimValue(['view.myapps'], 'Tenant')).toBeUndefined();
  });
});

describe('the lists a caller may open', () => {
  it.each(allAppsClaims)('%s alone opens All Apps, not My Apps', (claim) => {
    expect(canSeeAllApps([claim])).toBe(true);
    expect(canSeeMyApps([claim])).toBe(false);
    expect(homePath([claim])).toBe('/list/all');
  });
  it('view.myapps alone opens My Apps, and home is /list', () => {
    expect(canSeeMyApps(['view.myapps'])).toBe(true);
    expect(canSeeAllApps(['view.myapps'])).toBe(false);
    expect(homePath(['view.myapps'])).toBe('/list');
    expect(homePath(['view.myapps', 'view.allapps.instance'])).toBe('/list');
    expect(homePath([])).toBe('/list');
  });
  // Issue 32: a bookmark of the list one may not open goes to the one one may.
  it('All Apps without an all-apps claim goes to My Apps; each list stays where it may be opened', () => {
    expect(listPathFor(['view.myapps'], 'all')).toBe('/list');
    expect(listPathFor(['view.myapps', 'view.allapps.location'], 'all')).toBe('/list/all');
    expect(listPathFor(['view.allapps.instance'], 'all')).toBe('/list/all');
    expect(listPathFor(['view.allapps.instance'], 'my')).toBe('/list/all');
    expect(listPathFor(['view.myapps'], 'my')).toBe('/list');
    // Neither: no list to send them to; the one asked for answers for itself.
    expect(listPathFor([], 'all')).toBe('/list/all');
    expect(listPathFor([], 'my')).toBe('/list');
  });
  it('the My Apps / All Apps toggle needs both halves', () => {
    expect(listPermissions(['view.myapps']).scopeToggle).toBe(false);
    expect(listPermissions(['view.allapps.location']).scopeToggle).toBe(false);
    expect(listPermissions(['view.myapps', 'view.allapps.location']).scopeToggle).toBe(true);
  });
});

describe('the list actions, one claim at a time', () => {
  const only = (claim: string) => listPermissions(['view.myapps', claim]);
  it.each([
    ['app.create', 'newApplication'],
    ['app.createonbehalf', 'newApplication'],
    ['app.bulkupload', 'bulkUpload'],
    ['app.export', 'export'],
    ['app.cancel', 'cancel'],
  ] as const)('%s alone offers %s and nothing else', (claim, offered) => {
    const permissions = only(claim);
    const { scopeToggle, ...actions } = permissions;
    expect(scopeToggle).toBe(false);
    expect(Object.entries(actions).filter(([, allowed]) => allowed).map(([name]) => name)).toEqual([offered]);
  });
  it('offers nothing without the action claims', () => {
    expect(listPermissions(['view.myapps'])).toEqual({
      scopeToggle: false,
      newApplication: false,
      bulkUpload: false,
      export: false,
      cancel: false,
    });
  });
  it('New picks an owner with app.createonbehalf, creates at once with app.create alone', () => {
    expect(newApplicationMode(['app.createonbehalf'])).toBe('onBehalf');
    expect(newApplicationMode(['app.create', 'app.createonbehalf'])).toBe('onBehalf');
    expect(newApplicationMode(['app.create'])).toBe('direct');
    expect(newApplicationMode(['view.myapps'])).toBeUndefined();
  });
  it('the More menu shows with any one of its entries', () => {
    expect(hasMoreMenu(only('app.bulkupload'))).toBe(true);
    expect(hasMoreMenu(only('app.export'))).toBe(true);
    expect(hasMoreMenu(only('app.cancel'))).toBe(true);
    expect(hasMoreMenu(only('app.create'))).toBe(false);
  });
  it('the tenant configuration needs admin, exactly', () => {
    expect(canConfigureTenant(['admin'])).toBe(true);
    expect(canConfigureTenant(['administrator', 'view.myapps'])).toBe(false);
  });
});
