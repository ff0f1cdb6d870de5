import { describe, expect, it } from 'vitest';
import {
  columnField,
  detailRowCatalogue,
  detailRowNames,
  fixedListColumns,
  isDetailRow,
  isListColumn,
  listColumnCatalogue,
  listColumnNames,
  signingModeLabel,
  sortableColumns,
  visibleDetailRows,
  visibleListColumns,
} from '../../src/domain/list-columns.ts';

describe('list columns', () => {
  it('sorts by every column but Actions, each through one list row field', () => {
    expect([...sortableColumns].sort()).toEqual(listColumnNames.filter((name) => name !== 'Actions').sort());
    expect(new Set(Object.values(columnField)).size).toBe(sortableColumns.length);
  });

  it('keeps ID, Email, AccountName and Status visible whatever is stored', () => {
    const hidden = new Map(listColumnNames.map((name) => [name, false]));
    expect(visibleListColumns(hidden)).toEqual(['ID', 'Email', 'Status', 'AccountName']);
    expect(fixedListColumns).toEqual(['ID', 'Email', 'AccountName', 'Status']);
  });

  it('applies stored choices over the defaults, in the spec order', () => {
    const visible = visibleListColumns(new Map([['InvestmentAmount', true], ['ClientName', false]]));
    expect(visible).toContain('InvestmentAmount');
    expect(visible).not.toContain('ClientName');
    expect(visible.indexOf('ID')).toBeLessThan(visible.indexOf('InvestmentAmount'));
  });

  it('shows detail rows only as configured', () => {
    expect(visibleDetailRows(new Map(detailRowNames.map((name) => [name, false])))).toEqual([]);
    expect(visibleDetailRows(new Map([['TimeToComplete', true]]))).toContain('TimeToComplete');
  });

  it('maps the signing mode code Pin to Online and anything else to Print & Sign', () => {
    expect(signingModeLabel('Pin')).toBe('Online');
    expect(signingModeLabel('PrintandSign')).toBe('Print & Sign');
    expect(signingModeLabel('')).toBe('Print & Sign');
  });

  it('shows a tenant that has configured nothing its default columns and detail rows', () => {
    expect(visibleListColumns(new Map())).toEqual([
      'ID', 'Email', 'ClientName', 'CreatedDate', 'Owner', 'PercentageComplete', 'Status', 'Label',
      'SystemLabel', 'Actions', 'Assignee', 'AccountName',
    ]);
    expect(visibleDetailRows(new Map())).toEqual(['Mode', 'Owner', 'Assignee', 'Label', 'Tag', 'SubBrand', 'Products']);
  });

  it('describes every column and detail row for the admin page, each in its own words', () => {
    for (const catalogue of [listColumnCatalogue, detailRowCatalogue]) {
      const descriptions = Object.values(catalogue).map((item) => item.description);
      for (const description of descriptions) expect(description).toMatch(/^[A-Z][^]{8,}$/);
      expect(typeof Object.values(catalogue)[0]?.defaultViewable).toBe('boolean');
    }
    expect(new Set(Object.values(detailRowCatalogue).map((item) => item.description)).size).toBe(detailRowNames.length);
    // Two list columns share a detail row's words, never each other's.
    expect(new Set(Object.values(listColumnCatalogue).map((item) => item.description)).size).toBe(listColumnNames.length);
    for (const name of fixedListColumns) expect(listColumnCatalogue[name].description).toMatch(/\(always shown\)$/);
  });

  it('recognises exactly the column and detail row names, as written', () => {
    for (const name of listColumnNames) expect(isListColumn(name)).toBe(true);
    for (const name of detailRowNames) expect(isDetailRow(name)).toBe(true);
    for (const name of ['', 'id', 'Email ', 'Mode', 'Tag']) expect(isListColumn(name)).toBe(false);
    for (const name of ['', 'mode', 'ID', 'Status']) expect(isDetailRow(name)).toBe(false);
  });
});
