import ExcelJS from 'exceljs';
import { api, hosts, type TestServer } from './harness.ts';
import { templateColumns, type ColumnKey } from '../../server/bulk-upload/template-columns.ts';

export type Row = Partial<Record<ColumnKey, string | number>>;

/** A multipart/form-data body with one file under `field`. */
export function multipart(fileName: string, content: Buffer, field = 'files[]') {
  const boundary = `----bulk${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  return {
    body: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export function upload(
  server: TestServer,
  token: string,
  fileName: string,
  content: Buffer,
  host: string = hosts.demo,
) {
  const { body, contentType } = multipart(fileName, content);
  return server.app.inject({
    method: 'POST',
    url: '/api/application/bulkupload',
    headers: { host, authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
}

export async function template(server: TestServer, token: string, host: string = hosts.demo) {
  const response = await api(server, 'GET', '/api/application/bulkupload/template', { token, host });
  if (response.statusCode !== 200) throw new Error(`template: ${response.statusCode} ${response.body}`);
  return response.rawPayload;
}

/** The template with `rows` filled in on the Applications sheet, as a person would in Excel. */
export async function filled(templateBytes: Buffer, rows: readonly Row[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(templateBytes as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Applications')!;
  rows.forEach((row, index) => {
    templateColumns.forEach((column, columnIndex) => {
      const value = row[column.key];
      if (value !== undefined) sheet.getRow(index + 2).getCell(columnIndex + 1).value = value;
    });
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function readWorkbook(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** A valid row; `n` makes its account name and external id unique. */
export function validRow(n: number, owner: string, extra: Row = {}): Row {
  return {
    AccountName: `Bulk Account ${n}`,
    ApplicationType: 'Individual',
    FirstName: 'Bulk',
    LastName: `Person${n}`,
    Email: `bulk${n}@example.com`,
    Mobile: '0412 345 678',
    Owner: owner,
    ExternalId: `BULK-${n}`,
    InvestmentAmount: 25000,
    Language: 'English',
    SigningMode: 'Online',
    ...extra,
  };
}
