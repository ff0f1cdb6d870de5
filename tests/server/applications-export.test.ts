import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { listAll, listUrl, tenantApplications } from './applications-fixtures.ts';
import { applications } from '../../server/db/schema.ts';
import type { ApplicationListRow } from '../../src/schemas/applications.schema.ts';

let server: TestServer;
let admin: string;

/** Values a spreadsheet would run, and values that need RFC 4180 quoting. */
const tricky = ['=HYPERLINK("http://evil.test","x")', '+61 400 000 000', '-2+3', '@SUM(A1:A9)', '\tTabbed', '\rReturn', 'Comma, "Quote"\nand a new line'];
let trickyIds: number[];

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  const complete = (await tenantApplications(server)).filter((row) => row.status === 'Complete').slice(0, tricky.length);
  trickyIds = complete.map((row) => row.id);
  for (const [index, row] of complete.entries()) {
    await server.db.update(applications).set({ accountName: tricky[index]!, clientName: tricky[index]! }).where(eq(applications.id, row.id));
  }
});
afterAll(() => server.close());

async function exportCsv(path: string, params: Record<string, unknown>, token = admin) {
  const response = await api(server, 'GET', listUrl(path, params), { token });
  return response;
}

const isoOf = (seconds: number) => (seconds < 0 ? '' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'));

describe('GET /api/application/export/{my|all}', () => {
  it('streams export.csv with the same rows as the list, in its order, in the visible columns', async () => {
    const params = { status: ['Complete', 'Locked', 'Documents pending'], sortBy: 'AccountName', sortType: 'asc' };
    const response = await exportCsv('/api/application/export/all', params);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="export.csv"; filename*=UTF-8''export.csv`);
    expect(response.body.endsWith('\r\n')).toBe(true);

    const [header, ...rows] = parse(response.body) as string[][];
    const { ColumnNames } = (await api(server, 'GET', '/api/configuration/columns', { token: admin })).json<{ ColumnNames: string[] }>();
    expect(header).toEqual(ColumnNames.filter((name) => name !== 'Actions'));

    const list = await listAll(server, admin, '/api/application/list/all', params);
    expect(rows).toHaveLength(list.totalRows);
    expect(rows.map((row) => Number(row[header!.indexOf('ID')]))).toEqual(list.rows.map((row) => row.ApplicationID));

    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    const neutral = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
    list.rows.forEach((source: ApplicationListRow, index) => {
      const row = rows[index]!;
      expect(cell(row, 'AccountName')).toBe(neutral(source.AccountName));
      expect(cell(row, 'Email')).toBe(neutral(source.PrimaryEmail));
      expect(cell(row, 'Status')).toBe(source.Status);
      expect(cell(row, 'CreatedDate')).toBe(isoOf(source.DateCreatedTimestamp));
      expect(cell(row, 'Owner')).toBe(source.AdviserName);
      expect(cell(row, 'PercentageComplete')).toBe(String(source.PercentageComplete));
    });
  });

  it('neutralises cells that a spreadsheet would run as formulas, and quotes what RFC 4180 says', async () => {
    const response = await exportCsv('/api/application/export/all', { q: '', sortBy: 'ID', sortType: 'asc' });
    const [header, ...rows] = parse(response.body) as string[][];
    const byId = new Map(rows.map((row) => [Number(row[header!.indexOf('ID')]), row]));
    tricky.forEach((value, index) => {
      const row = byId.get(trickyIds[index]!)!;
      const expected = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
      expect(row[header!.indexOf('AccountName')]).toBe(expected);
      expect(row[header!.indexOf('ClientName')]).toBe(expected);
    });
    expect(response.body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(response.body).toContain('"Comma, ""Quote""\nand a new line"');
    // No cell starts with a formula character, whatever its column.
    for (const row of rows) for (const value of row) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('writes the tenant configured columns', async () => {
    const hidden = await api(server, 'POST', '/api/admin/save', {
      token: admin,
      body: {
        Columns: [
          { ColumnName: 'ClientName', Description: '', Viewable: false },
          { ColumnName: 'InvestmentAmount', Description: '', Viewable: true },
          { ColumnName: 'Products', Description: '', Viewable: true },
          { ColumnName: 'SigningMode', Description: '', Viewable: true },
        ],
      },
    });
    expect(hidden.statusCode).toBe(200);
    const response = await exportCsv('/api/application/export/all', { products: ['MF'], rowsPerPage: '5' });
    const [header, ...rows] = parse(response.body) as string[][];
    expect(header).not.toContain('ClientName');
    expect(header).toEqual(expect.arrayContaining(['ID', 'Email', 'AccountName', 'Status', 'InvestmentAmount', 'Products', 'SigningMode']));
    // No row cap: the export is every row of the list, not a page.
    const list = await listAll(server, admin, '/api/application/list/all', { products: ['MF'] });
    expect(rows).toHaveLength(list.totalRows);
    const ids = rows.map((row) => Number(row[header!.indexOf('ID')]));
    const sources = await server.db.select().from(applications).where(inArray(applications.id, ids.slice(0, 20)));
    for (const source of sources) {
      const row = rows[ids.indexOf(source.id)]!;
      expect(row[header!.indexOf('InvestmentAmount')]).toBe(String(Number(source.investmentAmount)));
      expect(row[header!.indexOf('Products')]).toContain('Managed Funds');
      expect(row[header!.indexOf('SigningMode')]).toBe(source.applicationModeCode === 'Pin' ? 'Online' : 'Print & Sign');
    }
  });

  it('exports My Apps for /export/my', async () => {
    const manager = await accessTokenFor(server, 'manager@demo.test');
    const response = await exportCsv('/api/application/export/my', { sortBy: 'CreatedDate', sortType: 'asc' }, manager);
    const [header, ...rows] = parse(response.body) as string[][];
    const list = await listAll(server, manager, '/api/application/list', { sortBy: 'CreatedDate', sortType: 'asc' });
    expect(rows.map((row) => Number(row[header!.indexOf('ID')]))).toEqual(list.rows.map((row) => row.ApplicationID));
  });

  it('answers an empty list with the header only', async () => {
    const response = await exportCsv('/api/application/export/all', { q: 'zzzzqqqxxx' });
    expect(parse(response.body)).toHaveLength(1);
  });

  it('refuses bad parameters by name, and callers without app.export or the list claim', async () => {
    const bad = await exportCsv('/api/application/export/all', { sortBy: 'Nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'sortBy: unknown column Nope' });
    expect((await api(server, 'GET', '/api/application/export/all')).statusCode).toBe(401);
    const staff = await accessTokenFor(server, 'staff@demo.test');
    expect((await exportCsv('/api/application/export/my', {}, staff)).statusCode).toBe(403);
    const readonly = await accessTokenFor(server, 'readonly@demo.test');
    expect((await exportCsv('/api/application/export/all', {}, readonly)).statusCode).toBe(403);
    expect((await api(server, 'GET', '/api/application/export/everything', { token: admin })).statusCode).toBe(404);
  });

  it('exports only the tenant of the host', async () => {
    const acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    const response = await api(server, 'GET', '/api/application/export/all', { token: acme, host: hosts.acme });
    const [header, ...rows] = parse(response.body) as string[][];
    const acmeIds = new Set((await tenantApplications(server, 'acme')).map((row) => row.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(acmeIds.has(Number(row[header!.indexOf('ID')]))).toBe(true);
  });
});
