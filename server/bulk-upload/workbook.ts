import ExcelJS from 'exceljs';
import {
  applicationTypes,
  applicationsSheetName,
  instructionsSheetName,
  issuesHeader,
  languages,
  listsSheetName,
  signingModes,
  templateColumns,
} from './template-columns.ts';
import type { CellProblem } from './validate-rows.ts';

/** The tenant's closed lists, as the template offers them and the validation accepts them. */
export interface TemplateLookups {
  subBrands: readonly string[];
  /** Product display names (codes are accepted too). */
  products: readonly { code: string; name: string }[];
  owners: readonly string[];
}

/** How many data rows the template's drop-down lists cover (and the upload's row limit). */
export const maxDataRows = 10_000;

const columnLetter = (index: number) => {
  let letter = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letter = String.fromCharCode(65 + ((n - 1) % 26)) + letter;
  return letter;
};

/**
 * The tenant's bulk-upload template: the Applications sheet (header row, drop-down lists on the
 * closed fields), the Instructions sheet explaining each column, and a hidden Lists sheet the
 * drop-downs read (a list written inline in the validation is limited to 255 characters).
 */
export async function buildTemplate(lookups: TemplateLookups): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Back-office portal';
  const sheet = workbook.addWorksheet(applicationsSheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  const instructions = workbook.addWorksheet(instructionsSheetName);
  const lists = workbook.addWorksheet(listsSheetName, { state: 'hidden' });

  sheet.columns = templateColumns.map((column) => ({
    header: column.header,
    key: column.key,
    width: column.width,
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  templateColumns.forEach((column, index) => {
    if (column.required) header.getCell(index + 1).note = 'Required';
  });

  const closedLists: Record<string, readonly string[]> = {
    ApplicationType: applicationTypes.map(([name]) => name),
    SubBrand: lookups.subBrands,
    Owner: lookups.owners,
    Language: languages,
    SigningMode: signingModes.map(([name]) => name),
  };
  let listColumn = 0;
  for (const [key, values] of Object.entries(closedLists)) {
    const letter = columnLetter(listColumn++);
    lists.getCell(`${letter}1`).value = key;
    values.forEach((value, index) => (lists.getCell(`${letter}${index + 2}`).value = value));
    const target = columnLetter(templateColumns.findIndex((column) => column.key === key));
    if (values.length === 0) continue;
    // @ts-expect-error exceljs 4.4 has Worksheet.dataValidations (ranges written as one sqref) but its typings omit it.
    sheet.dataValidations.add(`${target}2:${target}${maxDataRows + 1}`, {
      type: 'list',
      allowBlank: true,
      showErrorMessage: true,
      errorTitle: 'Not in the list',
      error: 'Choose a value from the list.',
      formulae: [`${listsSheetName}!$${letter}$2:$${letter}$${values.length + 1}`],
    });
  }
  const productLetter = columnLetter(listColumn);
  lists.getCell(`${productLetter}1`).value = 'Products';
  lookups.products.forEach(
    (product, index) =>
      (lists.getCell(`${productLetter}${index + 2}`).value = `${product.name} (${product.code})`),
  );

  instructions.columns = [
    { header: 'Column', key: 'column', width: 22 },
    { header: 'Required', key: 'required', width: 10 },
    { header: 'What to enter', key: 'help', width: 90 },
  ];
  instructions.getRow(1).font = { bold: true };
  for (const column of templateColumns) {
    const help =
      column.key === 'Products' && lookups.products.length > 0
        ? `${column.help} Available: ${lookups.products.map((product) => product.name).join(', ')}.`
        : column.help;
    instructions.addRow({ column: column.header, required: column.required ? 'Yes' : 'No', help });
  }
  instructions.addRow({});
  instructions.addRow({
    column: 'Notes',
    help: `Fill one application per row on the ${applicationsSheetName} sheet, at most ${maxDataRows.toLocaleString('en-AU')} rows. Do not rename the sheets or change the header row.`,
  });
  instructions.addRow({
    help: 'If a file has problems nothing is imported: download the file with the highlighted issues, correct them and upload it again.',
  });

  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A cell's value as text, whatever exceljs made of it (rich text, hyperlink, formula, date). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value)
    return value.richText
      .map((run) => run.text)
      .join('')
      .trim();
  if ('text' in value && typeof value.text === 'string') return value.text.trim();
  if ('result' in value) return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return '';
}

export type UploadRows = { row: number; cells: string[]; numbers: (number | undefined)[] }[];

export type ReadResult =
  { ok: true; workbook: ExcelJS.Workbook; rows: UploadRows } | { ok: false; problem: string };

/** Loads an .xlsx and reads the Applications sheet as the template defines it, or says why not. */
export async function readUpload(buffer: Buffer): Promise<ReadResult> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    return { ok: false, problem: 'The file could not be read as an .xlsx workbook.' };
  }
  const sheet = workbook.getWorksheet(applicationsSheetName);
  if (!sheet) return { ok: false, problem: `The workbook has no ${applicationsSheetName} sheet.` };
  const header = sheet.getRow(1);
  for (const [index, column] of templateColumns.entries()) {
    if (cellText(header.getCell(index + 1).value) !== column.header) {
      return {
        ok: false,
        problem: `Column ${columnLetter(index)} of the header row must be "${column.header}".`,
      };
    }
  }
  const extra = cellText(header.getCell(templateColumns.length + 1).value);
  if (extra !== '' && extra !== issuesHeader)
    return { ok: false, problem: `The header row has an unexpected column "${extra}".` };

  const rows: UploadRows = [];
  for (let rowNumber = 2; rowNumber <= sheet.rowCount; rowNumber++) {
    const row = sheet.getRow(rowNumber);
    const cells: string[] = [];
    const numbers: (number | undefined)[] = [];
    for (let index = 0; index < templateColumns.length; index++) {
      const value = row.getCell(index + 1).value;
      cells.push(cellText(value));
      numbers.push(typeof value === 'number' ? value : undefined);
    }
    if (cells.every((cell) => cell === '')) continue;
    if (rows.length === maxDataRows)
      return {
        ok: false,
        problem: `The file has more than ${maxDataRows.toLocaleString('en-AU')} applications.`,
      };
    rows.push({ row: rowNumber, cells, numbers });
  }
  if (rows.length === 0)
    return { ok: false, problem: `The ${applicationsSheetName} sheet has no applications.` };
  return { ok: true, workbook, rows };
}

const errorColour = 'FFFF9999';
const errorFill: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: errorColour } };

