// Reads an uploaded workbook, and writes its error workbook, on a worker thread (workbook-thread.ts
// starts one per job): exceljs parses and serialises synchronously, about 300 ms for 10,000 rows,
// which on the server's thread would hold every other request for as long. Plain JavaScript, like
// pglite-worker.mjs: it runs unchanged under tsx, Vitest and the bundled server, none of which
// compile a worker's file. What the template looks like (sheet, header texts) comes in the job, so
// template-columns.ts stays the one place that says it.
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';

if (!parentPort) throw new Error('workbook-worker.mjs runs as a worker thread.');

/** A cell's value as text, whatever exceljs made of it (rich text, hyperlink, formula, date). */
function cellText(value) {
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
  if ('result' in value) return value.result === undefined ? '' : cellText(value.result);
  if ('error' in value) return String(value.error);
  return '';
}

const columnLetter = (index) => {
  let letter = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letter = String.fromCharCode(65 + ((n - 1) % 26)) + letter;
  return letter;
};

/** An Excel 97-2003 workbook (BIFF8 in an OLE2 compound file) starts with this header. */
const oleHeader = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const isXls = (content) => oleHeader.every((byte, index) => content[index] === byte);

/**
 * An .xls read by SheetJS (@e965/xlsx, the maintained republish; exceljs reads only .xlsx) and
 * written again as an .xlsx that exceljs opens: everything after this point, the reading of the
 * template and the error workbook, is the same for both formats, and the error workbook is an
 * .xlsx. Only the Applications sheet is read. An .xls is not compressed (no bomb to defuse as for a
 * zip); its size is bounded by the upload limit, a BIFF8 sheet by 65,536 rows, and this thread by
 * its heap cap and the job's time limit.
 */
function xlsAsXlsx(content, sheetName) {
  const book = XLSX.read(content, { type: 'buffer', cellDates: true, dense: true, sheets: [sheetName] });
  // Only the Applications sheet goes on (the others were not read). A workbook without it gets an
  // empty sheet of another name, so the usual "no Applications sheet" answer follows.
  const sheet = book.Sheets[sheetName];
  const out = XLSX.utils.book_new();
  if (sheet) XLSX.utils.book_append_sheet(out, sheet, sheetName);
  else XLSX.utils.book_append_sheet(out, XLSX.utils.aoa_to_sheet([]), 'Sheet1');
  return XLSX.write(out, { type: 'buffer', bookType: 'xlsx', compression: false });
}

async function load(content, sheetName) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(isXls(content) ? xlsAsXlsx(content, sheetName) : content);
  return workbook;
}

/** The Applications sheet's rows as the template defines them, or the problem that stops reading. */
async function read({ content, layout }) {
  let workbook;
  try {
    workbook = await load(content, layout.sheetName);
  } catch {
    return {
      ok: false,
      problem: isXls(content)
        ? 'The file could not be read as an .xls workbook.'
        : 'The file could not be read as an .xlsx workbook.',
    };
  }
  const sheet = workbook.getWorksheet(layout.sheetName);
  if (!sheet) return { ok: false, problem: `The workbook has no ${layout.sheetName} sheet.` };
  const header = sheet.getRow(1);
  for (const [index, text] of layout.headers.entries()) {
    if (cellText(header.getCell(index + 1).value) !== text)
      return { ok: false, problem: `Column ${columnLetter(index)} of the header row must be "${text}".` };
  }
  const extra = cellText(header.getCell(layout.headers.length + 1).value);
  if (extra !== '' && extra !== layout.issuesHeader)
    return { ok: false, problem: `The header row has an unexpected column "${extra}".` };

  const rows = [];
  for (let rowNumber = 2; rowNumber <= sheet.rowCount; rowNumber++) {
    const row = sheet.getRow(rowNumber);
    const cells = [];
    const numbers = [];
    for (let index = 0; index < layout.headers.length; index++) {
      const value = row.getCell(index + 1).value;
      cells.push(cellText(value));
      numbers.push(typeof value === 'number' ? value : undefined);
    }
    if (cells.every((cell) => cell === '')) continue;
    if (rows.length === layout.maxRows)
      return {
        ok: false,
        problem: `The file has more than ${layout.maxRows.toLocaleString('en-AU')} applications.`,
      };
    rows.push({ row: rowNumber, cells, numbers });
  }
  if (rows.length === 0) return { ok: false, problem: `The ${layout.sheetName} sheet has no applications.` };
  return { ok: true, rows };
}

