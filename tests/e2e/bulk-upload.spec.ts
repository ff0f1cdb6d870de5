import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAt } from './support.ts';

const modal = (page: Page) => page.getByRole('dialog', { name: 'Upload Applications' });

async function openModal(page: Page) {
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Upload Applications' }).click();
  await expect(modal(page)).toBeVisible();
}

/** Drops `bytes` as `name` through the dropzone's file input (the picker's own input). */
async function drop(page: Page, name: string, bytes: Buffer) {
  await modal(page)
    .getByLabel('Upload applications file')
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
}

async function fill(template: Buffer, rows: Record<number, string | number>[]) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Applications')!;
  rows.forEach((row, index) => {
    for (const [column, value] of Object.entries(row))
      sheet.getRow(index + 2).getCell(Number(column)).value = value;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test('bulk upload: template, a file with issues, its error workbook, the fix, success and the new rows', async ({
  page,
}) => {
  const stamp = Date.now().toString(36).toUpperCase();
  await signInAt(page, '/list', 'admin@demo.test');
  await openModal(page);

  // A .csv is refused before any request.
  await drop(page, 'applications.csv', Buffer.from('a,b\n'));
  await expect(modal(page).getByRole('alert')).toContainText('Only .xlsx and .xls files can be uploaded.');

  const templateDownload = page.waitForEvent('download');
  await modal(page).getByRole('button', { name: 'Download the bulk upload template' }).click();
  const template = await readFile((await (await templateDownload).path())!);
  const owners = await new ExcelJS.Workbook().xlsx.load(template as unknown as ArrayBuffer);
  const owner = String(owners.getWorksheet('Lists')!.getCell('C2').value);

  const row = (n: number, email: string) => ({
    1: `E2E Bulk ${stamp} ${n}`,
    2: 'Individual',
    3: 'Ella',
    4: `Bulk${n}`,
    5: email,
    6: '0412 345 678',
    9: owner,
    10: `E2E-${stamp}-${n}`,
  });
  // Saved as Excel 97-2003 (.xls) by SheetJS, as a person's Save As would (issue 32): read like an .xlsx.
  const withIssue = await fill(template, [row(1, 'ella1@example.com'), row(2, 'not-an-email')]);
  const asXls = XLSX.write(XLSX.read(withIssue, { type: 'buffer' }), { type: 'buffer', bookType: 'biff8' }) as Buffer;
  await drop(page, 'e2e.xls', asXls);
  await expect(
    modal(page).getByText(
      'The application upload template contains one or more issues which must be corrected prior to submission.',
    ),
  ).toBeVisible();
  await expect(
    modal(page).getByText('Once all application issues have been resolved please re-upload the file.'),
  ).toBeVisible();
  await expect(modal(page).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

  const errorDownload = page.waitForEvent('download');
  await modal(page).getByRole('button', { name: 'Download Template & Review Issues' }).click();
  const errorFile = await errorDownload;
  // The error workbook of an .xls comes back as an .xlsx.
  expect(errorFile.suggestedFilename()).toMatch(/\.xlsx$/);
  const errorWorkbook = new ExcelJS.Workbook();
  await errorWorkbook.xlsx.load((await readFile((await errorFile.path())!)) as unknown as ArrayBuffer);
  const sheet = errorWorkbook.getWorksheet('Applications')!;
  expect(sheet.getCell('E3').note).toMatch(/is not a valid e-mail address/);
  expect(sheet.getCell('E3').fill).toMatchObject({ type: 'pattern', fgColor: { argb: 'FFFF9999' } });
  expect(sheet.getCell('E2').note).toBeUndefined();

  // Fix the cell in the error workbook and upload it again.
  sheet.getCell('E3').value = 'ella2@example.com';
  await modal(page).getByRole('button', { name: 'Upload another file' }).click();
  const fixed = Buffer.from(await errorWorkbook.xlsx.writeBuffer());
  await drop(page, 'e2e-fixed.xlsx', fixed);
  await expect(modal(page).getByText('File uploaded successfully.')).toBeVisible();
  await expect(
    modal(page).getByText(
      'All applications have been uploaded successfully and are available in the application listing for review and submission to clients.',
    ),
  ).toBeVisible();

  // The same file again: the specific reason comes first, then the spec's texts (issue 32).
  await modal(page).getByRole('button', { name: 'Upload another file' }).click();
  await drop(page, 'e2e-fixed.xlsx', fixed);
  const refusal = modal(page).getByRole('alert');
  await expect(refusal.locator('p').first()).toHaveText(/^This file was already uploaded in the last hour/);
  await expect(refusal).toContainText('Do not modify the structure of the template.');
  await modal(page).getByRole('button', { name: 'Close' }).click();
  await expect(modal(page)).toBeHidden();

  // The owner is another adviser: the new applications are in All Apps.
  await page.getByRole('link', { name: 'All Apps' }).click();
  await expect(page).toHaveURL(/\/list\/all/);
  const search = page.getByRole('searchbox', { name: 'Search applications' });
  await search.fill(stamp);
  await search.press('Enter');
  await expect(
    page.getByRole('grid', { name: 'Applications' }).getByText(`E2E Bulk ${stamp} 1`),
  ).toBeVisible();
  await expect(
    page.getByRole('grid', { name: 'Applications' }).getByText(`E2E Bulk ${stamp} 2`),
  ).toBeVisible();
});
