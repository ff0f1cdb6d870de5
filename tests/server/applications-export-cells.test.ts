import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './harness.ts';
import { tenantApplications } from './applications-fixtures.ts';
import { exportApplicationsCsv } from '../../server/db/applications-export.ts';
import { applications, products } from '../../server/db/schema.ts';
import { parseListRequest } from '../../src/domain/list-request.ts';
import type { DataColumnName } from '../../src/domain/list-columns.ts';

/**
 * The database writes each export cell's text (applications-export.ts): dates, the signing mode,
 * products by name and numbers, held here to the texts the export has always written, on edge rows.
 */
let server: TestServer;
let ids: number[];
beforeAll(async () => {
  server = await startTestServer();
  ids = (await tenantApplications(server)).filter((row) => row.status === 'Complete').slice(0, 6).map((row) => row.id);
});
afterAll(() => server.close());

const columns: DataColumnName[] = ['ID', 'CreatedDate', 'DateCompleted', 'LastDocumentUploadDate', 'SigningMode', 'Products', 'InvestmentAmount', 'PercentageComplete', 'Label'];

/** The exported rows of `ids`, by id, as cells by column. */
async function exportedRows(): Promise<Map<number, Record<string, string>>> {
  const parsed = parseListRequest({ sortBy: 'ID', sortType: 'asc' });
  if (!parsed.ok) throw new Error(parsed.message);
  let text = '';
  for await (const chunk of exportApplicationsCsv(server.db, { tenantId: 'demo', scope: { kind: 'instance' }, ...parsed.value, columns }, { batchSize: 50 })) {
    text += chunk;
  }
  const [header, ...rows] = parse(text) as string[][];
  expect(header).toEqual(columns);
  const byId = new Map(rows.map((row) => [Number(row[0]), Object.fromEntries(columns.map((column, index) => [column, row[index] ?? '']))]));
  return new Map(ids.map((id) => [id, byId.get(id)!]));
}

const at = (iso: string) => new Date(iso);

describe('export cell texts', () => {
  it('writes dates as ISO 8601 in UTC to the whole second, and none or before 1970 as empty', async () => {
    const dates = [
      { dateCreated: at('2023-11-14T22:13:20.999Z'), dateCompleted: null, lastDocumentUpload: at('1970-01-01T00:00:00.000Z') },
      { dateCreated: at('1969-12-31T23:59:59.999Z'), dateCompleted: at('2024-02-29T00:00:00.000Z'), lastDocumentUpload: null },
      { dateCreated: at('9999-12-31T23:59:59.000Z'), dateCompleted: at('1900-01-01T00:00:00.000Z'), lastDocumentUpload: at('2001-09-09T01:46:40.5Z') },
    ];
    for (const [index, values] of dates.entries()) await server.db.update(applications).set(values).where(eq(applications.id, ids[index]!));
    const rows = await exportedRows();
    const cells = (index: number) => {
      const row = rows.get(ids[index]!)!;
      return [row.CreatedDate, row.DateCompleted, row.LastDocumentUploadDate];
    };
    expect(cells(0)).toEqual(['2023-11-14T22:13:20Z', '', '1970-01-01T00:00:00Z']);
    expect(cells(1)).toEqual(['', '2024-02-29T00:00:00Z', '']);
    expect(cells(2)).toEqual(['9999-12-31T23:59:59Z', '', '2001-09-09T01:46:40Z']);
  });

  it('agrees with Date for any millisecond from 1970 to 2100', async () => {
    const samples = fc.sample(fc.integer({ min: 0, max: 4_102_444_799_999 }), ids.length);
    for (const [index, milliseconds] of samples.entries()) {
      await server.db.update(applications).set({ dateCreated: new Date(milliseconds) }).where(eq(applications.id, ids[index]!));
    }
    const rows = await exportedRows();
    samples.forEach((milliseconds, index) => {
      expect(rows.get(ids[index]!)!.CreatedDate).toBe(new Date(milliseconds - (milliseconds % 1000)).toISOString().replace('.000Z', 'Z'));
    });
  });

  it('writes the signing mode as shown, products by name in order, and numbers as digits', async () => {
    await server.db.delete(products).where(inArray(products.code, ['ZZ_A', 'ZZ_B']));
    await server.db.insert(products).values([
      { tenantId: 'demo', code: 'ZZ_A', name: 'Alpha, "the first"' },
      { tenantId: 'demo', code: 'ZZ_B', name: '=Beta' },
    ]);
    const values = [
      { applicationModeCode: 'Pin', productCodes: ['ZZ_B', 'ZZ_A'], investmentAmount: 250_000, percentageComplete: 100, label: '' },
      { applicationModeCode: 'PrintandSign', productCodes: [], investmentAmount: 1234.5, percentageComplete: 0, label: '+label' },
      { applicationModeCode: '', productCodes: ['ZZ_A', 'GONE'], investmentAmount: 999_999_999_999.99, percentageComplete: 7, label: 'a;b' },
      { applicationModeCode: 'Pin', productCodes: ['ZZ_A'], investmentAmount: 0.01, percentageComplete: 50, label: 'Zoë 日本' },
    ];
    for (const [index, value] of values.entries()) await server.db.update(applications).set(value).where(eq(applications.id, ids[index]!));
    const rows = await exportedRows();
    const cells = (index: number) => {
      const row = rows.get(ids[index]!)!;
      return [row.SigningMode, row.Products, row.InvestmentAmount, row.PercentageComplete, row.Label];
    };
    expect(cells(0)).toEqual(['Online', `'=Beta, Alpha, "the first"`, '250000', '100', '']);
    expect(cells(1)).toEqual(['Print & Sign', '', '1234.5', '0', "'+label"]);
    expect(cells(2)).toEqual(['Print & Sign', 'Alpha, "the first", GONE', '999999999999.99', '7', 'a;b']);
    expect(cells(3)).toEqual(['Online', 'Alpha, "the first"', '0.01', '50', 'Zoë 日本']);
    expect(rows.get(ids[0]!)!.ID).toBe(String(ids[0]));
  });
});
