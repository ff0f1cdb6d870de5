import { describe, expect, it } from 'vitest';
import { defaultListQuery, parseListQuery } from '../../src/domain/application-query.ts';
import { allClaims } from '../../src/domain/claims.ts';
import { fileNameFromDisposition } from '../../src/domain/content-disposition.ts';
import {
  canApplyFilters,
  emptyFilterSelection,
  filterSelectionOf,
  filterSummary,
  hasFilterSelection,
  defaultFilterOptions,
  optionName,
  statusOptions,
  withNoneOption,
  withoutAnyFilter,
  withoutFilter,
} from '../../src/domain/list-filter-summary.ts';
import {
  canConfigureTenant,
  cancelApplicationsLabel,
  hasMoreMenu,
  listPermissions,
  newApplicationMode,
} from '../../src/domain/list-permissions.ts';
import {
  applicationDetailHref,
  effectiveListView,
  isPhoneWidth,
  listAddressParams,
  listColumnsToShow,
  listHref,
  listTitle,
  parseListView,
  storedListView,
} from '../../src/domain/list-view.ts';

describe('the list address (AM §2)', () => {
  it('puts page and page size in the path only when they are not the defaults', () => {
    expect(listHref('my', defaultListQuery)).toBe('/list');
    expect(listHref('all', defaultListQuery)).toBe('/list/all');
    expect(listHref('my', { ...defaultListQuery, pageNo: 3 })).toBe('/list/3');
    expect(listHref('all', { ...defaultListQuery, pageNo: 1, rowsPerPage: 50 })).toBe('/list/all/1/50');
  });

  it('writes filters, search, sort and the email view as parameters', () => {
    const href = listHref('my', { ...defaultListQuery, status: ['Complete'], q: 'smith', sortBy: 'Status', sortType: 'asc' }, 'email');
    const url = new URL(href, 'http://portal.test');
    expect(url.pathname).toBe('/list');
    expect(url.searchParams.get('status')).toBe('["Complete"]');
    expect(url.searchParams.get('q')).toBe('smith');
    expect(url.searchParams.get('sortBy')).toBe('Status');
    expect(url.searchParams.get('sortType')).toBe('asc');
    expect(url.searchParams.get('view')).toBe('email');
  });

  it('reads back exactly what it wrote, page and page size from the path', () => {
    const query = { ...defaultListQuery, pageNo: 4, rowsPerPage: 50, assignee: [''], label: ['Call back', 'VIP'], q: 'jo' };
    const url = new URL(listHref('all', query), 'http://portal.test');
    const [, , , pageNo, rowsPerPage] = url.pathname.split('/');
    const parsed = parseListQuery(listAddressParams({ pageNo, rowsPerPage }, url.searchParams));
    expect(parsed).toEqual({ ok: true, query });
  });

  it('ignores a pageNo in the query string: the page is in the path', () => {
    const parsed = parseListQuery(listAddressParams({}, new URLSearchParams('pageNo=7')));
    expect(parsed).toEqual({ ok: true, query: defaultListQuery });
  });

  it('opens a row at /application/{id}?from=my|all', () => {
    expect(applicationDetailHref(1042, 'my')).toBe('/application/1042?from=my');
    expect(applicationDetailHref(7, 'all')).toBe('/application/7?from=all');
  });

  it("titles the page 'Applications' with the total and a thousands separator", () => {
    expect(listTitle(undefined)).toBe('Applications');
    expect(listTitle(1234)).toBe('Applications (1,234)');
    expect(listTitle(0)).toBe('Applications (0)');
  });
});

describe('views (AM §2)', () => {
  it('shows the email view only from 1200 px wide, keeping the preference', () => {
    expect(effectiveListView('email', 1200)).toBe('email');
    expect(effectiveListView('email', 1199)).toBe('list');
    expect(effectiveListView('list', 1600)).toBe('list');
  });

  it('reads view=list|email; module and junk leave the stored preference in charge', () => {
    expect(parseListView('email')).toBe('email');
    expect(parseListView('list')).toBe('list');
    expect(parseListView('module')).toBeUndefined();
    expect(parseListView(null)).toBeUndefined();
    expect(storedListView('email')).toBe('email');
    expect(storedListView('grid')).toBe('list');
  });

  it('shows the configured columns in the spec order, always ID, Email, AccountName and Status, the row menu last', () => {
    expect(listColumnsToShow(['Actions', 'ClientName', 'Status', 'Nonsense'], false)).toEqual([
      'ID',
      'Email',
      'ClientName',
      'Status',
      'AccountName',
      'Actions',
    ]);
  });

  it('shows only the Status column on a phone', () => {
    expect(listColumnsToShow(['ID', 'Email', 'Status', 'Owner'], isPhoneWidth(390))).toEqual(['Status']);
    expect(isPhoneWidth(767)).toBe(true);
    expect(isPhoneWidth(768)).toBe(false);
    expect(listColumnsToShow(['ID'], isPhoneWidth(768))).toEqual(['ID', 'Email', 'Status', 'AccountName']);
  });
});

