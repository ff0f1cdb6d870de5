import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { and, eq, like } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { filled, multipart, readWorkbook, template, upload, validRow } from './bulk-upload-fixtures.ts';
import { applicationActivity, applicationOwners, applications } from '../../server/db/schema.ts';
import { BulkUploadResponseSchema } from '../../src/schemas/bulk-upload.schema.ts';
import { duplicateFileMessage } from '../../server/api/bulk-upload.routes.ts';
import * as XLSX from '@e965/xlsx';

/** The same workbook saved as Excel 97-2003 (.xls, BIFF8) by SheetJS itself, as a person's Save As would. */
const asXls = (xlsx: Buffer): Buffer =>
  XLSX.write(XLSX.read(xlsx, { type: 'buffer' }), { type: 'buffer', bookType: 'biff8' }) as Buffer;

let server: TestServer;
let admin: string;
let owner: string;
let templateBytes: Buffer;
beforeAll(async () => {
  server = await startTestServer(process.env.BULK_DEBUG ? { LOG_LEVEL: 'error' } : {});
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [first] = await server.db
    .select()
    .from(applicationOwners)
    .where(eq(applicationOwners.tenantId, 'demo'))
    .limit(1);
  owner = first!.displayName;
  templateBytes = await template(server, admin);
});
afterAll(() => server.close());

function answerOf(response: { statusCode: number; body: string }) {
  const parsed = BulkUploadResponseSchema.safeParse(JSON.parse(response.body));
  if (!parsed.success) throw new Error(`Not a bulk upload answer: ${response.statusCode} ${response.body}`);
  return parsed.data;
}
const bulkRows = (prefix: string) =>
  server.db
    .select()
    .from(applications)
    .where(and(eq(applications.tenantId, 'demo'), like(applications.externalId, `${prefix}%`)));

describe('bulk upload template', () => {
  it('has the Applications sheet with the header row, drop-down lists and an Instructions sheet', async () => {
    const workbook = await readWorkbook(templateBytes);
    const sheet = workbook.getWorksheet('Applications')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Account Name');
    expect(sheet.getRow(1).getCell(9).value).toBe('Owner');
    expect(workbook.getWorksheet('Instructions')!.getRow(2).getCell(1).value).toBe('Account Name');
    const validation = sheet.getCell('B2').dataValidation;
    expect(validation.type).toBe('list');
    expect(validation.formulae?.[0]).toMatch(/^Lists!/);
  });
});

