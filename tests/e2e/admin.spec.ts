import { expect, test, type Page } from '@playwright/test';
import { signInAt } from './support.ts';

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

  test('the page is blank without the admin claim', async ({ page }) => {
    // The page is lazy: absence means something only once its module has loaded and rendered, so
    // wait for the module, for the Suspense fallback to go, and for React to commit (two frames;
    // a page that ignored the claim renders its heading in its first commit).
    const pageModule = page.waitForResponse((response) => /\/admin-configuration-page[^/]*\.js$/.test(response.url()));
    await signInAt(page, '/admin', 'staff@demo.test');
    expect((await pageModule).ok()).toBe(true);
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('main').getByText('Loading...')).toHaveCount(0);
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))),
    );
    await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Column configuration' })).toHaveCount(0);
    await expect(page.getByRole('checkbox')).toHaveCount(0);
  });
});