/**
 * The uploaded workbook with each invalid cell filled red with a comment saying what is wrong, and
 * the Issues column summarising each row's problems (cleared on rows that have none).
 */
export async function writeErrorWorkbook(
  workbook: ExcelJS.Workbook,
  problems: readonly CellProblem[],
): Promise<Buffer> {
  const sheet = workbook.getWorksheet(applicationsSheetName);
  if (!sheet) throw new Error('The Applications sheet disappeared.');
  const issuesColumn = templateColumns.length + 1;
  const issueHeader = sheet.getRow(1).getCell(issuesColumn);
  issueHeader.value = issuesHeader;
  issueHeader.font = { bold: true };
  sheet.getColumn(issuesColumn).width = 60;
  // A re-uploaded error workbook starts clean: the marks of the last round go, this round's are added.
  for (let rowNumber = 2; rowNumber <= sheet.rowCount; rowNumber++) {
    const row = sheet.getRow(rowNumber);
    const issues = row.getCell(issuesColumn);
    if (issues.value !== null) issues.value = null;
    for (let column = 1; column <= templateColumns.length; column++) {
      const cell = row.getCell(column);
      if (cell.fill?.type === 'pattern' && cell.fill.fgColor?.argb === errorColour) {
        // Styles read from a file are shared between cells: each cell gets its own copy before a change.
        cell.style = { ...cell.style, fill: { type: 'pattern', pattern: 'none' } };
        // exceljs has no API to remove a comment (assigning creates one); the cell keeps it in _comment.
        Reflect.deleteProperty(cell, '_comment');
      }
    }
  }
  const byRow = new Map<number, string[]>();
  for (const problem of problems) {
    const cell = sheet.getRow(problem.row).getCell(problem.column + 1);
    cell.style = { ...cell.style, fill: errorFill };
    cell.note = problem.message;
    const messages = byRow.get(problem.row) ?? [];
    messages.push(`${templateColumns[problem.column]?.header ?? ''}: ${problem.message}`);
    byRow.set(problem.row, messages);
  }
  for (const [rowNumber, messages] of byRow)
    sheet.getRow(rowNumber).getCell(issuesColumn).value = messages.join('; ');
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
