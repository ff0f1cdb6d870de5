import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvRecord } from '../../src/domain/list-csv.ts';
import { csvOfCopyLines } from '../../server/db/copy-text-csv.ts';

/** A field as PostgreSQL's COPY TO writes it in text format (CopyAttributeOutText). */
const copyField = (value: string) =>
  value.replace(/[\\\b\f\n\r\t\v]/g, (character) => `\\${{ '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v' }[character]}`);
const copyText = (rows: readonly (readonly string[])[]) => Buffer.from(rows.map((row) => `${row.map(copyField).join('\t')}\n`).join(''));
const csvOf = (rows: readonly (readonly string[])[], skipFields = 0) => {
  const bytes = copyText(rows);
  return csvOfCopyLines(bytes, 0, bytes.length, skipFields).toString('utf8');
};

describe('csvOfCopyLines', () => {
  it('writes a plain line with commas for tabs, and CRLF', () => {
    expect(csvOf([['1', 'ann@example.test', 'Ann Lee', '', 'Complete']])).toBe('1,ann@example.test,Ann Lee,,Complete\r\n');
    expect(csvOf([['Zoë', '日本'], ['', '']])).toBe('Zoë,日本\r\n,\r\n');
  });

  it('leaves out the leading fields it is told to (the sort key and id)', () => {
    expect(csvOf([['key', '7', 'a', 'b'], ['k2', '8', 'c', 'd']], 2)).toBe('a,b\r\nc,d\r\n');
  });

  it('neutralises a formula sign at the start of any field, ASCII or full-width, and only there', () => {
    expect(csvOf([['=1+1', 'x']])).toBe("'=1+1,x\r\n");
    expect(csvOf([['x', '+61 400', '-2', '@SUM(A1)']])).toBe("x,'+61 400,'-2,'@SUM(A1)\r\n");
    expect(csvOf([['x', '＝1＋1', '＠', '－', '＋']])).toBe("x,'＝1＋1,'＠,'－,'＋\r\n");
    expect(csvOf([['a-b', 'a=b', 'x@y.test', '１']])).toBe('a-b,a=b,x@y.test,１\r\n');
    // After the skipped fields: the first written field is checked too.
    expect(csvOf([['=key', '1', '-1', 'ok']], 2)).toBe("'-1,ok\r\n");
  });

  it('quotes fields with a quote, comma, semicolon, tab, CR or LF, and unescapes COPY escapes', () => {
    expect(csvOf([['say "hi"', 'a,b', 'a;b']])).toBe('"say ""hi""","a,b","a;b"\r\n');
    expect(csvOf([['two\nlines', 'tab\there', 'cr\rhere', 'back\\slash']])).toBe('"two\nlines","tab\there","cr\rhere",back\\slash\r\n');
    expect(csvOf([['\tTabbed', '\rReturn']])).toBe(`"'\tTabbed","'\rReturn"\r\n`);
    // A line that grows past the room made for it.
    const quotes = '"'.repeat(500);
    expect(csvOf([[quotes]])).toBe(`"${'""'.repeat(500)}"\r\n`);
  });

  it('writes what csvRecord writes for any rows, and a CSV parser reads the rows back', () => {
    const tricky = fc.constantFrom('=', '+', '-', '@', '＝', '＋', '－', '＠', '"', ',', ';', '\t', '\r', '\n', '\\', '\\N', 'é', '😀', 'a', ' ', '\u0001');
    const field = fc.oneof(fc.string({ unit: tricky, maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 8 }).filter((text) => !/\p{Cs}/u.test(text)));
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 3, maxLength: 6 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 2 }), (rows, skip) => {
        const expected = rows.map((row) => csvRecord(row.slice(skip))).join('');
        expect(csvOf(rows, skip)).toBe(expected);
        expect(parse(csvOf(rows, skip), { relax_column_count: true, bom: false })).toHaveLength(rows.length);
      }),
      { numRuns: 500 },
    );
  });

  it('converts only the lines between start and end', () => {
    const bytes = copyText([['a'], ['b'], ['c']]);
    expect(csvOfCopyLines(bytes, 2, 4).toString()).toBe('b\r\n');
  });
});
