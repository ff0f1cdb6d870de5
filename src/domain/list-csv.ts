/**
 * The characters besides tab and carriage return that make spreadsheets run a cell starting with
 * one as a formula: = + - @, and full-width ＝ ＋ － ＠ too (some spreadsheets fold them to their
 * ASCII forms before evaluating).
 */
export const formulaSigns: readonly string[] = ['=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

/**
 * What makes a field quoted: a quote, CR, LF or any separator a spreadsheet may be set to split on:
 * the comma, and the semicolon and tab of locales whose decimal mark is a comma. Unquoted,
 * `acct;=1+1` would open in such a locale as two cells, the second a formula the leading-character
 * rule never saw.
 */
export const quoteTriggers: readonly string[] = ['"', ',', ';', '\t', '\r', '\n'];

const characterClass = (characters: readonly string[]) =>
  `[${characters.map((character) => `\\u{${character.codePointAt(0)?.toString(16)}}`).join('')}]`;
const formulaStart = new RegExp(`^${characterClass([...formulaSigns, '\t', '\r'])}`, 'u');
const needsQuotes = new RegExp(characterClass(quoteTriggers), 'u');

/** CSV injection (OWASP): a leading apostrophe makes spreadsheets show a formula as text instead. */
export const neutraliseFormula = (value: string): string => (formulaStart.test(value) ? `'${value}` : value);

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
