import { readFile } from 'node:fs/promises';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAt } from './support.ts';

const notFoundText =
  'This application cannot be found. The application may no longer exist or you might not have permission to view it.';

/** AM §2 main-column cards (Identification requirements: the demo tenant has ShowEVSummaryResult off) and the side column. */
const claimCards = ['Exceptions', 'Documents', 'Tax Information Details', 'VPN Summary', 'Comments'];
const everyCard = [
  'Exceptions',
  'Details',
  'Approval Status',
  'Documents',
  'Identification requirements',
  'Outstanding documents',
  'Tax Information Details',
  'VPN Summary',
  'Comments',
  'Activity feed',
];

const grid = (page: Page) => page.getByRole('grid', { name: 'Applications' });
const firstRow = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('rowheader') }).first();
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });

/** A small but real PDF: the server sniffs the content, not just the name. */
const pdfBytes = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Complete applications in All Apps, searched and sorted: a list address with state to come back to. */
const filteredList = '/list/all?status=%5B%22Complete%22%5D&sortBy=ClientName&sortType=asc';

async function openFirstRow(page: Page): Promise<string> {
  await expect(firstRow(page)).toBeVisible();
  const id = (await firstRow(page).getByRole('rowheader').innerText()).trim();
  await firstRow(page).click();
  await expect(page).toHaveURL(new RegExp(`/application/${id}\\?from=all$`));
  await expect(page.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();
  await expect(page).toHaveTitle(`(${id})`);
  return id;
}

test.describe('application detail', () => {
  test('every card, a comment, documents up and down, and back to the same filtered list', async ({ page }) => {
    await signInAt(page, filteredList, 'admin@demo.test');
    const listUrl = page.url();
    const id = await openFirstRow(page);

    for (const name of everyCard) await expect(heading(page, name)).toBeVisible();
    // A complete application has no progress ring.
    await expect(heading(page, 'Progress')).toHaveCount(0);
    await expect(card(page, 'Details')).toContainText('Complete');
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    // View and Edit work (application-actions.spec.ts); an admin may edit a completed application.
    await expect(page.getByRole('button', { name: 'View', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeEnabled();

    // AM §5: an empty comment is refused before it is sent, then a real one is saved with its activity item.
    const comments = card(page, 'Comments');
    const box = comments.getByRole('textbox', { name: 'Add a comment' });
    await box.fill('   ');
    await comments.getByRole('button', { name: 'Add Comment' }).click();
    await expect(comments).toContainText('Empty comment cannot be saved.');
    await box.fill('x'.repeat(501));
    await expect(comments).toContainText('Comment cannot be longer than 500 characters.');
    const text = `Checked by e2e ${Date.now()}`;
    await box.fill(text);
    await expect(comments).not.toContainText('Comment cannot be longer');
    await comments.getByRole('button', { name: 'Add Comment' }).click();
    await expect(comments.getByRole('list', { name: 'Comments' }).getByRole('listitem').first()).toContainText(text);
    await expect(box).toHaveValue('');
    const feed = card(page, 'Activity feed');
    await expect(feed.getByRole('listitem').first()).toContainText('Comment added by Avery Admin');

    // Upload: a refused type never reaches the server; a PDF is stored and listed.
    const uploadRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/document/upload/')) uploadRequests.push(request.url());
    });
    const documents = card(page, 'Documents');
    const fileInput = documents.locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ...') });
    const uploads = documents.getByRole('list', { name: 'Uploads' });
    await expect(uploads.getByRole('listitem').filter({ hasText: 'tool.exe' })).toContainText('Invalid file type');
    expect(uploadRequests).toEqual([]);

    // A renamed executable passes the name check, goes, and fails with the server's Message (its content is sniffed).
    await fileInput.setInputFiles({ name: 'renamed.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf') });
    const renamed = uploads.getByRole('listitem').filter({ hasText: 'renamed.pdf' });
    await expect(renamed).toContainText('Invalid file type');
    await expect(renamed.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect(uploadRequests).toHaveLength(1);

    // An empty file of an accepted type is said to be empty (issue 32), not of the wrong type.
    await fileInput.setInputFiles({ name: 'empty.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) });
    await expect(uploads.getByRole('listitem').filter({ hasText: 'empty.pdf' })).toContainText('The file is empty.');
    expect(uploadRequests).toHaveLength(2);

    const pdfName = `e2e-${Date.now()}.pdf`;
    await fileInput.setInputFiles({ name: pdfName, mimeType: 'application/pdf', buffer: pdfBytes });
    await expect(uploads.getByRole('listitem').filter({ hasText: pdfName })).toContainText('Uploaded');
    expect(uploadRequests).toHaveLength(3);
    // Upload results are announced: the list is a polite live region.
    await expect(uploads).toHaveAttribute('aria-live', 'polite');
    const listed = documents.getByRole('list', { name: 'Documents' });
    await expect(listed.getByRole('listitem').filter({ hasText: pdfName })).toBeVisible();
    await expect(feed.getByRole('listitem').first()).toContainText(`Document ${pdfName} uploaded by Avery Admin`);

    // Download it back: the very bytes that were sent.
    const single = page.waitForEvent('download');
    await documents.getByRole('button', { name: `Download ${pdfName}` }).click();
    const downloaded = await single;
    expect(downloaded.suggestedFilename()).toBe(pdfName);
    expect(Buffer.compare(await readFile(await downloaded.path()), pdfBytes)).toBe(0);

    // Every document as one zip, the new one inside (stored, so its name and bytes are readable in the archive).
    const zipped = page.waitForEvent('download');
    await documents.getByRole('button', { name: 'Download all' }).click();
    const zip = await zipped;
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    const archive = await readFile(await zip.path());
    expect(archive.subarray(0, 2).toString()).toBe('PK');
    expect(archive.includes(Buffer.from(pdfName))).toBe(true);
    expect(archive.includes(pdfBytes)).toBe(true);

    // Refresh reloads and refetches every card: a comment added in another tab appears (issue 32).
    const other = await page.context().newPage();
    await other.goto(page.url());
    const otherComments = card(other, 'Comments');
    const otherText = `Added elsewhere ${Date.now()}`;
    await otherComments.getByRole('textbox', { name: 'Add a comment' }).fill(otherText);
    await otherComments.getByRole('button', { name: 'Add Comment' }).click();
    await expect(otherComments.getByRole('listitem').first()).toContainText(otherText);
    await other.close();
    await expect(comments).not.toContainText(otherText);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    await expect(listed.getByRole('listitem').filter({ hasText: pdfName })).toBeVisible();
    await expect(comments.getByRole('list', { name: 'Comments' }).getByRole('listitem').first()).toContainText(otherText);

    // A refetch that fails once keeps the screen and offers a retry (the server cannot be made to fail here).
    await page.route(`**/api/application/get/${id}`, (route) => route.fulfill({ status: 503, body: '' }), { times: 1 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('alert')).toContainText('The application could not be refreshed.');
    await expect(heading(page, 'Details')).toBeVisible();
    await expect(page.getByText(notFoundText)).toHaveCount(0);
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('The application could not be refreshed.')).toHaveCount(0);
    await expect(heading(page, 'Details')).toBeVisible();

    // The breadcrumb returns to the list exactly as it was left.
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Applications' }).click();
    await expect(page).toHaveURL(listUrl);
    await expect(grid(page)).toBeVisible();
    expect(id).toMatch(/^\d+$/);
  });

  test('before completion, with the document list hidden, Outstanding documents offers the upload (issue 32)', async ({ page }) => {
    // The demo tenant has ShowDocumentListBeforeCompletion off: no Documents card before completion.
    await signInAt(page, '/list/all?status=%5B%22Primary%20edit%22%5D', 'admin@demo.test');
    await openFirstRow(page);
    await expect(heading(page, 'Documents')).toHaveCount(0);
    const outstanding = card(page, 'Outstanding documents');
    await expect(outstanding.getByRole('button', { name: 'Choose files' })).toBeVisible();
    const pdfName = `outstanding-${Date.now()}.pdf`;
    await outstanding.locator('input[type=file]').setInputFiles({ name: pdfName, mimeType: 'application/pdf', buffer: pdfBytes });
    await expect(outstanding.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: pdfName })).toContainText('Uploaded');
    await expect(card(page, 'Activity feed').getByRole('listitem').first()).toContainText(`Document ${pdfName} uploaded by Avery Admin`);
  });

  test('a comment typed and added while the comments are still loading is kept and saved (issue 41)', async ({ page }) => {
    // The comments' read is held until the comment is added: the box is there from the start.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/comment/*', async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await signInAt(page, filteredList, 'admin@demo.test');
    await openFirstRow(page);
    const comments = card(page, 'Comments');
    await expect(comments.getByText('Loading…')).toBeVisible();
    const text = `Typed while loading ${Date.now()}`;
    await comments.getByRole('textbox', { name: 'Add a comment' }).fill(text);
    await expect(comments.getByRole('textbox', { name: 'Add a comment' })).toHaveValue(text);
    await comments.getByRole('button', { name: 'Add Comment' }).click();
    await expect(comments.getByRole('list', { name: 'Comments' }).getByRole('listitem').first()).toContainText(text);
    await expect(comments.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');
    release();
  });

  test("a missing id and another tenant's application both read not found", async ({ page, browser, baseURL }) => {
    // Another tenant's application id, as its own admin sees it.
    const acme = await browser.newPage();
    const acmeBase = `http://acme.localhost:${new URL(baseURL ?? '').port}`;
    await signInAt(acme, `${acmeBase}/list/all`, 'admin@acme.test');
    await expect(firstRow(acme)).toBeVisible();
    const acmeId = (await firstRow(acme).getByRole('rowheader').innerText()).trim();
    await acme.close();

    await signInAt(page, '/application/999999999?from=all', 'admin@demo.test');
    await expect(page.getByRole('alert')).toHaveText(new RegExp(notFoundText.replace(/[.()]/g, '\\$&')));
    await page.goto(`/application/${acmeId}?from=all`);
    await expect(page.getByText(notFoundText)).toBeVisible();
    await expect(heading(page, 'Details')).toHaveCount(0);
  });

  test('a person without the card claims sees none of those cards', async ({ page }) => {
    await signInAt(page, filteredList, 'readonly@demo.test');
    await openFirstRow(page);
    await expect(heading(page, 'Details')).toBeVisible();
    await expect(heading(page, 'Activity feed')).toBeVisible();
    for (const name of claimCards) await expect(heading(page, name)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'View' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  });

  test('on a phone: the cards in one column and a back-to-listing button', async ({ page }) => {
    await signInAt(page, filteredList, 'admin@demo.test');
    const listUrl = page.url();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(firstRow(page)).toBeVisible();
    await firstRow(page).click();
    await expect(page).toHaveURL(/\/application\/\d+\?from=all$/);
    await expect(heading(page, 'Details')).toBeVisible();
    // The header hides the breadcrumbs on a phone; the page offers its own way back.
    await expect(page.getByRole('navigation', { name: 'Breadcrumbs' })).toBeHidden();
    const details = await heading(page, 'Details').boundingBox();
    const feed = await heading(page, 'Activity feed').boundingBox();
    expect(feed && details && feed.y > details.y).toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.getByRole('link', { name: 'Back to listing' }).click();
    await expect(page).toHaveURL(listUrl);
  });
});