describe('POST /api/application/bulkupload', () => {
  it('imports a valid 3-row file: three applications with activity, visible in the listing at once', async () => {
    const file = await filled(
      templateBytes,
      [1, 2, 3].map((n) => validRow(n, owner, { ExternalId: `OK3-${n}` })),
    );
    const answer = answerOf(await upload(server, admin, 'three.xlsx', file));
    expect(answer).toEqual({
      Success: true,
      Message: '3 application(s) created.',
      ResponseType: 'Success',
      TemporaryErrorFileId: null,
    });
    const rows = await bulkRows('OK3-');
    expect(rows.map((row) => row.accountName).sort()).toEqual([
      'Bulk Account 1',
      'Bulk Account 2',
      'Bulk Account 3',
    ]);
    expect(rows[0]).toMatchObject({
      status: 'Adviser edit',
      adviserName: owner,
      applicationModeCode: 'Pin',
      investmentAmount: 25000,
    });
    const activity = await server.db
      .select()
      .from(applicationActivity)
      .where(eq(applicationActivity.applicationId, rows[0]!.id));
    expect(activity[0]?.activity).toMatch(/^Application created by .+ \(bulk upload three\.xlsx\)$/);
    const list = await api(server, 'GET', `/api/application/list/all?q=OK3-1`, { token: admin });
    expect(list.json().TotalRows).toBe(1);

    // The same file again within the hour: refused, nothing created twice.
    const again = answerOf(await upload(server, admin, 'three.xlsx', file));
    expect(again).toMatchObject({
      Success: false,
      ResponseType: 'DuplicateFile',
      Message: duplicateFileMessage,
    });
    expect(await bulkRows('OK3-')).toHaveLength(3);
  });

  it('imports nothing when a cell is invalid, and the error workbook marks each invalid cell with its reason', async () => {
    const file = await filled(templateBytes, [
      validRow(10, owner, { ExternalId: 'BAD-1' }),
      validRow(11, owner, { ExternalId: 'BAD-2', Email: 'not-an-email', Mobile: '0312345678' }),
      validRow(12, owner, {
        ExternalId: 'BAD-1',
        AccountName: '',
        SubBrand: 'Nope',
        Owner: 'Nobody',
        InvestmentAmount: -5,
      }),
      validRow(13, owner, {
        ExternalId: 'OK3-1',
        Products: 'NOPRODUCT',
        Language: 'Klingon',
        SigningMode: 'Fax',
        ApplicationType: 'Club',
      }),
    ]);
    const answer = answerOf(await upload(server, admin, 'bad.xlsx', file));
    expect(answer.Success).toBe(false);
    expect(answer.ResponseType).toBe('InvalidFileData');
    expect(answer.TemporaryErrorFileId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await bulkRows('BAD-')).toHaveLength(0);

    const download = await api(
      server,
      'GET',
      `/api/application/bulkupload/errorfile/${answer.TemporaryErrorFileId}`,
      { token: admin },
    );
    expect(download.statusCode).toBe(200);
    const sheet = (await readWorkbook(download.rawPayload)).getWorksheet('Applications')!;
    const expectations: [string, RegExp][] = [
      ['E3', /is not a valid e-mail address/],
      ['F3', /is not an Australian mobile number/],
      ['A4', /Account Name is required/],
      ['G4', /is not a sub-brand/],
      ['I4', /is not an owner/],
      ['J4', /"BAD-1" is also on row 2/],
      ['K4', /Must be a number from 0/],
      ['B5', /is not an application type/],
      ['H5', /is not a product/],
      ['J5', /already used by an existing application/],
      ['L5', /is not a supported language/],
      ['N5', /Must be Online or Print & Sign/],
    ];
    for (const [address, message] of expectations) {
      const cell = sheet.getCell(address);
      expect(cell.note, address).toMatch(message);
      expect(cell.fill, address).toMatchObject({
        type: 'pattern',
        pattern: 'solid',
        fgColor: { argb: 'FFFF9999' },
      });
    }
    // A valid cell and a valid row stay as they were.
    expect(sheet.getCell('A2').note).toBeUndefined();
    expect(sheet.getCell('O1').value).toBe('Issues');
    expect(sheet.getCell('O2').value).toBeNull();
    expect(String(sheet.getCell('O3').value)).toMatch(/^Email: .+; Mobile: /);

    // A second round: E3 fixed, the rest not. The new error workbook no longer fills E3 red.
    const secondRound = await readWorkbook(download.rawPayload);
    secondRound.getWorksheet('Applications')!.getCell('E3').value = 'fixed@example.com';
    const second = answerOf(
      await upload(server, admin, 'bad-issues.xlsx', Buffer.from(await secondRound.xlsx.writeBuffer())),
    );
    expect(second.ResponseType).toBe('InvalidFileData');
    const secondFile = await api(
      server,
      'GET',
      `/api/application/bulkupload/errorfile/${second.TemporaryErrorFileId}`,
      { token: admin },
    );
    const secondSheet = (await readWorkbook(secondFile.rawPayload)).getWorksheet('Applications')!;
    expect(secondSheet.getCell('E3').fill).not.toMatchObject({ fgColor: { argb: 'FFFF9999' } });
    expect(secondSheet.getCell('F3').note).toMatch(/is not an Australian mobile number/);
    expect(String(secondSheet.getCell('O3').value)).toMatch(/^Mobile: /);

    // Fixing the cells in the error workbook and uploading it again imports the rows.
    const workbook = await readWorkbook(download.rawPayload);
    const fixed = workbook.getWorksheet('Applications')!;
    for (const rowNumber of [3, 4, 5]) fixed.getRow(rowNumber).eachCell((cell) => (cell.value = null));
    const answerAfterFix = answerOf(
      await upload(server, admin, 'bad-issues.xlsx', Buffer.from(await workbook.xlsx.writeBuffer())),
    );
    expect(answerAfterFix, answerAfterFix.Message).toMatchObject({ ResponseType: 'Success' });
    expect(await bulkRows('BAD-')).toHaveLength(1);
  });

  it('keeps error files within their tenant and answers 404 for unknown ids', async () => {
    const file = await filled(templateBytes, [validRow(20, owner, { Email: 'x' })]);
    const { TemporaryErrorFileId } = answerOf(await upload(server, admin, 'x.xlsx', file));
    const acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    const other = await api(server, 'GET', `/api/application/bulkupload/errorfile/${TemporaryErrorFileId}`, {
      token: acme,
      host: hosts.acme,
    });
    expect(other.statusCode).toBe(404);
    expect(
      (await api(server, 'GET', '/api/application/bulkupload/errorfile/nope', { token: admin })).statusCode,
    ).toBe(404);
  });

  it('answers the other-errors response for structure problems, renamed files, .xls and zip bombs', async () => {
    const kinds = async (name: string, content: Buffer) =>
      answerOf(await upload(server, admin, name, content));
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2000, 1)]);
    expect(await kinds('tool.xlsx', exe)).toMatchObject({ Success: false, ResponseType: 'InvalidFile' });
    expect(await kinds('data.csv', Buffer.from('a,b\n'))).toMatchObject({
      ResponseType: 'InvalidFile',
      Message: 'Only .xlsx and .xls files can be uploaded.',
    });
    const ole = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(4000),
    ]);
    expect(await kinds('old.xls', ole)).toMatchObject({
      ResponseType: 'InvalidFile',
      Message: 'The file could not be read as an .xls workbook.',
    });

    const workbook = await readWorkbook(templateBytes);
    workbook.getWorksheet('Applications')!.getCell('A1').value = 'Name';
    expect(await kinds('renamed-header.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()))).toMatchObject({
      ResponseType: 'InvalidFile',
      Message: 'Column A of the header row must be "Account Name".',
    });

    // 1 GiB of zeros deflates to about 1 MB: the guard refuses it before anything is inflated whole.
    const before = process.memoryUsage().rss;
    const bomb = zipWith(
      'xl/worksheets/sheet1.xml',
      deflateRawSync(Buffer.alloc(256 * 1024 * 1024)),
      256 * 1024 * 1024,
    );
    expect(await kinds('bomb.xlsx', bomb)).toMatchObject({ ResponseType: 'InvalidFile' });
    // Lying about the size does not help.
    const liar = zipWith('xl/worksheets/sheet1.xml', deflateRawSync(Buffer.alloc(64 * 1024 * 1024)), 1000);
    expect(await kinds('liar.xlsx', liar)).toMatchObject({ ResponseType: 'InvalidFile' });
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  // Issue 32: AM §2/§5 accept .xls; it is read (on the worker thread) and answered as an .xlsx is.
  it('imports a real .xls, and answers an invalid one with an .xlsx error workbook marking the cell', async () => {
    const good = asXls(await filled(templateBytes, [1, 2].map((n) => validRow(n, owner, { ExternalId: `XLS-${n}` }))));
    expect(good.subarray(0, 4).toString('hex')).toBe('d0cf11e0');
    expect(answerOf(await upload(server, admin, 'saved-as.xls', good))).toEqual({
      Success: true,
      Message: '2 application(s) created.',
      ResponseType: 'Success',
      TemporaryErrorFileId: null,
    });
    expect((await bulkRows('XLS-')).map((row) => row.accountName).sort()).toEqual(['Bulk Account 1', 'Bulk Account 2']);

    const bad = asXls(await filled(templateBytes, [validRow(3, owner, { ExternalId: 'XLSBAD-1', Email: 'not-an-email' })]));
    const answer = answerOf(await upload(server, admin, 'bad.xls', bad));
    expect(answer).toMatchObject({ Success: false, ResponseType: 'InvalidFileData' });
    const download = await api(server, 'GET', `/api/application/bulkupload/errorfile/${answer.TemporaryErrorFileId}`, {
      token: admin,
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/bad-issues\.xlsx/);
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const sheet = (await readWorkbook(download.rawPayload)).getWorksheet('Applications')!;
    const issues = String(sheet.getRow(2).getCell(sheet.getRow(1).cellCount).value);
    expect(issues).toMatch(/Email/);
    expect(await bulkRows('XLSBAD-')).toEqual([]);

    // A renamed header in an .xls reads as in an .xlsx.
    const renamed = await readWorkbook(templateBytes);
    renamed.getWorksheet('Applications')!.getCell('A1').value = 'Name';
    expect(answerOf(await upload(server, admin, 'renamed.xls', asXls(Buffer.from(await renamed.xlsx.writeBuffer()))))).toMatchObject({
      ResponseType: 'InvalidFile',
      Message: 'Column A of the header row must be "Account Name".',
    });
  });

  it('refuses what is not one workbook in files[], saying why', async () => {
    const post = (contentType: string, payload: Buffer | string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/application/bulkupload',
        headers: { host: hosts.demo, authorization: `Bearer ${admin}`, 'content-type': contentType },
        payload,
      });
    const notMultipart = await post('application/json', '{}');
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().message).toBe('files[]: must be multipart/form-data with one file');
    const elsewhere = multipart('a.xlsx', templateBytes, 'document');
    const wrongField = await post(elsewhere.contentType, elsewhere.body);
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe('document: the file goes in files[]');
    // The field files (without brackets) is accepted too.
    const plain = multipart('a.xlsx', templateBytes, 'files');
    expect((await post(plain.contentType, plain.body)).statusCode).toBe(200);
    const boundary = '----empty';
    const noFile = await post(`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\ncontent-disposition: form-data; name="note"\r\n\r\nhi\r\n--${boundary}--\r\n`);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('files[]: no file in the upload');

    const kinds = async (name: string, content: Buffer) => answerOf(await upload(server, admin, name, content));
    expect(await kinds('tool.XLSX', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2000, 1)]))).toMatchObject({
      Success: false,
      ResponseType: 'InvalidFile',
      Message: 'The file is not an Excel workbook.',
    });
    expect(await kinds('huge.xlsx', Buffer.alloc(10 * 1024 * 1024 + 1, 1))).toMatchObject({ ResponseType: 'InvalidFile', Message: 'The file is larger than 10 MB.' });
    const bomb = zipWith('xl/worksheets/sheet1.xml', deflateRawSync(Buffer.alloc(256 * 1024 * 1024)), 256 * 1024 * 1024);
    expect(await kinds('bomb.xlsx', bomb)).toMatchObject({
      ResponseType: 'InvalidFile',
      Message: 'The file is not a workbook this portal can read, or it is too large once unpacked.',
    });
  });

  it('sends the template as an xlsx attachment, never cached, and explains an unknown error file', async () => {
    const response = await api(server, 'GET', '/api/application/bulkupload/template', { token: admin });
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="application-upload-template.xlsx"; filename*=UTF-8''application-upload-template.xlsx`);
    expect(response.headers['cache-control']).toBe('no-store');
    const unknown = await api(server, 'GET', '/api/application/bulkupload/errorfile/nope', { token: admin });
    expect(unknown.json().message).toBe('This error file is unknown or has expired. Upload the file again.');
  });

  it('needs a token (401) and app.bulkupload (403)', async () => {
    const file = await filled(templateBytes, [validRow(30, owner)]);
    const staff = await accessTokenFor(server, 'staff@demo.test');
    expect((await upload(server, staff, 'a.xlsx', file)).statusCode).toBe(403);
    expect((await upload(server, 'nonsense', 'a.xlsx', file)).statusCode).toBe(401);
    expect(
      (await api(server, 'GET', '/api/application/bulkupload/template', { token: staff })).statusCode,
    ).toBe(403);
    expect((await api(server, 'GET', '/api/application/bulkupload/errorfile/x', {})).statusCode).toBe(401);
  });
});

/** A one-entry zip whose central directory claims `declaredSize`. */
function zipWith(name: string, deflated: Buffer, declaredSize: number) {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(deflated.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(deflated.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const centralOffset = local.length + nameBytes.length + deflated.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, nameBytes, deflated, central, nameBytes, end]);
}
