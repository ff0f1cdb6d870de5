import { describe, expect, it } from 'vitest';
import { actionVerdict } from '../../src/domain/application-actions.ts';
import { bulkUploadTexts, isBulkUploadFileName, uploadingPercent } from '../../src/domain/bulk-upload.ts';
import { fileNameFromDisposition } from '../../src/domain/content-disposition.ts';
import { navigationItems } from '../../src/domain/navigation.ts';
import {
  emptyFilters,
  filtersKey,
  maxFilterValues,
  maxRowsPerPage,
  maxSearchLength,
  maxSearchWords,
  parseListRequest,
  searchWords,
  type RawListQuery,
} from '../../src/domain/list-request.ts';
import { isPastTheEnd, pageItems, pageRange } from '../../src/domain/pagination.ts';

/** Rules the mutation run (docs/testing.md) found reached only through views and machines, tested at their edges. */

describe('side navigation (SUV §2), one claim at a time', () => {
  const help = 'https://help.example.org';
  const items = (claims: string[]) => navigationItems(claims, help).map((item) => `${item.label} ${item.to}${item.external ? ' (new tab)' : ''}`);
  it.each([
    [[], []],
    [['view.myapps'], ['Applications /list']],
    [['view.allapps.location'], ['Applications /list/all']],
    [['view.myapps', 'view.allapps.location'], ['Applications /list']],
    [['entityverification.access'], ['Verifications /verifications']],
    [['reports.login'], ['Reports /reports']],
    [['labid.login'], ['ID Verification /list']],
    [['usermanagement.access'], ['Users /users']],
    [['portal.settings'], ['Settings /list']],
  ])('%j shows %j, then Help', (claims, expected) => {
    expect(items(claims)).toEqual([...expected, `Help ${help} (new tab)`]);
  });

  it('keeps the order of the table with every claim', () => {
    const all = ['portal.settings', 'usermanagement.access', 'labid.login', 'reports.login', 'entityverification.access', 'view.myapps'];
    expect(navigationItems(all, help).map((item) => item.label)).toEqual([
      'Applications', 'Verifications', 'Reports', 'ID Verification', 'Users', 'Settings', 'Help',
    ]);
  });
});

describe('pages (AM §9)', () => {
  it('offers no page numbers for a list without pages', () => {
    expect(pageItems(1, 0)).toEqual([]);
    expect(pageItems(1, -1)).toEqual([]);
  });

  it('marks the current page, and gaps by their side', () => {
    expect(pageItems(10, 20)).toEqual([
      { kind: 'page', page: 1, current: false },
      { kind: 'gap', side: 'start' },
      ...[7, 8, 9, 10, 11, 12, 13].map((page) => ({ kind: 'page', page, current: page === 10 })),
      { kind: 'gap', side: 'end' },
      { kind: 'page', page: 20, current: false },
    ]);
  });

  it('holds no rows on the page just past the last row, and the last row on the last page', () => {
    expect(pageRange(3, 20, 40)).toEqual({ first: 0, last: 0 });
    expect(pageRange(2, 20, 40)).toEqual({ first: 21, last: 40 });
    expect(pageRange(3, 20, 41)).toEqual({ first: 41, last: 41 });
  });

  it.each([
    [3, 2, 40, true],
    [2, 2, 40, false],
    [1, 2, 40, false],
    [3, 2, undefined, false],
    [3, 2, 0, false],
    [2, 0, 40, false],
    [2, 1, 1, true],
  ])('page %i of %i with %s rows is past the end: %s', (pageNo, maxPage, total, past) => {
    expect(isPastTheEnd(pageNo, maxPage, total)).toBe(past);
  });
});

describe('bulk upload (AM §4, §5)', () => {
  it.each([
    ['applications.xlsx', true],
    ['APPLICATIONS.XLS', true],
    ['applications.csv', false],
    ['applications.xlsx.exe', false],
    ['xlsx', false],
  ])('%s may be uploaded: %s', (name, ok) => expect(isBulkUploadFileName(name)).toBe(ok));

  it.each([
    [0, 1000, 0],
    [250, 1000, 25],
    [999, 1000, 95],
    [1000, 1000, 95],
    [5, 0, 0],
    [-5, 100, 0],
  ])('%i of %i bytes sent shows %i %%', (loaded, total, percent) => expect(uploadingPercent(loaded, total)).toBe(percent));

  it('refuses other types with its own sentence', () => {
    expect(bulkUploadTexts.wrongType).toBe('Only .xlsx and .xls files can be uploaded.');
  });
});

describe('download names (AM §7)', () => {
  it.each([
    ['', 'fallback.pdf'],
    ["attachment; filename*=UTF-8'' r%C3%A9sum%C3%A9.pdf ", 'résumé.pdf'],
    ["attachment; filename* = utf-8''report.pdf", 'report.pdf'],
    ["attachment; filename*=UTF-8''%E0%A4%A; filename=\"plain.pdf\"", 'plain.pdf'],
    ['attachment; filename = "quoted \\"name\\".pdf"', 'quoted "name".pdf'],
    ['attachment; filename= spaced.pdf ', 'spaced.pdf'],
    ['attachment; filename="  /dir/ name.pdf "', 'dir name.pdf'],
    ['attachment; filename="/"', 'fallback.pdf'],
  ])('%j is saved as %j', (header, name) => expect(fileNameFromDisposition(header, 'fallback.pdf')).toBe(name));
});

