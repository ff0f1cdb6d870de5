import { describe, expect, it } from 'vitest';
import {
  columnField,
  detailRowNames,
  fixedListColumns,
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
});
