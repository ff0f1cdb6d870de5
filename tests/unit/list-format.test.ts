import { describe, expect, it } from 'vitest';
import {
  cellText,
  formatAmount,
  formatCount,
  formatListDate,
  listCell,
  productsDisplay,
} from '../../src/domain/list-format.ts';
import { sampleRow } from '../machines/application-list.model.ts';

const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const now = new Date(2026, 10, 21, 9, 30).getTime();

describe('list dates (AM §9)', () => {
  it("shows a date within the last year as 'DD MMM HH:mm'", () => {
    expect(formatListDate(unix(new Date(2026, 2, 5, 14, 7)), now)).toBe('05 Mar 14:07');
    expect(formatListDate(unix(new Date(2025, 10, 22, 8, 0)), now)).toBe('22 Nov 08:00');
  });

  it("shows an older date as 'DD MMM YYYY'", () => {
    expect(formatListDate(unix(new Date(2025, 10, 20, 8, 0)), now)).toBe('20 Nov 2025');
    expect(formatListDate(unix(new Date(2019, 0, 1)), now)).toBe('01 Jan 2019');
  });

  it('shows nothing for "never" (null, zero or the server\'s -1)', () => {
    expect(formatListDate(null, now)).toBe('');
    expect(formatListDate(0, now)).toBe('');
    expect(formatListDate(-1, now)).toBe('');
  });
});

describe('amounts and counts (AM §9)', () => {
  it('have thousands separators and no decimals', () => {
    expect(formatAmount(1234567.89)).toBe('1,234,568');
    expect(formatAmount(250000)).toBe('250,000');
    expect(formatAmount(0)).toBe('0');
    expect(formatAmount(null)).toBe('');
    expect(formatCount(1234)).toBe('1,234');
  });
});

describe('products (AM §9)', () => {
  it('shows the first 3 and keeps the rest for the +N tooltip', () => {
    expect(productsDisplay(['A', 'B', 'C', 'D', 'E'])).toEqual({ shown: ['A', 'B', 'C'], rest: ['D', 'E'] });
    expect(productsDisplay(['A', 'B'])).toEqual({ shown: ['A', 'B'], rest: [] });
  });
});

describe('list cells (AM §3)', () => {
  it('shows AdviserName as Owner and SystemLabel as Tag', () => {
    const row = { ...sampleRow, AdviserName: 'Olivia Owner', SystemLabel: 'Migrated' };
    expect(listCell(row, 'Owner', now)).toEqual({ kind: 'text', text: 'Olivia Owner' });
    expect(listCell(row, 'SystemLabel', now)).toEqual({ kind: 'text', text: 'Migrated' });
  });

  it('maps the signing mode code Pin to Online and anything else to Print & Sign', () => {
    expect(cellText(listCell({ ...sampleRow, ApplicationModeCode: 'Pin' }, 'SigningMode', now))).toBe('Online');
    expect(cellText(listCell({ ...sampleRow, ApplicationModeCode: 'PrintandSign' }, 'SigningMode', now))).toBe('Print & Sign');
  });

  it('styles the known statuses and keeps unknown ones plain', () => {
    expect(listCell({ ...sampleRow, Status: 'Documents pending' }, 'Status', now)).toMatchObject({ style: 'pending' });
    expect(listCell({ ...sampleRow, Status: 'Complete' }, 'Status', now)).toMatchObject({ style: 'success' });
    expect(listCell({ ...sampleRow, Status: 'Locked' }, 'Status', now)).toMatchObject({ style: 'locked' });
    expect(listCell({ ...sampleRow, Status: 'Awaiting courier' }, 'Status', now)).toEqual({
      kind: 'status',
      text: 'Awaiting courier',
      style: 'plain',
    });
  });

  it('formats amounts, percentages and products', () => {
    expect(cellText(listCell({ ...sampleRow, InvestmentAmount: 1500000.5 }, 'InvestmentAmount', now))).toBe('1,500,001');
    expect(cellText(listCell({ ...sampleRow, PercentageComplete: 40 }, 'PercentageComplete', now))).toBe('40%');
    const products = listCell({ ...sampleRow, ProductDisplayNameList: ['A', 'B', 'C', 'D'] }, 'Products', now);
    expect(products).toEqual({ kind: 'products', shown: ['A', 'B', 'C'], rest: ['D'] });
    expect(listCell(sampleRow, 'Actions', now)).toEqual({ kind: 'actions' });
  });
});
