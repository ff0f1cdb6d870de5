import { csvRecord, formulaSigns, quoteTriggers } from '../../src/domain/list-csv.ts';
import { unescapeCopyText } from './sql-runner.ts';

/**
 * COPY text format to CSV, on the bytes. A line of COPY text is a row: fields separated by tabs,
 * with tab, CR, LF and backslash inside a field written as backslash escapes. A field with none of
 * the bytes below is its own CSV field (csvField leaves it as it is), so most lines become their
 * records by writing commas for tabs, with no string made per row or field: this is what lets the
 * export of a million rows keep up with the database (issue 40).
 */

const byte = (character: string) => character.charCodeAt(0);
const tab = 0x09;
const newline = 0x0a;
const carriageReturn = 0x0d;
const comma = byte(',');

/**
 * Bytes after which csvField may change a field: the quote triggers but the tab (COPY's separator;
 * one inside a field comes escaped, as do CR and LF), and the backslash that starts an escape.
 */
const changesField = new Uint8Array(256);
for (const character of [...quoteTriggers.filter((trigger) => trigger !== '\t'), '\\']) changesField[byte(character)] = 1;

/** The formula signs' UTF-8 bytes, by their first byte: a field starting with one is neutralised. */
const signsByFirstByte = new Map<number, Uint8Array[]>();
for (const sign of formulaSigns) {
  const encoded = Buffer.from(sign, 'utf8');
  const first = encoded[0] ?? 0;
  signsByFirstByte.set(first, [...(signsByFirstByte.get(first) ?? []), encoded]);
}

function startsWithSign(bytes: Uint8Array, at: number, end: number): boolean {
  const signs = signsByFirstByte.get(bytes[at] ?? 0);
  if (!signs) return false;
  return signs.some((sign) => at + sign.length <= end && sign.every((value, index) => bytes[at + index] === value));
}

/**
 * The CSV records (csvRecord's bytes, CRLF-terminated) of the COPY text lines in `bytes` from
 * `start` to `end` (which ends a line), without the first `skipFields` fields of each line.
 */
export function csvOfCopyLines(bytes: Uint8Array, start: number, end: number, skipFields = 0): Buffer {
  // Room for every line as it is plus its CR; a line that grows (quotes) makes more when it must.
  let out: Buffer = Buffer.allocUnsafe(end - start + (end - start >> 4) + 64);
  let length = 0;
  for (let lineStart = start; lineStart < end; ) {
    let lineEnd = bytes.indexOf(newline, lineStart);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    let from = lineStart;
    for (let skipped = 0; skipped < skipFields; skipped++) from = bytes.indexOf(tab, from) + 1;
    if (out.length - length < lineEnd - from + 2) out = grown(out, length, lineEnd - from + 2);

    // Written as it is, tabs as commas, until a byte that may change its field.
    const recordStart = length;
    let plain = !startsWithSign(bytes, from, lineEnd);
    for (let at = from; plain && at < lineEnd; at++) {
      const value = bytes[at] ?? 0;
      if (changesField[value]) plain = false;
      else if (value === tab) {
        out[length++] = comma;
        if (startsWithSign(bytes, at + 1, lineEnd)) plain = false;
      } else out[length++] = value;
    }
    if (plain) {
      out[length++] = carriageReturn;
      out[length++] = newline;
    } else {
      // The few lines (4 % of the bench's) that csvRecord writes field by field.
      const fields = Buffer.from(bytes.buffer, bytes.byteOffset + from, lineEnd - from).toString('utf8').split('\t');
      const record = csvRecord(fields.map((field) => unescapeCopyText(field) ?? ''));
      const size = Buffer.byteLength(record);
      length = recordStart;
      if (out.length - length < size) out = grown(out, length, size);
      length += out.write(record, length);
    }
    lineStart = lineEnd + 1;
  }
  return out.subarray(0, length);
}

/** `out` with room for `more` bytes after its first `length`. */
function grown(out: Buffer, length: number, more: number): Buffer {
  const larger = Buffer.allocUnsafe(Math.max(out.length * 2, length + more));
  out.copy(larger, 0, 0, length);
  return larger;
}
