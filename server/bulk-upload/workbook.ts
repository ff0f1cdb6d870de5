import { Worker } from 'node:worker_threads';
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

export type UploadRows = { row: number; cells: string[]; numbers: (number | undefined)[] }[];

export type ReadResult = { ok: true; rows: UploadRows } | { ok: false; problem: string };

/** What the worker needs to know of the template: the sheet, its header texts, the row limit. */
const layout = {
  sheetName: applicationsSheetName,
  headers: templateColumns.map((column) => column.header),
  issuesHeader,
  maxRows: maxDataRows,
};

const workerUrl = new URL('./workbook-worker.mjs', import.meta.url);
/** A job that takes longer has met a file built to be slow; it is ended and the file refused. */
const jobTimeoutMs = 60_000;
const jobTimeout = 'BULK_UPLOAD_JOB_TIMEOUT';
/** How a job ends when the file, not the server, is at fault. */
const refusedFile = new Set([jobTimeout, 'ERR_WORKER_OUT_OF_MEMORY']);

/**
 * Runs one exceljs job on a thread of its own (workbook-worker.mjs), so that parsing or writing a
 * 10,000-row workbook never holds this thread's event loop. The thread's heap is capped: a file
 * that would need more ends that thread (and is refused), never the server.
 */
function workbookJob<T>(job: Record<string, unknown>, onRows?: (rows: UploadRows) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(workerUrl, {
      workerData: { ...job, layout },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      settle(() => reject(Object.assign(new Error('The workbook job took too long.'), { code: jobTimeout })));
      void worker.terminate();
    }, jobTimeoutMs);
    worker.on('message', (message: { rows?: UploadRows; result?: T; error?: string }) => {
      if (message.rows) return onRows?.(message.rows);
      settle(() =>
        message.error === undefined ? resolve(message.result as T) : reject(new Error(message.error)),
      );
    });
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`The workbook thread ended (${code}).`))));
  });
}

const oleHeader = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const zipHeader = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * What an upload is by its content, whatever its name says: an .xlsx (a zip, to be checked by the
 * zip guard before it is read), an .xls (Excel 97-2003, read with SheetJS on the worker thread), or
 * neither.
 */
export function workbookFormat(content: Buffer): 'xlsx' | 'xls' | undefined {
  if (content.subarray(0, 4).equals(zipHeader)) return 'xlsx';
  if (content.subarray(0, 8).equals(oleHeader)) return 'xls';
  return undefined;
}

/** Loads an .xlsx or .xls and reads the Applications sheet as the template defines it, or says why not. */
export async function readUpload(content: Buffer): Promise<ReadResult> {
  try {
    const rows: UploadRows = [];
    const read = await workbookJob<ReadResult>({ op: 'read', content }, (part) => {
      for (const row of part) rows.push(row);
    });
    return read.ok ? { ok: true, rows } : read;
  } catch (error) {
    // The thread ran out of memory or time on the file: the answer of any file exceljs cannot read.
    if (!refusedFile.has(String((error as { code?: unknown }).code))) throw error;
    return { ok: false, problem: 'The file could not be read as an .xlsx workbook.' };
  }
}

/**
 * The uploaded workbook with each invalid cell filled red with a comment saying what is wrong, and
 * the Issues column summarising each row's problems (cleared on rows that have none).
 */
export async function writeErrorWorkbook(content: Buffer, problems: readonly CellProblem[]): Promise<Buffer> {
  return Buffer.from(await workbookJob<ArrayBuffer>({ op: 'writeErrors', content, problems }));
}