describe('permissions of the list (AM §2, §6)', () => {
  it('shows the My Apps / All Apps toggle only with an all-apps claim and view.myapps', () => {
    expect(listPermissions(['view.myapps', 'view.allapps.location']).scopeToggle).toBe(true);
    expect(listPermissions(['view.myapps']).scopeToggle).toBe(false);
    expect(listPermissions(['view.allapps.instance']).scopeToggle).toBe(false);
  });

  it('gives checkboxes and cancelling only with app.cancel', () => {
    expect(listPermissions(['app.cancel']).cancel).toBe(true);
    expect(listPermissions(['view.myapps', 'app.view', 'app.create']).cancel).toBe(false);
  });

  it('creates on behalf through the owner picker when allowed, else directly with app.create', () => {
    expect(newApplicationMode(['app.create', 'app.createonbehalf'])).toBe('onBehalf');
    expect(newApplicationMode(['app.create'])).toBe('direct');
    expect(newApplicationMode(['app.view'])).toBeUndefined();
    expect(listPermissions(['app.createonbehalf']).newApplication).toBe(true);
  });

  it('shows the More menu when it holds an entry', () => {
    expect(hasMoreMenu(listPermissions(allClaims))).toBe(true);
    expect(hasMoreMenu(listPermissions(['view.myapps', 'app.create']))).toBe(false);
    expect(hasMoreMenu(listPermissions(['app.export']))).toBe(true);
  });

  it("labels the bulk cancel 'Cancel N application(s)'", () => {
    expect(cancelApplicationsLabel(2)).toBe('Cancel 2 application(s)');
    expect(cancelApplicationsLabel(0)).toBe('Cancel 0 application(s)');
  });

  it('opens the tenant configuration only with the admin claim', () => {
    expect(canConfigureTenant(['admin'])).toBe(true);
    expect(canConfigureTenant(['app.view'])).toBe(false);
  });
});

describe('the Filters modal and the summary (AM §2)', () => {
  const options = {
    ...defaultFilterOptions,
    assignee: withNoneOption([{ Name: 'Avery Admin', Value: 'a1' }]),
    label: withNoneOption([{ Name: 'Call back', Value: 'Call back' }]),
  };

  it("puts '(None)', with an empty value, first", () => {
    expect(options.assignee[0]).toEqual({ Name: '(None)', Value: '' });
    expect(withNoneOption([{ Name: '(None)', Value: '' }])).toHaveLength(1);
    expect(optionName(options.assignee, '')).toBe('(None)');
    expect(optionName(options.assignee, 'a1')).toBe('Avery Admin');
    expect(optionName(options.assignee, 'unknown')).toBe('unknown');
  });

  it('offers every status the server knows but Cancelled, which no list shows', () => {
    expect(statusOptions(['Complete', 'Cancelled', 'Under review'])).toEqual([
      { Name: 'Complete', Value: 'Complete' },
      { Name: 'Under review', Value: 'Under review' },
    ]);
  });

  it('enables Apply only when the selection differs from the current filters, whatever the order', () => {
    const query = { ...defaultListQuery, status: ['Complete', 'Locked'] };
    expect(canApplyFilters(filterSelectionOf(query), query)).toBe(false);
    expect(canApplyFilters({ ...filterSelectionOf(query), status: ['Locked', 'Complete'] }, query)).toBe(false);
    expect(canApplyFilters({ ...filterSelectionOf(query), status: ['Locked'] }, query)).toBe(true);
    expect(canApplyFilters(emptyFilterSelection, query)).toBe(true);
  });

  it('enables Clear only when something is selected', () => {
    expect(hasFilterSelection(emptyFilterSelection)).toBe(false);
    expect(hasFilterSelection({ ...emptyFilterSelection, sysLabel: [''] })).toBe(true);
  });

  it("reads 'Search for', Status, Label, Assignee, Tag, SubBrand, Products in that order, with +N", () => {
    const query = {
      ...defaultListQuery,
      q: 'smith',
      status: ['Complete', 'Locked', 'Adviser edit'],
      assignee: ['', 'a1'],
      label: ['Call back'],
      sysLabel: ['Migrated'],
      subBrand: ['Premium'],
      products: ['CASH'],
    };
    const summary = filterSummary(query, options);
    expect(summary.map((item) => item.label)).toEqual(['Search for', 'Status', 'Label', 'Assignee', 'Tag', 'SubBrand', 'Products']);
    expect(summary[1]).toEqual({ key: 'status', label: 'Status', first: 'Complete', others: ['Locked', 'Adviser edit'] });
    expect(summary[3]).toEqual({ key: 'assignee', label: 'Assignee', first: '(None)', others: ['Avery Admin'] });
    expect(filterSummary(defaultListQuery, options)).toEqual([]);
  });

  it('removes one filter, or all of them (keeping the sort)', () => {
    expect(withoutFilter('q')).toEqual({ q: '' });
    expect(withoutFilter('status')).toEqual({ status: [] });
    expect(withoutFilter('products')).toEqual({ products: [], mustHaveAllSelectedProducts: false });
    expect(withoutAnyFilter).not.toHaveProperty('sortBy');
    expect(withoutAnyFilter).toMatchObject({ q: '', status: [], products: [] });
  });
});

describe('download names (AM §7: from content-disposition)', () => {
  it('reads filename and filename*, and falls back', () => {
    expect(fileNameFromDisposition('attachment; filename="export.csv"', 'x.csv')).toBe('export.csv');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.csv", 'x.csv')).toBe('résumé.csv');
    expect(fileNameFromDisposition('attachment; filename=list.csv', 'x.csv')).toBe('list.csv');
    expect(fileNameFromDisposition(null, 'export.csv')).toBe('export.csv');
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"', 'export.csv')).toBe('....etcpasswd');
    expect(fileNameFromDisposition('attachment', 'export.csv')).toBe('export.csv');
  });
});
