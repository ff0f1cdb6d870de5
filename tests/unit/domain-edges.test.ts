import { describe, expect, it } from 'vitest';
import { bulkUploadTexts, isBulkUploadFileName, uploadingPercent } from '../../src/domain/bulk-upload.ts';
import { fileNameFromDisposition } from '../../src/domain/content-disposition.ts';
import { navigationItems } from '../../src/domain/navigation.ts';
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
