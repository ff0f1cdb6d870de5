import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, signInAt } from './support.ts';

const columnTable = (page: Page) => page.getByRole('region', { name: 'Column configuration' });

async function setColumn(page: Page, name: string, enabled: boolean) {
  const table = columnTable(page);
  const checkbox = table.getByRole('checkbox', { name: `Enabled: ${name}` });
  // force: react-aria keeps the native input visually hidden (1 px, clipped) under its drawn box,
  // so Playwright's visibility check refuses it; the check below proves the click took effect.
  if (enabled) await checkbox.check({ force: true });
  else await checkbox.uncheck({ force: true });
  await table.getByRole('button', { name: 'Save' }).click();
  await expect(table.getByRole('status')).toHaveText('Successfully saved');
  // After a save the data reloads from the server (AM §7).
  await expect(checkbox).toBeChecked({ checked: enabled });
  await expect(checkbox).toBeEnabled();
}

test.describe('tenant configuration', () => {
  test('an admin hides a column and staff no longer see it', async ({ page, browser }) => {
    await signInAt(page, '/admin', 'admin@demo.test');
    const table = columnTable(page);
    await expect(table.getByRole('checkbox', { name: 'Enabled: PercentageComplete' })).toBeChecked();
    for (const fixed of ['ID', 'Email', 'AccountName', 'Status']) {
      await expect(table.getByRole('checkbox', { name: `Enabled: ${fixed}` })).toBeDisabled();
      await expect(table.getByRole('checkbox', { name: `Enabled: ${fixed}` })).toBeChecked();
    }
    await expect(page.getByRole('region', { name: 'Application Detail Row configuration' }).getByRole('checkbox').first()).toBeVisible();

    await setColumn(page, 'PercentageComplete', false);
    try {
      const staff = await (await browser.newContext()).newPage();
      await signInAt(staff, '/list', 'staff@demo.test');
      const grid = staff.getByRole('grid', { name: 'Applications' });
      await expect(grid.getByRole('columnheader', { name: 'Status' })).toBeVisible();
      await expect(grid.getByRole('columnheader', { name: '% Complete' })).toHaveCount(0);
      await staff.context().close();
    } finally {
      await setColumn(page, 'PercentageComplete', true);
    }
  });

  test('without the admin claim: the no-access screen with its heading one, no configuration, and axe finds nothing (issue 39 point 21)', async ({ page }) => {
    await signInAt(page, '/admin', 'staff@demo.test');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
    await expect(main.getByRole('alert')).toHaveText('You do not have permission to view this page.');
    await expect(page.getByRole('heading', { name: 'Column configuration' })).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await page.screenshot({ path: 'test-results/admin-no-access.png' });
    expect(await axeViolations(page)).toEqual([]);
  });
});

test.describe('no-access screens (issue 39 point 8)', () => {
  test('/reports without reports.login shows the no-access screen as /users does, and asks the server nothing', async ({ page }) => {
    const summaries: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/reports')) summaries.push(request.url());
    });
    await signInAt(page, '/reports', 'staff@demo.test');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    await expect(main.getByRole('alert')).toHaveText('You do not have permission to view this page.');
    await expect(main.getByText('The report could not be loaded.')).toHaveCount(0);
    await page.screenshot({ path: 'test-results/reports-no-access.png' });
    expect(summaries).toEqual([]);
    await page.goto('/users');
    await expect(main.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(main.getByRole('alert')).toHaveText('You do not have permission to view this page.');
  });
});
