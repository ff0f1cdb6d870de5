import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { listColumnNames } from '../../src/domain/list-columns.ts';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

type Column = { ColumnName: string; Description: string; Viewable: boolean };
type Row = { ApplicationDetailRowName: string; Description: string; Viewable: boolean };
const columns = async (token = admin, host?: string) => (await api(server, 'GET', '/api/admin/columns', { token, host })).json<Column[]>();
const visible = async (token = admin, host?: string) =>
  (await api(server, 'GET', '/api/configuration/columns', { token, host })).json<{ ColumnNames: string[] }>().ColumnNames;
const save = (body: unknown, token = admin) => api(server, 'POST', '/api/admin/save', { token, body });

describe('column configuration', () => {
  it('lists every list column with a description and whether it shows', async () => {
    const list = await columns();
    expect(list.map((column) => column.ColumnName)).toEqual([...listColumnNames]);
    for (const column of list) expect(column.Description).not.toBe('');
    expect(await visible()).toEqual(list.filter((column) => column.Viewable).map((column) => column.ColumnName));
  });

  it('saves the choices, and every list reads them', async () => {
    const response = await save({
      Columns: [
        { ColumnName: 'ClientName', Description: 'x', Viewable: false },
        { ColumnName: 'PromoCode', Description: 'x', Viewable: true },
        { ColumnName: 'ID', Description: 'x', Viewable: true },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ Success: true, Message: 'Successfully saved' });
    const shown = await visible();
    expect(shown).toContain('PromoCode');
    expect(shown).not.toContain('ClientName');
    expect((await columns()).find((column) => column.ColumnName === 'ClientName')!.Viewable).toBe(false);
    // Another tenant keeps its own configuration.
    const acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    expect(await visible(acme, hosts.acme)).toContain('ClientName');
  });

  it.each(['ID', 'Email', 'AccountName', 'Status'])('refuses to hide %s, and saves nothing of that request', async (fixed) => {
    const before = await visible();
    const response = await save({
      Columns: [
        { ColumnName: 'Language', Description: '', Viewable: true },
        { ColumnName: fixed, Description: '', Viewable: false },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: `Columns: ${fixed} is always visible and cannot be hidden` });
    expect(await visible()).toEqual(before);
  });

  it('refuses unknown columns and malformed bodies, naming the field', async () => {
    const unknown = await save({ Columns: [{ ColumnName: 'Nope', Description: '', Viewable: true }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Columns: unknown column Nope');
    const malformed = await save({ Columns: [{ ColumnName: 'ID' }] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('Columns');
    const notABoolean = await save({ Columns: [{ ColumnName: 'ID', Description: '', Viewable: 'maybe' }] });
    expect(notABoolean.statusCode).toBe(400);
    expect(notABoolean.json().message).toMatch(/Columns\/0\/Viewable/);
  });
});

describe('detail row configuration', () => {
  it('lists, saves and serves the optional detail rows', async () => {
    const rows = (await api(server, 'GET', '/api/admin/rows', { token: admin })).json<Row[]>();
    expect(rows.map((row) => row.ApplicationDetailRowName)).toContain('TimeToComplete');
    const response = await api(server, 'POST', '/api/admin/rows/save', {
      token: admin,
      body: { Rows: [{ ApplicationDetailRowName: 'TimeToComplete', Description: '', Viewable: true }, { ApplicationDetailRowName: 'Owner', Description: '', Viewable: false }] },
    });
    expect(response.json()).toEqual({ Success: true, Message: 'Successfully saved' });
    const { RowNames } = (await api(server, 'GET', '/api/configuration/rows', { token: admin })).json<{ RowNames: string[] }>();
    expect(RowNames).toContain('TimeToComplete');
    expect(RowNames).not.toContain('Owner');
    const unknown = await api(server, 'POST', '/api/admin/rows/save', { token: admin, body: { Rows: [{ ApplicationDetailRowName: 'Nope', Description: '', Viewable: true }] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Rows: unknown row Nope');
    const notABoolean = await api(server, 'POST', '/api/admin/rows/save', { token: admin, body: { Rows: [{ ApplicationDetailRowName: 'Owner', Description: '', Viewable: 'maybe' }] } });
    expect(notABoolean.statusCode).toBe(400);
    expect(notABoolean.json().message).toMatch(/Rows\/0\/Viewable/);
  });
});

describe('cache statistics and access', () => {
  it('reports the list caches to an administrator', async () => {
    await api(server, 'GET', '/api/application/list/all', { token: admin });
    await api(server, 'GET', '/api/application/list/all?pageNo=2', { token: admin });
    const response = await api(server, 'GET', '/api/admin/cachestats', { token: admin });
    expect(response.statusCode).toBe(200);
    const stats = response.json<Record<string, number>>();
    expect(stats.Requests).toBeGreaterThanOrEqual(2);
    expect(stats.CountHits).toBeGreaterThanOrEqual(1);
    expect(stats.DataVersion).toBeGreaterThan(0);
  });

  it('needs the admin claim for /admin, a signed-in user for /configuration', async () => {
    const manager = await accessTokenFor(server, 'manager@demo.test');
    for (const [method, url] of [
      ['GET', '/api/admin/columns'],
      ['POST', '/api/admin/save'],
      ['GET', '/api/admin/rows'],
      ['POST', '/api/admin/rows/save'],
      ['GET', '/api/admin/cachestats'],
    ] as const) {
      expect((await api(server, method, url, { body: method === 'POST' ? {} : undefined })).statusCode).toBe(401);
      expect((await api(server, method, url, { token: manager, body: method === 'POST' ? {} : undefined })).statusCode).toBe(403);
    }
    expect((await api(server, 'GET', '/api/configuration/columns')).statusCode).toBe(401);
    expect((await api(server, 'GET', '/api/configuration/columns', { token: manager })).statusCode).toBe(200);
  });
});
