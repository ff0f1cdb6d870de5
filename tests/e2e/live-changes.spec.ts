import { type Browser, type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAt } from './support.ts';

/**
 * Issue 42: what a colleague does appears without pressing Refresh. One browser (Avery Admin)
 * assigns, labels and cancels an application; in two others, Riley Reader has its detail open and
 * Morgan Manager the list with it on the page, and each change appears there without a click.
 */

const listOf = (status: string) => `/list/all?status=${encodeURIComponent(JSON.stringify([status]))}`;
const grid = (page: Page) => page.getByRole('grid', { name: 'Applications' });
const firstRow = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('rowheader') }).first();
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const detailValue = (page: Page, label: string) =>
  card(page, 'Details').locator('div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
const liveStatus = (page: Page) => page.locator('header').getByText('Live', { exact: true });

/** Opens a combobox's list and picks the first option whose name is not `avoid`; returns the name picked. */
async function pickOtherOption(page: Page, dialog: Locator, avoid: string): Promise<string> {
  await dialog.getByRole('button', { name: 'Show options' }).click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = (await options.allInnerTexts()).map((name) => name.trim());
  const name = names.find((candidate) => candidate !== avoid && candidate !== '');
  if (!name) throw new Error(`no option other than ${avoid}`);
  await options.filter({ hasText: new RegExp(`^${name}$`) }).click();
  return name;
}

async function signedInPage(browser: Browser, path: string, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAt(page, path, email);
  return page;
}

test('a colleague assigns, labels and cancels: the open detail and the list follow without a click', async ({ browser }) => {
  const writer = await signedInPage(browser, listOf('Adviser edit'), 'admin@demo.test');
  await expect(firstRow(writer)).toBeVisible();
  const id = (await firstRow(writer).getByRole('rowheader').innerText()).trim();
  await firstRow(writer).click();
  await expect(writer.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();

  const reader = await signedInPage(browser, `/application/${id}?from=all`, 'readonly@demo.test');
  await expect(reader.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();
  const lister = await signedInPage(browser, `/list/all?q=${id}`, 'manager@demo.test');
  const row = grid(lister).getByRole('row').filter({ has: lister.getByRole('rowheader', { name: id, exact: true }) });
  await expect(row).toBeVisible();
  // Each tab holds its stream before the first change is made.
  await expect(liveStatus(reader)).toBeVisible();
  await expect(liveStatus(lister)).toBeVisible();
  await lister.screenshot({ path: 'test-results/live-changes-list-live.png' });

  // Assign.
  await writer.getByRole('button', { name: 'Edit assignee' }).click();
  let dialog = writer.getByRole('dialog', { name: 'Edit Assignee' });
  const saved = (await detailValue(writer, 'Assignee').innerText()).replace(/\s*Edit$/, '').trim();
  const assignee = await pickOtherOption(writer, dialog, saved);
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(detailValue(reader, 'Assignee')).toContainText(assignee);
  await expect(reader.getByTestId('live-change')).toHaveText(`Assigned to ${assignee} by Avery Admin, just now`);
  await expect(row).toContainText(assignee);
  await reader.screenshot({ path: 'test-results/live-changes-detail-assigned.png' });

  // Label.
  await writer.getByRole('button', { name: 'Edit label' }).click();
  dialog = writer.getByRole('dialog', { name: 'Edit Label' });
  const savedLabel = (await detailValue(writer, 'Label').innerText()).replace(/\s*Edit$/, '').trim();
  const label = await pickOtherOption(writer, dialog, savedLabel);
  await dialog.getByRole('button', { name: 'Set label' }).click();
  await expect(dialog).toBeHidden();
  await expect(detailValue(reader, 'Label')).toContainText(label);
  await expect(reader.getByTestId('live-change')).toHaveText(`Label set to ${label} by Avery Admin, just now`);
  await expect(row).toContainText(label);

  // Cancel: the detail says so; the list keeps the row where it is and counts it in a polite banner.
  await writer.getByRole('button', { name: 'Actions' }).click();
  await writer.getByRole('menuitem', { name: 'Cancel Application', exact: true }).click();
  dialog = writer.getByRole('dialog', { name: 'Cancel 1 application(s)' });
  await dialog.getByRole('button', { name: 'Cancel 1 application(s)' }).click();
  await expect(writer.getByRole('dialog', { name: 'Application(s) cancelled' })).toBeVisible();
  await expect(reader.getByTestId('live-change')).toHaveText('Application cancelled by Avery Admin, just now');
  await expect(detailValue(reader, 'Status')).toContainText('Cancelled');
  const banner = lister.getByTestId('live-banner');
  await expect(banner).toContainText('1 application removed —');
  await expect(row).toBeVisible();
  await expect(lister.getByRole('status').filter({ hasText: '1 application removed' })).toHaveCount(1);
  await lister.screenshot({ path: 'test-results/live-changes-list-banner.png' });
  await banner.getByRole('button', { name: 'Show' }).click();
  await expect(row).toHaveCount(0);
  await expect(banner).toHaveCount(0);
});

test('an editor open while a colleague changes its value keeps what was picked and says so', async ({ browser }) => {
  const writer = await signedInPage(browser, listOf('Adviser edit'), 'admin@demo.test');
  await expect(firstRow(writer)).toBeVisible();
  const id = (await firstRow(writer).getByRole('rowheader').innerText()).trim();
  await firstRow(writer).click();
  await expect(writer.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();

  const editor = await signedInPage(browser, `/application/${id}?from=all`, 'manager@demo.test');
  await expect(liveStatus(editor)).toBeVisible();
  await editor.getByRole('button', { name: 'Edit assignee' }).click();
  const open = editor.getByRole('dialog', { name: 'Edit Assignee' });
  const saved = (await detailValue(editor, 'Assignee').innerText()).replace(/\s*Edit$/, '').trim();
  const picked = await pickOtherOption(editor, open, saved);
  await expect(open.getByRole('combobox', { name: 'Assignee' })).toHaveValue(picked);

  // The colleague assigns someone else meanwhile.
  await writer.getByRole('button', { name: 'Edit assignee' }).click();
  const dialog = writer.getByRole('dialog', { name: 'Edit Assignee' });
  const assigned = await pickOtherOption(writer, dialog, picked);
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(open.getByRole('status').filter({ hasText: 'Someone else changed this while you were editing' })).toContainText(`it is now ${assigned}.`);
  await expect(open.getByRole('combobox', { name: 'Assignee' })).toHaveValue(picked);
  await expect(editor.getByTestId('live-change')).toHaveText(`Assigned to ${assigned} by Avery Admin, just now`);
  await editor.screenshot({ path: 'test-results/live-changes-editor-underneath.png' });
});
