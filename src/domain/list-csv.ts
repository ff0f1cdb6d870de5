import { columnField, signingModeLabel, type DataColumnName, type SortField } from './list-columns.ts';

/**
 * Spreadsheets run a cell that starts with = + - @, a tab or a carriage return as a formula
 * (CSV injection, OWASP). A leading apostrophe makes them show it as text instead.
 */
// Full-width ＝ ＋ － ＠ too: some spreadsheets fold them to their ASCII forms before evaluating.
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
export const neutraliseFormula = (value: string): string => (formulaStart.test(value) ? `'${value}` : value);

/**
 * Quoted when it holds a quote, CR, LF or any separator a spreadsheet may be set to split on: the
 * comma, and the semicolon and tab of locales whose decimal mark is a comma. Unquoted, `acct;=1+1`
 * would open in such a locale as two cells, the second a formula the leading-character rule never saw.
 */
const needsQuotes = /[",;\t\r\n]/;

/** One RFC 4180 field: neutralised, then quoted when it holds a quote, a separator, CR or LF. */
export function csvField(value: string): string {
  const safe = neutraliseFormula(value);
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One RFC 4180 record, CRLF-terminated. */
export function csvRecord(values: readonly string[]): string {
  let record = '';
  for (let index = 0; index < values.length; index++) record += (index === 0 ? '' : ',') + csvField(values[index] ?? '');
  return `${record}\r\n`;
}

/** A list row's values by field, as the export reads them (the same fields the list answers). */
export type ListRowValues = Partial<Record<SortField, string | number | null | readonly string[]>>;

const timestampFields: ReadonlySet<SortField> = new Set([
  'DateCreatedTimestamp',
  'DateCompletedTimestamp',
  'LastDocumentUploadTimestamp',
]);

const secondsPerDay = 86_400;
/** Calendar dates by day number: an export of a million rows meets only a few thousand days. */
const dayText = new Map<number, string>();
const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/** Unix seconds as ISO 8601 in UTC (whole seconds); empty for "never" (null or negative, AM §3). */
export function isoFromUnixSeconds(seconds: number | null): string {
  if (seconds === null || !(seconds >= 0)) return '';
  const whole = Math.floor(seconds);
  const day = Math.floor(whole / secondsPerDay);
  let date = dayText.get(day);
  if (date === undefined) {
    date = new Date(day * secondsPerDay * 1000).toISOString().slice(0, 10);
    if (dayText.size < 100_000) dayText.set(day, date);
  }
  const time = whole - day * secondsPerDay;
  return `${date}T${twoDigits(Math.floor(time / 3600))}:${twoDigits(Math.floor((time % 3600) / 60))}:${twoDigits(time % 60)}Z`;
}

type CellValue = ListRowValues[SortField];

/**
 * How a column's value becomes the text of its export cell (before CSV escaping): dates as ISO
 * 8601, the signing mode as shown, products by name. Chosen once per column, applied per row.
 */
export function listCellFormatter(column: DataColumnName): (value: CellValue) => string {
  const field = columnField[column];
  if (timestampFields.has(field)) return (value) => isoFromUnixSeconds(typeof value === 'number' ? value : null);
  if (field === 'ApplicationModeCode') return (value) => signingModeLabel(String(value ?? ''));
  return (value) => (Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? '' : String(value));
}

/** The text of one export cell, before CSV escaping. */
export const listCellText = (column: DataColumnName, row: ListRowValues): string => listCellFormatter(column)(row[columnField[column]]);