describe('list query parameters at their limits (AM §7)', () => {
  const refused = (raw: RawListQuery) => {
    const result = parseListRequest(raw);
    return result.ok ? undefined : `${result.param}: ${result.message}`;
  };
  const filters = (raw: RawListQuery) => {
    const result = parseListRequest(raw);
    if (!result.ok) throw new Error(result.message);
    return result.value.filters;
  };
  const uuid = '0B8F3F52-5D0E-4D7E-9A43-6F1F5D1C0A42';

  it('reads an address without parameters as the default list, with no filter', () => {
    const result = parseListRequest({ sortBy: '', sortType: '', status: '  ', pageNo: '', rowsPerPage: '' });
    expect(result).toEqual({
      ok: true,
      value: { filters: emptyFilters, sort: { sortBy: 'ID', sortType: 'desc' }, paging: { pageNo: 1, rowsPerPage: 20 } },
    });
    expect(emptyFilters).toEqual({
      status: [], label: [], sysLabel: [], assignee: [], subBrand: [], products: [], mustHaveAllSelectedProducts: false, search: [],
      applicationType: [], completed: null, completedFrom: null, completedTo: null, createdFrom: null, createdTo: null,
    });
  });

  it('takes exactly the largest values allowed, and refuses one more', () => {
    const values = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `v${i}`));
    expect(filters({ label: values(maxFilterValues) }).label).toHaveLength(maxFilterValues);
    expect(refused({ label: values(maxFilterValues + 1) })).toBe(`label: at most ${maxFilterValues} values`);
    expect(filters({ status: JSON.stringify(['x'.repeat(200)]) }).status).toHaveLength(1);
    expect(refused({ status: JSON.stringify(['x'.repeat(201)]) })).toMatch(/^status: values must be text of at most 200/);
    expect(parseListRequest({ rowsPerPage: String(maxRowsPerPage) }).ok).toBe(true);
    expect(refused({ rowsPerPage: String(maxRowsPerPage + 1) })).toBe(`rowsPerPage: must be at most ${maxRowsPerPage}`);
    expect(refused({ pageNo: '2x' })).toBe('pageNo: must be a whole number of 1 or more');
    expect(refused({ pageNo: 'x2' })).toBe('pageNo: must be a whole number of 1 or more');
    expect(parseListRequest({ q: 'a'.repeat(maxSearchLength) }).ok).toBe(true);
    expect(refused({ q: 'a'.repeat(maxSearchLength + 1) })).toBe(`q: at most ${maxSearchLength} characters`);
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(filters({ q: words(maxSearchWords) }).search).toHaveLength(maxSearchWords);
    expect(refused({ q: words(maxSearchWords + 1) })).toBe(`q: at most ${maxSearchWords} words`);
  });

  it('accepts only user ids (or empty for none) as assignees, every one of them, in lower case', () => {
    expect(filters({ assignee: JSON.stringify([uuid, '']) }).assignee).toEqual(['', uuid.toLowerCase()]);
    expect(refused({ assignee: JSON.stringify([uuid, 'x']) })).toBe('assignee: values must be user ids (or empty for none)');
    expect(refused({ assignee: JSON.stringify([`x${uuid}`]) })).toMatch(/^assignee:/);
    expect(refused({ assignee: JSON.stringify([`${uuid}x`]) })).toMatch(/^assignee:/);
  });

  it('keeps each filter apart, and the all-products flag only with products', () => {
    expect(filters({ sysLabel: '["b","a","a"]', subBrand: '["s"]' })).toMatchObject({ sysLabel: ['a', 'b'], subBrand: ['s'], label: [], status: [] });
    expect(filters({ mustHaveAllSelectedProducts: 'TRUE' }).mustHaveAllSelectedProducts).toBe(false);
    expect(filters({ mustHaveAllSelectedProducts: 'true', products: '["CASH"]' }).mustHaveAllSelectedProducts).toBe(true);
    expect(filters({ mustHaveAllSelectedProducts: 'false', products: '["CASH"]' }).mustHaveAllSelectedProducts).toBe(false);
    expect(refused({ mustHaveAllSelectedProducts: 'yes' })).toBe('mustHaveAllSelectedProducts: must be true or false');
  });

  it('splits a search at every run of other characters', () => {
    expect(searchWords('Jo..Smith--42')).toEqual(['jo', 'smith', '42']);
  });

  it('gives equal keys to the same search in any order, and different keys to different searches', () => {
    const key = (q: string) => filtersKey(filters({ q }));
    expect(key('smith jo')).toBe(key('jo smith'));
    expect(key('smith')).not.toBe(key('jones'));
  });
});

describe('editing a completed application (AM §6 app.editcompleted)', () => {
  const completed = { Status: 'Complete', IsComplete: true, ApplicationModeCode: 'Online' };
  it('is refused with its reason without app.editcompleted, and allowed with it', () => {
    expect(actionVerdict('edit', completed, ['app.edit'])).toEqual({
      allowed: false,
      reason: 'state',
      message: 'Editing a completed application needs the app.editcompleted permission.',
    });
    expect(actionVerdict('edit', completed, ['app.edit', 'app.editcompleted'])).toEqual({ allowed: true });
  });
});
