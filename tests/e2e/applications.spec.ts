import { readFile } from 'node:fs/promises';
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAt } from './support.ts';

/** The results grid and its data rows (row 0 is the header). */
const grid = (page: Page) => page.getByRole('grid', { name: 'Applications' });
const dataRows = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('rowheader') });
const idOf = async (row: Locator) => (await row.getByRole('rowheader').innerText()).trim();
const visibleIds = async (page: Page) => Promise.all((await dataRows(page).all()).map(idOf));

async function waitForRows(page: Page) {
  await expect(dataRows(page).first()).toBeVisible();
  await expect(grid(page).locator('xpath=ancestor::*[@aria-busy="true"]')).toHaveCount(0);
}

async function pickFilter(page: Page, label: string, options: string[]) {
  // The select's button is named by its value and its label ('Any STATUS').
  await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: new RegExp(`${label}$`) }).click();
  // The open options (react-aria also renders a hidden native select for autofill).
  const list = page.locator('[data-trigger="Select"]').getByRole('listbox');
  for (const option of options) await list.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
}

test.describe('application list', () => {
  test('filters through the modal, summarises them and removes one', async ({ page }) => {
    await signInAt(page, '/list', 'admin@demo.test');
    await waitForRows(page);
    await page.getByRole('button', { name: 'Filters' }).click();
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await expect(dialog.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Clear' })).toBeDisabled();
    await pickFilter(page, 'STATUS', ['Complete', 'Adviser edit']);
    await pickFilter(page, 'LABEL', ['(None)']);
    await expect(dialog.getByRole('button', { name: 'Clear' })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog).toBeHidden();

    await expect(page).toHaveURL(/status=/);
    await expect(page).toHaveURL(/label=%5B%22%22%5D/);
    const summary = page.getByRole('region', { name: 'Filters in use' });
    await expect(summary).toContainText('Results filtered:');
    await expect(summary.getByRole('listitem').filter({ hasText: 'Status:' })).toContainText('Complete');
    await expect(summary.getByRole('listitem').filter({ hasText: 'Status:' })).toContainText('+1');
    await expect(summary.getByRole('listitem').filter({ hasText: 'Label:' })).toContainText('(None)');
    await waitForRows(page);
    const statuses = await dataRows(page).evaluateAll((rows) =>
      rows.map((row) => row.querySelector('[data-style]')?.textContent ?? ''),
    );
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(['Complete', 'Adviser edit']).toContain(status);

    await summary.getByRole('button', { name: 'Remove Status filter' }).click();
    await expect(page).not.toHaveURL(/status=/);
    await expect(page).toHaveURL(/label=/);
    await expect(summary.getByRole('listitem')).toHaveCount(1);
    await summary.getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByRole('region', { name: 'Filters in use' })).toBeHidden();
    await expect(page).toHaveURL(/\/list$/);
  });

  test('sorts, pages, and keeps the state through reload, back and forward', async ({ page }) => {
    await signInAt(page, '/list', 'admin@demo.test');
    await waitForRows(page);
    await expect(page).toHaveTitle(/^Applications \([\d,]+\)$/);
    const idHeader = grid(page).getByRole('columnheader', { name: 'ID' });
    await expect(idHeader).toHaveAttribute('aria-sort', 'descending');

    const clientHeader = grid(page).getByRole('columnheader', { name: 'Client Name' });
    await clientHeader.click();
    await expect(page).toHaveURL(/sortBy=ClientName/);
    await expect(clientHeader).toHaveAttribute('aria-sort', 'descending');
    await clientHeader.click();
    await expect(page).toHaveURL(/sortBy=ClientName&sortType=asc/);
    await expect(clientHeader).toHaveAttribute('aria-sort', 'ascending');
    await waitForRows(page);
    const firstPage = await visibleIds(page);

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/\/list\/2\?sortBy=ClientName&sortType=asc/);
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText(/21 - 40 of [\d,]+/);
    await waitForRows(page);
    const secondPage = await visibleIds(page);
    expect(secondPage).not.toEqual(firstPage);

    await page.reload();
    await waitForRows(page);
    expect(await visibleIds(page)).toEqual(secondPage);
    await expect(grid(page).getByRole('columnheader', { name: 'Client Name' })).toHaveAttribute('aria-sort', 'ascending');

    await page.goBack();
    await expect(page).toHaveURL(/\/list\?sortBy=ClientName&sortType=asc/);
    await waitForRows(page);
    expect(await visibleIds(page)).toEqual(firstPage);
    await page.goForward();
    await expect(page).toHaveURL(/\/list\/2\?/);
    await waitForRows(page);
    expect(await visibleIds(page)).toEqual(secondPage);

    // A new sort goes back to page 1.
    await grid(page).getByRole('columnheader', { name: 'ID' }).click();
    // ID descending is the default, so the address drops the sort and the page altogether.
    await expect(page).toHaveURL(/\/list$/);
  });

  test('names the parameter of an address it cannot read, and leaves it for the list', async ({ page }) => {
    await signInAt(page, '/list?sortBy=Nope', 'admin@demo.test');
    await expect(page.getByText('This list address cannot be read')).toContainText('sortBy');
    await page.getByRole('link', { name: 'Show all applications' }).click();
    await expect(page).toHaveURL(/\/list$/);
    await waitForRows(page);
    const ids = await visibleIds(page);

    // Within the portal, as an edited address would arrive: a history entry the router reads.
    await page.evaluate(() => {
      history.pushState(history.state, '', '/list/0');
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    });
    await expect(page.getByText('This list address cannot be read')).toContainText('pageNo');
    await page.goBack();
    await expect(page).toHaveURL(/\/list$/);
    await waitForRows(page);
    expect(await visibleIds(page)).toEqual(ids);
    await expect(page.getByText('This list address cannot be read')).toBeHidden();
  });

  test('opens a row, and a row in a new tab', async ({ page, context }) => {
    await signInAt(page, '/list/all', 'admin@demo.test');
    await waitForRows(page);
    const first = dataRows(page).first();
    const id = await idOf(first);
    await first.getByRole('gridcell').nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/application/${id}\\?from=all$`));
    await page.goBack();
    await waitForRows(page);

    await dataRows(page).first().getByRole('button', { name: `Actions for application ${id}` }).click();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('menuitem', { name: 'Open in New Tab' }).click(),
    ]);
    await expect(tab).toHaveURL(new RegExp(`/application/${id}\\?from=all$`));
    await expect(page).toHaveURL(/\/list\/all$/);
  });

  test('opens the row menu from the keyboard and gives focus back when it closes', async ({ page }) => {
    await signInAt(page, '/list/all', 'admin@demo.test');
    await waitForRows(page);
    const first = dataRows(page).first();
    const actions = first.getByRole('button', { name: `Actions for application ${await idOf(first)}` });
    // Into the grid, then along the first row's cells to its menu button.
    await first.focus();
    for (let step = 0; step < 30 && !(await actions.evaluate((button) => button === document.activeElement)); step++) {
      await page.keyboard.press('ArrowRight');
    }
    await expect(actions).toBeFocused();
    await expect(actions).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Open in New Tab' })).toBeFocused();
    await expect(actions).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Cancel Application' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(actions).toBeFocused();
    await expect(actions).toHaveAttribute('aria-expanded', 'false');
  });

  test('keeps keyboard focus on the rows of a short page, and says when nothing is found', async ({ page }) => {
    await signInAt(page, '/list/all', 'admin@demo.test');
    await waitForRows(page);
    const search = page.getByRole('searchbox', { name: 'Search applications' });
    await search.fill('lee');
    await search.press('Enter');
    await expect(page).toHaveURL(/q=lee/);
    await waitForRows(page);
    const count = await dataRows(page).count();
    expect(count).toBeGreaterThan(2);
    expect(count).toBeLessThan(20);
    const last = dataRows(page).last();
    const beforeLast = dataRows(page).nth(count - 2);

    await dataRows(page).first().focus();
    await page.keyboard.press('Control+End');
    await expect(last).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(last).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(beforeLast).toBeFocused();
    await page.keyboard.press('PageDown');
    await expect(last).toBeFocused();
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    await expect(last).toBeFocused();
    // From a cell of the last row, ArrowDown stays where it is.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const inCell = await page.evaluateHandle(() => document.activeElement);
    expect(await last.evaluate((row) => row !== document.activeElement && row.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await inCell.evaluate((element) => element === document.activeElement)).toBe(true);

    await search.fill('zzzz-nothing');
    await search.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'No Results.' })).toBeVisible();
    await expect(dataRows(page)).toHaveCount(0);
    await expect(grid(page).getByRole('checkbox', { name: 'Select All' })).toBeDisabled();
  });

  test('a failed load shows an empty list with the failure, and Retry loads it', async ({ page }) => {
    // The first list request fails (the server is unreachable for it); every later one goes through.
    let failures = 0;
    await page.route(/\/api\/application\/list(\?|$)/, async (route) => {
      if (failures === 0) {
        failures += 1;
        await route.abort('connectionfailed');
      } else await route.continue();
    });
    await signInAt(page, '/list', 'admin@demo.test');
    const failure = page.getByRole('alert').filter({ hasText: 'The applications could not be loaded.' });
    await expect(failure).toBeVisible();
    await expect(dataRows(page)).toHaveCount(0);
    expect(failures).toBe(1);

    const reload = page.waitForRequest(/\/api\/application\/list(\?|$)/);
    await failure.getByRole('button', { name: 'Retry' }).click();
    await reload;
    await waitForRows(page);
    await expect(failure).toHaveCount(0);
    expect(await dataRows(page).count()).toBeGreaterThan(0);
  });

  test('cancels two applications from the selection', async ({ page }) => {
    // Adviser submit only: the identity-verification journeys need their seeded people's applications.
    await signInAt(page, `/list/all?status=${encodeURIComponent(JSON.stringify(['Adviser submit']))}`, 'admin@demo.test');
    await waitForRows(page);
    const before = await page.title();
    const rows = dataRows(page);
    const ids = [await idOf(rows.nth(0)), await idOf(rows.nth(1))];
    // force: react-aria keeps the native checkbox visually hidden under its drawn box, which
    // Playwright's visibility check refuses; the menu entry below counts the two ticks.
    await rows.nth(0).getByRole('checkbox').check({ force: true });
    await rows.nth(1).getByRole('checkbox').check({ force: true });
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Cancel 2 application(s)' }).click();

    const dialog = page.getByRole('dialog', { name: 'Cancel 2 application(s)' });
    for (const id of ids) await expect(dialog).toContainText(id);
    await dialog.getByRole('button', { name: 'Cancel 2 application(s)' }).click();
    const done = page.getByRole('dialog', { name: 'Application(s) cancelled' });
    await expect(done.getByText('Cancelled', { exact: true })).toHaveCount(2);
    await done.getByRole('button', { name: 'Close' }).click();

    await waitForRows(page);
    const after = await visibleIds(page);
    for (const id of ids) expect(after).not.toContain(id);
    await expect(page).not.toHaveTitle(before);
  });

  test('exports the filtered list to export.csv', async ({ page }) => {
    await signInAt(page, '/list?status=%5B%22Complete%22%5D', 'admin@demo.test');
    await waitForRows(page);
    const total = Number((await page.title()).replace(/\D/g, ''));
    await page.getByRole('button', { name: 'More' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Export All to CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('export.csv');
    const text = await readFile(await download.path(), 'utf8');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toContain('ID');
    expect(lines[0]).toContain('Status');
    expect(lines).toHaveLength(total + 1);
    for (const line of lines.slice(1)) expect(line).toContain('Complete');
  });

  test('switches to the email view, and back to the list below 1200 px', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await signInAt(page, '/list', 'admin@demo.test');
    await waitForRows(page);
    await page.getByRole('radio', { name: 'Email view' }).click();
    await expect(page).toHaveURL(/view=email/);
    const master = page.getByRole('listbox', { name: 'Applications' });
    await expect(master.getByRole('option').first()).toBeVisible();
    const summary = page.getByRole('region', { name: 'Application summary' });
    await master.getByRole('option').nth(1).click();
    const secondId = (await master.getByRole('option').nth(1).innerText()).match(/\n(\d+) ·/)?.[1];
    await expect(summary).toContainText(`Application ${secondId}`);
    expect(await page.evaluate(() => localStorage.getItem('viewPreference'))).toBe('email');

    await page.setViewportSize({ width: 1100, height: 900 });
    await expect(grid(page)).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Email view' })).toBeDisabled();
    await page.setViewportSize({ width: 1300, height: 900 });
    await expect(page.getByRole('listbox', { name: 'Applications' })).toBeVisible();

    // On a phone only the Status column shows.
    await page.getByRole('radio', { name: 'List view' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(grid(page).getByRole('columnheader', { name: 'Status' })).toBeVisible();
    await expect(grid(page).getByRole('columnheader', { name: 'Email' })).toHaveCount(0);
  });

  test('staff without app.cancel see no checkboxes', async ({ page }) => {
    await signInAt(page, '/list', 'staff@demo.test');
    await waitForRows(page);
    await expect(grid(page).getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Applications shown' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'More' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'New' })).toBeVisible();
  });
});
