import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { csvField, csvRecord, neutraliseFormula } from '../../src/domain/list-csv.ts';

describe('neutraliseFormula', () => {
  it.each(['=1+2', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '＝1+2', '＋SUM(A1)', '－2', '＠cmd'])('prefixes %j with an apostrophe', (value) => {
    expect(neutraliseFormula(value)).toBe(`'${value}`);
  });

  it('leaves other text alone, including a formula character later in the cell', () => {
    expect(neutraliseFormula('Smith = Jones')).toBe('Smith = Jones');
    expect(neutraliseFormula('')).toBe('');
    expect(neutraliseFormula("'=already")).toBe("'=already");
  });
});

describe('csvField and csvRecord (RFC 4180)', () => {
  it('quotes fields holding a quote, comma, CR or LF and doubles the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
  });

  it('quotes fields holding a semicolon or a tab, so no locale splits a formula into a cell of its own', () => {
    expect(csvField('acct;=1+1')).toBe('"acct;=1+1"');
    expect(csvField('acct\t=1+1')).toBe('"acct\t=1+1"');
    expect(csvRecord(['a;b', 'c'])).toBe('"a;b",c\r\n');
  });

  it('ends every record with CRLF', () => {
    expect(csvRecord(['a', 'b'])).toBe('a,b\r\n');
  });

  it('round-trips any text through a CSV parser, neutralised and otherwise unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const width = rows[0]!.length;
        const table = rows.map((row) => Array.from({ length: width }, (_, index) => row[index] ?? ''));
        const text = table.map(csvRecord).join('');
        const parsed: string[][] = parse(text, { relax_column_count: false });
        expect(parsed).toEqual(table.map((row) => row.map(neutraliseFormula)));
      }),
    );
  });
});
