import { describe, expect, it } from 'vitest';
import { landingPath, navigationItems } from '../../src/domain/navigation.ts';
import { applicationDetailTitle, applicationListPathFrom } from '../../src/domain/page-titles.ts';
import { brandProperties } from '../../src/views/shell/branding.ts';
import { contrastRatio } from '../../src/domain/chart-colours.ts';
import { currentItemIndex } from '../../src/views/shell/side-nav.tsx';

const everyItem = navigationItems(
  [
    'view.myapps',
    'entityverification.access',
    'reports.login',
    'labid.login',
    'usermanagement.access',
    'portal.settings',
  ],
  'https://help.demo.test/',
);

describe('side navigation current item', () => {
  it('marks the item whose path the address is under', () => {
    expect(everyItem[currentItemIndex(everyItem, '/users/3')]?.label).toBe('Users');
    expect(everyItem[currentItemIndex(everyItem, '/verifications/details/V12')]?.label).toBe('Verifications');
  });

  it('marks only the first of the items that share /list (Applications, ID Verification, Settings)', () => {
    expect(everyItem[currentItemIndex(everyItem, '/list/2/50')]?.label).toBe('Applications');
  });

  it('counts an application detail as Applications, whichever list that is', () => {
    const allAppsOnly = navigationItems(['view.allapps.instance'], '');
    expect(allAppsOnly[currentItemIndex(allAppsOnly, '/application/77')]?.label).toBe('Applications');
  });

  it('never marks Help', () => {
    expect(currentItemIndex(everyItem, '/settings')).toBe(-1);
  });
});

describe('page titles (AM §2)', () => {
  it('puts the application id in brackets', () => {
    expect(applicationDetailTitle('1042')).toBe('(1042)');
  });

  it("returns the detail's breadcrumb to the list it came from", () => {
    expect(applicationListPathFrom('all')).toBe('/list/all');
    expect(applicationListPathFrom('my')).toBe('/list');
    expect(applicationListPathFrom(null)).toBe('/list');
  });
});

describe('brandProperties', () => {
  it('turns the tenant colours into custom properties; empty ones fall back to the theme', () => {
    expect(brandProperties(undefined)).toEqual([
      ['--brand-primary', ''],
      ['--brand-nav-active', ''],
      ['--brand-secondary', ''],
    ]);
    expect(brandProperties({ PrimaryColor: '#7a1f5c', SecondaryColor: '' })).toEqual([
      ['--brand-primary', '#7a1f5c'],
      ['--brand-nav-active', '#924779'],
      ['--brand-secondary', ''],
    ]);
  });

  it("gives acme's green an active navigation shade white text can sit on (issue 32: it was 3.74:1)", () => {
    const properties = new Map(brandProperties({ PrimaryColor: '#1f7a4d', SecondaryColor: '#c2410c' }));
    expect(contrastRatio(properties.get('--brand-nav-active') ?? '', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('where / lands (issue 39 point 9)', () => {
  it('with an applications claim: My Apps, else All Apps (AM §2)', () => {
    expect(landingPath(['view.myapps', 'entityverification.access'])).toBe('/list');
    expect(landingPath(['view.allapps.location', 'usermanagement.access'])).toBe('/list/all');
  });
  it('without one: the first area of the side navigation the person may use', () => {
    expect(landingPath(['entityverification.access', 'entityverification.individual'])).toBe('/verifications');
    expect(landingPath(['reports.login', 'usermanagement.access'])).toBe('/reports');
    expect(landingPath(['usermanagement.access'])).toBe('/users');
  });
  it('ID Verification and Settings are not areas of their own (they open the list); with nothing, /list as SUV §2 says', () => {
    expect(landingPath(['labid.login', 'portal.settings', 'usermanagement.access'])).toBe('/users');
    expect(landingPath(['labid.login', 'portal.settings'])).toBe('/list');
    expect(landingPath([])).toBe('/list');
  });
});
