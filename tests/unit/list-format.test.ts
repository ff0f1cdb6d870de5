import { describe, expect, it } from 'vitest';
import {
  cellText,
  columnLabels,
  formatAmount,
  formatCount,
  formatListDate,
  listCell,
  moreLabel,
  productsDisplay,
} from '../../src/domain/list-format.ts';
import { listColumnNames } from '../../src/domain/list-columns.ts';
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

describe('every column (AM §3 list row)', () => {
  // A row whose every field is different, so that a column showing another column's field shows.
  const row = {
    ...sampleRow,
    ApplicationID: 7001,
    PrimaryEmail: 'ana@example.org',
    ClientName: 'Ana Client',
    DateCreatedTimestamp: unix(new Date(2026, 9, 1, 10, 15)),
    AdviserName: 'Owen Adviser',
    PercentageComplete: 62.4,
    LowDocStatus: 'Required',
    Status: 'Complete',
    Label: 'Urgent',
    SystemLabel: 'Migrated',
    ExternalID: 'EXT-9',
    DateCompletedTimestamp: unix(new Date(2026, 9, 2, 11, 30)),
    AssigneeDisplayName: 'Ash Assignee',
    LastDocumentUploadTimestamp: unix(new Date(2024, 0, 3)),
    DocumentCount: 1234,
    Language: 'Greek',
    PromoCode: 'SPRING',
    ApplicationModeCode: 'PrintandSign',
    AccountNumber: 'ACC-77',
    ApplicationType: 'Company',
    UserUploadCount: 5678,
    SubBrandName: 'Private',
    ProductDisplayNameList: ['A', 'B', 'C', 'D'],
    AccountName: 'Ana Pty Ltd',
    InvestmentAmount: 9876543,
  };
  const expected: Record<(typeof listColumnNames)[number], [header: string, kind: string, text: string]> = {
    ID: ['ID', 'number', '7001'],
    Email: ['Email', 'text', 'ana@example.org'],
    ClientName: ['Client Name', 'text', 'Ana Client'],
    CreatedDate: ['Created', 'text', '01 Oct 10:15'],
    Owner: ['Owner', 'text', 'Owen Adviser'],
    PercentageComplete: ['% Complete', 'number', '62%'],
    DocsRequired: ['Docs Required', 'text', 'Required'],
    Status: ['Status', 'status', 'Complete'],
    Label: ['Label', 'text', 'Urgent'],
    SystemLabel: ['Tag', 'text', 'Migrated'],
    Actions: ['Actions', 'actions', ''],
    ExternalId: ['External ID', 'text', 'EXT-9'],
    DateCompleted: ['Completed', 'text', '02 Oct 11:30'],
    Assignee: ['Assignee', 'text', 'Ash Assignee'],
    LastDocumentUploadDate: ['Last Upload', 'text', '03 Jan 2024'],
    DocumentCount: ['Documents', 'number', '1,234'],
    Language: ['Language', 'text', 'Greek'],
    PromoCode: ['Promo Code', 'text', 'SPRING'],
    SigningMode: ['Signing Mode', 'text', 'Print & Sign'],
    AccountNumber: ['Account Number', 'text', 'ACC-77'],
    ApplicationType: ['Application Type', 'text', 'Company'],
    UserUploadCount: ['User Uploads', 'number', '5,678'],
    SubBrandName: ['Sub-Brand', 'text', 'Private'],
    Products: ['Products', 'products', 'A, B, C, D'],
    AccountName: ['Account Name', 'text', 'Ana Pty Ltd'],
    InvestmentAmount: ['Investment Amount', 'number', '9,876,543'],
  };

  it.each(listColumnNames)('%s: its header, the kind of cell and what it reads', (column) => {
    const [header, kind, text] = expected[column];
    const cell = listCell(row, column, now);
    expect([columnLabels[column], cell.kind, cellText(cell)]).toEqual([header, kind, text]);
  });

  it('shows a missing text value as empty, and counts the products that do not show as +N', () => {
    expect(listCell({ ...row, Label: null as unknown as string }, 'Label', now)).toEqual({ kind: 'text', text: '' });
    expect(moreLabel(2)).toBe('+2');
  });
});