const errorColour = 'FFFF9999';
const errorFill = { type: 'pattern', pattern: 'solid', fgColor: { argb: errorColour } };

/**
 * The uploaded workbook with each invalid cell filled red with a comment saying what is wrong, and
 * the Issues column summarising each row's problems (cleared on rows that have none).
 */
async function writeErrors({ content, layout, problems }) {
  const workbook = await load(content, layout.sheetName);
  const sheet = workbook.getWorksheet(layout.sheetName);
  if (!sheet) throw new Error(`The ${layout.sheetName} sheet disappeared.`);
  const issuesColumn = layout.headers.length + 1;
  const issueHeader = sheet.getRow(1).getCell(issuesColumn);
  issueHeader.value = layout.issuesHeader;
  issueHeader.font = { bold: true };
  sheet.getColumn(issuesColumn).width = 60;
  // A re-uploaded error workbook starts clean: the marks of the last round go, this round's are added.
  for (let rowNumber = 2; rowNumber <= sheet.rowCount; rowNumber++) {
    const row = sheet.getRow(rowNumber);
    const issues = row.getCell(issuesColumn);
    if (issues.value !== null) issues.value = null;
    for (let column = 1; column <= layout.headers.length; column++) {
      const cell = row.getCell(column);
      if (cell.fill?.type === 'pattern' && cell.fill.fgColor?.argb === errorColour) {
        // Styles read from a file are shared between cells: each cell gets its own copy before a change.
        cell.style = { ...cell.style, fill: { type: 'pattern', pattern: 'none' } };
        // exceljs has no API to remove a comment (assigning creates one); the cell keeps it in _comment.
        Reflect.deleteProperty(cell, '_comment');
      }
    }
  }
  const byRow = new Map();
  for (const problem of problems) {
    const cell = sheet.getRow(problem.row).getCell(problem.column + 1);
    cell.style = { ...cell.style, fill: errorFill };
    cell.note = problem.message;
    const messages = byRow.get(problem.row) ?? [];
    messages.push(`${layout.headers[problem.column] ?? ''}: ${problem.message}`);
    byRow.set(problem.row, messages);
  }
  for (const [rowNumber, messages] of byRow)
    sheet.getRow(rowNumber).getCell(issuesColumn).value = messages.join('; ');
  const written = await workbook.xlsx.writeBuffer();
  // Moved, not copied, to the server's thread.
  return written.buffer.byteLength === written.byteLength
    ? written.buffer
    : written.buffer.slice(written.byteOffset, written.byteOffset + written.byteLength);
}

/** Rows per message of a read's answer. */
const messageRows = 500;

// One job per thread: its answer (or error) is the last message, then the thread ends.
const job = workerData;
try {
  if (job.op === 'read') {
    const result = await read(job);
    // The rows in parts: the server's thread takes each message in a turn of its event loop of its
    // own, where all 10,000 rows at once would hold it for tens of milliseconds.
    if (result.ok)
      for (let start = 0; start < result.rows.length; start += messageRows)
        parentPort.postMessage({ rows: result.rows.slice(start, start + messageRows) });
    parentPort.postMessage({ result: result.ok ? { ok: true } : result });
  } else if (job.op === 'writeErrors') {
    const bytes = await writeErrors(job);
    parentPort.postMessage({ result: bytes }, [bytes]);
  } else throw new Error(`Unknown job ${job.op}.`);
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
