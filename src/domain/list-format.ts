import dayjs from 'dayjs';
import type { ApplicationListRow } from '../schemas/applications.schema.ts';
import { statusStyle, type StatusStyle } from './application-status.ts';
import { signingModeLabel, type ListColumnName } from './list-columns.ts';

/**
 * How the application list shows each value (AM §3 list row, §9 dates, products, amounts).
 * Pure functions: `now` is passed in so the one-year rule can be tested.
 */

/** Counts and amounts: thousands separators, no decimals (AM §9). One locale, so every tenant reads the same. */
const wholeNumber = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 0 });

/** '1,234'; also the count in the list title. */
export const formatCount = (value: number): string => wholeNumber.format(value);

/** AM §9: amounts with no decimals and thousands separators; no amount shows nothing. */
export const formatAmount = (value: number | null): string => (value === null ? '' : wholeNumber.format(value));

export const recentDateFormat = 'DD MMM HH:mm';
export const olderDateFormat = 'DD MMM YYYY';

/**
 * AM §9: a list date within the last year reads 'DD MMM HH:mm', an older one 'DD MMM YYYY'.
 * Timestamps are unix seconds; null, zero or negative (the server's "never") show nothing.
 */
export function formatListDate(timestamp: number | null, now: number): string {
  if (timestamp === null || timestamp <= 0) return '';
  const date = dayjs.unix(timestamp);
  const yearAgo = dayjs(now).subtract(1, 'year');
  return date.format(date.isAfter(yearAgo) ? recentDateFormat : olderDateFormat);
}

/** AM §9: the first 3 products show; the rest are counted ('+N') and listed in a tooltip. */
export const shownProductCount = 3;

export interface ProductsDisplay {
  shown: string[];
  rest: string[];
}

export function productsDisplay(names: readonly string[]): ProductsDisplay {
  return { shown: names.slice(0, shownProductCount), rest: names.slice(shownProductCount) };
}

/** '+N' for the products (or filter values) that do not show. */
export const moreLabel = (count: number): string => `+${count}`;

export const formatPercentage = (value: number): string => `${Math.round(value)}%`;

/** Column headers. The spec names the columns, not their captions: these follow the row's wording (Owner, Tag). */
export const columnLabels: Record<ListColumnName, string> = {
  ID: 'ID',
  Email: 'Email',
  ClientName: 'Client Name',
  CreatedDate: 'Created',
  Owner: 'Owner',
  PercentageComplete: '% Complete',
  DocsRequired: 'Docs Required',
  Status: 'Status',
  Label: 'Label',
  SystemLabel: 'Tag',
  Actions: 'Actions',
  ExternalId: 'External ID',
  DateCompleted: 'Completed',
  Assignee: 'Assignee',
  LastDocumentUploadDate: 'Last Upload',
  DocumentCount: 'Documents',
  Language: 'Language',
  PromoCode: 'Promo Code',
  SigningMode: 'Signing Mode',
  AccountNumber: 'Account Number',
  ApplicationType: 'Application Type',
  UserUploadCount: 'User Uploads',
  SubBrandName: 'Sub-Brand',
  Products: 'Products',
  AccountName: 'Account Name',
  InvestmentAmount: 'Investment Amount',
};

/**
 * Each column's width in rem. The table lays out by these alone (table-layout: fixed), not by the
 * rows on screen, so a new page never moves a column; a longer value wraps to a second line, then
 * ends in an ellipsis. The default columns (ID to Account Name and the row menu, 60 rem) fit the
 * content area of a 1280 px window beside the tick boxes; wider windows spread the extra room.
 */
export const columnWidthsRem: Record<ListColumnName, number> = {
  ID: 3.25,
  Email: 5,
  ClientName: 5,
  CreatedDate: 4.5,
  Owner: 4.75,
  PercentageComplete: 5,
  DocsRequired: 5.5,
  // Room for the longest status word, 'Depersonalised' (issue 32: it was cut to 'Depersonalis').
  Status: 8,
  // Room for the longest single word of a label or tag ('Compliance', 'Re-papered'): a word never breaks.
  Label: 5.5,
  SystemLabel: 5.5,
  Actions: 3,
  ExternalId: 5.5,
  DateCompleted: 5.5,
  Assignee: 5,
  LastDocumentUploadDate: 5.5,
  DocumentCount: 5,
  Language: 5,
  PromoCode: 5,
  SigningMode: 5.5,
  AccountNumber: 6,
  ApplicationType: 6.5,
  UserUploadCount: 5,
  SubBrandName: 6,
  Products: 9,
  AccountName: 5.75,
  InvestmentAmount: 6.5,
};

/** Columns up to this total fit the content area at 1280 px; more make the table scroll sideways in its own box. */
export const fittingWidthRem = 60.5;

/** What one cell shows: the view renders each kind (a status badge, a products tooltip, the row menu). */
export type ListCell =
  | { kind: 'text'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'status'; text: string; style: StatusStyle }
  | ({ kind: 'products' } & ProductsDisplay)
  | { kind: 'actions' };

const text = (value: string | null): ListCell => ({ kind: 'text', text: value ?? '' });
const number = (value: string): ListCell => ({ kind: 'number', text: value });

/** The cell of `column` for `row`; unknown statuses are plain text (ARCHITECTURE §5). */
export function listCell(row: ApplicationListRow, column: ListColumnName, now: number): ListCell {
  switch (column) {
    case 'ID':
      return number(String(row.ApplicationID));
    case 'Email':
      return text(row.PrimaryEmail);
    case 'ClientName':
      return text(row.ClientName);
    case 'CreatedDate':
      return text(formatListDate(row.DateCreatedTimestamp, now));
    case 'Owner':
      return text(row.AdviserName);
    case 'PercentageComplete':
      return number(formatPercentage(row.PercentageComplete));
    case 'DocsRequired':
      return text(row.LowDocStatus);
    case 'Status':
      return { kind: 'status', text: row.Status, style: statusStyle(row.Status) };
    case 'Label':
      return text(row.Label);
    case 'SystemLabel':
      return text(row.SystemLabel);
    case 'Actions':
      return { kind: 'actions' };
    case 'ExternalId':
      return text(row.ExternalID);
    case 'DateCompleted':
      return text(formatListDate(row.DateCompletedTimestamp, now));
    case 'Assignee':
      return text(row.AssigneeDisplayName);
    case 'LastDocumentUploadDate':
      return text(formatListDate(row.LastDocumentUploadTimestamp, now));
    case 'DocumentCount':
      return number(formatCount(row.DocumentCount));
    case 'Language':
      return text(row.Language);
    case 'PromoCode':
      return text(row.PromoCode);
    case 'SigningMode':
      return text(signingModeLabel(row.ApplicationModeCode));
    case 'AccountNumber':
      return text(row.AccountNumber);
    case 'ApplicationType':
      return text(row.ApplicationType);
    case 'UserUploadCount':
      return number(formatCount(row.UserUploadCount));
    case 'SubBrandName':
      return text(row.SubBrandName);
    case 'Products':
      return { kind: 'products', ...productsDisplay(row.ProductDisplayNameList) };
    case 'AccountName':
      return text(row.AccountName);
    case 'InvestmentAmount':
      return number(formatAmount(row.InvestmentAmount));
  }
}

/** The cell as plain text (the email view's summary, tooltips, accessible names). */
export function cellText(cell: ListCell): string {
  switch (cell.kind) {
    case 'products':
      return [...cell.shown, ...cell.rest].join(', ');
    case 'actions':
      return '';
    default:
      return cell.text;
  }
}
