import { readFile } from 'node:fs/promises';
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { pdfText } from '../server/pdf-text.ts';
import { axeViolations, signInAt } from './support.ts';

/**
 * AM §2 the detail's Actions menu, View and Edit, §4 their transitions, §6 the claims that show
 * them, §8 their texts: each done as a person does it, and its activity item seen in the feed
 * after the detail refetches.
 */

const listOf = (status: string) => `/list/all?status=${encodeURIComponent(JSON.stringify([status]))}`;
const grid = (page: Page) => page.getByRole('grid', { name: 'Applications' });
const rows = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('rowheader') });
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const latestActivity = (page: Page) => card(page, 'Activity feed').getByRole('listitem').first();
const actionsButton = (page: Page) => page.getByRole('button', { name: 'Actions', exact: true });
const actionsMenu = (page: Page) => page.getByRole('menu', { name: 'Actions' });
/** AM §2 Header card (titled by the account name): its status badge and the applicant's contact details. */
const headerCard = (page: Page) =>
  page.getByRole('region').filter({ has: page.locator('dt', { hasText: /^Application ID$/ }) }).last();
const statusValue = headerCard;
const emailLink = (page: Page) => headerCard(page).locator('a[href^="mailto:"]');

async function openRow(page: Page, index: number): Promise<number> {
  const row = rows(page).nth(index);
  await expect(row).toBeVisible();
  const id = (await row.getByRole('rowheader').innerText()).trim();
  await row.click();
  await expect(page.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();
  return Number(id);
}

async function openMenu(page: Page) {
  await actionsButton(page).click();
  await expect(actionsMenu(page)).toBeVisible();
  return actionsMenu(page);
}

/** The first application in `status` whose Actions menu offers `item` (the seed mixes signing modes). */
async function openApplicationOffering(page: Page, status: string, item: string): Promise<number> {
  await signInAt(page, listOf(status), 'admin@demo.test');
  for (let index = 0; index < 8; index++) {
    const id = await openRow(page, index);
    const menu = await openMenu(page);
    if ((await menu.getByRole('menuitem', { name: item, exact: true }).count()) > 0) return id;
    await page.keyboard.press('Escape');
    await page.goBack();
  }
  throw new Error(`none of the first 8 ${status} applications offers ${item}`);
}

test.describe('application actions', () => {
  test('the menu by keyboard, in the spec order; Unlock a Locked application', async ({ page }) => {
    await signInAt(page, listOf('Locked'), 'admin@demo.test');
    await openRow(page, 0);
    await expect(statusValue(page)).toContainText('Locked');

    // The menu button pattern: arrow down opens it on its first item, Escape gives focus back.
    await actionsButton(page).focus();
    await page.keyboard.press('ArrowDown');
    const menu = actionsMenu(page);
    await expect(menu).toBeVisible();
    const unlock = menu.getByRole('menuitem', { name: 'Unlock', exact: true });
    await expect(unlock).toBeFocused();
    // AM §2 order; a Locked application is none of the four resumable statuses and is not complete.
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
      'Unlock',
      'Draft Report',
      'Cancel Application',
      'Depersonalise Application',
    ]);
    await page.screenshot({ path: 'test-results/actions-menu.png' });
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(actionsButton(page)).toBeFocused();

    await (await openMenu(page)).getByRole('menuitem', { name: 'Unlock', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlock Application' });
    await expect(dialog).toContainText('Unlock this application?');
    await page.screenshot({ path: 'test-results/actions-unlock-modal.png' });
    await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
    // It closes itself on success; the refetched detail shows the status it went back to.
    await expect(dialog).toBeHidden();
    // The menu item that opened it left with the menu: focus goes back to Actions, not <body>.
    await expect(actionsButton(page)).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Completed successfully.' })).toHaveCount(1);
    await expect(latestActivity(page)).toContainText(/Application unlocked \(back to .+\) by Avery Admin/);
    await expect(statusValue(page)).not.toContainText('Locked');
    await expect((await openMenu(page)).getByRole('menuitem', { name: 'Unlock', exact: true })).toHaveCount(0);
  });

  test('Email Resume Link with a message, then the e-mail on the outbox page', async ({ page }) => {
    const id = await openApplicationOffering(page, 'Primary edit', 'Email Resume Link');
    const to = (await emailLink(page).innerText()).trim();
    await actionsMenu(page).getByRole('menuitem', { name: 'Email Resume Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Email resume link' });
    const message = `Please finish by Friday (e2e ${Date.now()})`;
    await dialog.getByRole('textbox', { name: 'Personalised message (optional)' }).fill(message);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Email has been sent.');
    await page.screenshot({ path: 'test-results/actions-email-sent.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(actionsButton(page)).toBeFocused();
    await expect(latestActivity(page)).toContainText(/Resume link e-mailed to .+ by Avery Admin/);

    await page.goto('/outbox');
    const sent = page.getByRole('article').filter({ hasText: message });
    await expect(sent).toHaveCount(1);
    await expect(sent.getByRole('heading', { level: 2 })).toContainText('Continue your application with');
    await expect(sent).toContainText(to);
    await expect(sent).toContainText(String(id));
  });

  test('a report item downloads the PDF, read back', async ({ page }) => {
    await signInAt(page, listOf('Complete'), 'admin@demo.test');
    const id = await openRow(page, 0);
    const menu = await openMenu(page);
    const download = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'Final Report', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`application-${id}-final-report.pdf`);
    const bytes = await readFile(await file.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, text } = await pdfText(bytes);
    expect(pages).toBeGreaterThanOrEqual(1);
    expect(text.join('\n')).toContain(`Final Report: Application ${id}`);
    // Generating it is recorded; the detail refetched.
    await expect(latestActivity(page)).toContainText('Final Report generated by Avery Admin');
  });

  test('an API step: Confirm Action, then the sandbox answer for this application', async ({ page }) => {
    await signInAt(page, listOf('Complete'), 'admin@demo.test');
    const id = await openRow(page, 1);
    await (await openMenu(page)).getByRole('menuitem', { name: 'Send to core banking', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Action' });
    await expect(dialog).toContainText('Run “Send to core banking” for this application?');
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    // The sandbox answers by the ID's last digit (README "Sandbox API steps"): 0–6 succeed.
    const refusals: Record<number, string> = {
      7: 'Core banking refused the application: the customer already exists.',
      8: 'Core banking refused the application: the account number is missing.',
      9: 'Core banking did not answer in time. Please try again later.',
    };
    const refusal = refusals[id % 10];
    if (refusal) {
      await expect(dialog.getByRole('alert')).toHaveText(refusal);
      // Issue 32: Try again only where it may help (the time-out), not after a refusal.
      await expect(dialog.getByRole('button', { name: 'Try again' })).toHaveCount(id % 10 === 9 ? 1 : 0);
    } else {
      // Issue 32: the step's own message, not the default text.
      await expect(dialog.getByRole('status')).toHaveText(/^Sent to core banking\. Customer reference CB-.+\.$/);
    }
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(latestActivity(page)).toContainText(
      `Send to core banking triggered by Avery Admin: ${refusal ? 'failed' : 'succeeded'}`,
    );
  });

  test('Edit on a completed application asks first, then opens the form; View opens it read-only', async ({ page, context }) => {
    await signInAt(page, listOf('Complete'), 'admin@demo.test');
    await openRow(page, 2);

    const viewed = context.waitForEvent('page');
    await page.getByRole('button', { name: 'View', exact: true }).click();
    const viewWindow = await viewed;
    expect(viewWindow.url()).toMatch(/^https?:\/\//);
    await viewWindow.close();

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    // AM §4: RequireConfirmation → the confirmation modal; nothing has opened yet.
    const dialog = page.getByRole('dialog', { name: 'Edit Application' });
    await expect(dialog).toContainText('Editing it resets its approval, so the applicants must approve it again.');
    await page.screenshot({ path: 'test-results/actions-edit-confirmation.png' });
    expect(context.pages()).toHaveLength(1);
    const opened = context.waitForEvent('page');
    await dialog.getByRole('button', { name: 'Edit application' }).click();
    const editWindow = await opened;
    expect(editWindow.url()).toMatch(/^https?:\/\//);
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText('Completed application reopened for editing by Avery Admin; approvals reset');
    await expect(statusValue(page)).not.toContainText('Complete');
  });

  test('Depersonalise: the warning, the spec text, and still depersonalised after a reload', async ({ page }) => {
    // The oldest: the newest in this status are the identity-verification spec's sandbox people.
    await signInAt(page, `${listOf('Secondary review')}&sortType=asc`, 'admin@demo.test');
    const id = await openRow(page, 0);
    const email = (await emailLink(page).innerText()).trim();
    expect(email).toContain('@');
    await (await openMenu(page)).getByRole('menuitem', { name: 'Depersonalise Application', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Depersonalise application' });
    await expect(dialog).toContainText('It cannot be undone.');
    await page.screenshot({ path: 'test-results/actions-depersonalise-modal.png' });
    await dialog.getByRole('button', { name: 'Depersonalise', exact: true }).click();
    await expect(dialog.getByRole('status')).toHaveText('Depersonalisation completed successfully.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(statusValue(page)).toContainText('Depersonalised');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();
    await expect(statusValue(page)).toContainText('Depersonalised');
    // The personal data is gone for good: the e-mail address is not shown any more.
    await expect(headerCard(page)).not.toContainText(email);
    const menu = await openMenu(page);
    await expect(menu.getByRole('menuitem', { name: 'Depersonalise Application' })).toHaveCount(0);
  });

  test('Cancel Application: the result, then back to the list without it', async ({ page }) => {
    await signInAt(page, listOf('Adviser submit'), 'admin@demo.test');
    const id = await openRow(page, 0);
    await (await openMenu(page)).getByRole('menuitem', { name: 'Cancel Application', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel 1 application(s)' });
    await expect(dialog).toContainText(String(id));
    await dialog.getByRole('button', { name: 'Cancel 1 application(s)' }).click();
    // AM §8: the list's result view, the application with its status (Cancelled or Error).
    const done = page.getByRole('dialog', { name: 'Application(s) cancelled' });
    await expect(done.getByRole('listitem')).toHaveCount(1);
    await expect(done.getByRole('listitem')).toContainText(String(id));
    await expect(done.getByText('Cancelled', { exact: true })).toBeVisible();
    await done.getByRole('button', { name: 'Close' }).click();
    // Cancelled applications leave every listing: the person is back where they came from, without it.
    await expect(page).toHaveURL(/\/list\/all\?status=/);
    await expect(rows(page).first()).toBeVisible();
    await expect(grid(page).getByRole('rowheader', { name: String(id), exact: true })).toHaveCount(0);

    // Issue 32: its own address still opens it (Back), marked Cancelled, read-only, with who cancelled it.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();
    await expect(statusValue(page)).toContainText('Cancelled');
    await expect(page.getByRole('complementary', { name: 'Activity' }).getByText('Application cancelled by Avery Admin')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add comment' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Choose files' })).toHaveCount(0);
    const menu = await openMenu(page);
    await expect(menu.getByRole('menuitem', { name: 'Cancel Application' })).toHaveCount(0);
    // Issue 38 point 6: closed for work, not for erasure.
    await expect(menu.getByRole('menuitem', { name: 'Depersonalise Application' })).toBeVisible();
    await page.screenshot({ path: 'test-results/actions-cancelled-menu.png' });
    await page.keyboard.press('Escape');
    expect(await axeViolations(page)).toEqual([]);
    await (await openMenu(page)).getByRole('menuitem', { name: 'Depersonalise Application', exact: true }).click();
    const erase = page.getByRole('dialog', { name: 'Depersonalise application' });
    await erase.getByRole('button', { name: 'Depersonalise', exact: true }).click();
    await expect(erase.getByRole('status')).toHaveText('Depersonalisation completed successfully.');
    await erase.getByRole('button', { name: 'Close' }).click();
    await expect(statusValue(page)).toContainText('Depersonalised');
  });

  test('without the claims: no items for a read-only user; no Depersonalise for a manager', async ({ page, browser }) => {
    await signInAt(page, '/list/all', 'readonly@demo.test');
    await openRow(page, 0);
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
    for (const name of ['Actions', 'View', 'Edit']) {
      await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
    }

    const manager = await browser.newPage();
    await signInAt(manager, listOf('Primary submit'), 'manager@demo.test');
    await openRow(manager, 0);
    const menu = await openMenu(manager);
    await expect(menu.getByRole('menuitem', { name: 'Cancel Application' })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Depersonalise Application' })).toHaveCount(0);
    await manager.close();
  });
});
