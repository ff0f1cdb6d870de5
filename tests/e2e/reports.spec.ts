import { expect, test, type Page } from '@playwright/test';
import { signInAt } from './support.ts';

/**
 * The Reports page (issue 30) in Chromium against the real server and the seeded demo tenant:
 * five charts, their tables, a drill-down whose list total equals the figure, the range in the
 * address, axe.
 */

const charts = (page: Page) => page.locator('.apexcharts-canvas');
const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

async function axeViolations(page: Page) {
  await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
  return page.evaluate(async () => {
    const axe = Reflect.get(window, 'axe') as { run: (context: Document) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
    const result = await axe.run(document);
    return result.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

test.describe('Reports page (issue 30)', () => {
  // axe is injected as a script of the page, which the portal's Content-Security-Policy refuses.
  test.use({ bypassCSP: true, viewport: { width: 1400, height: 1700 } });

  test('draws the five charts; a table shows the plotted figures and drills down to a list of that total', async ({ page }) => {
    await signInAt(page, '/reports?from=2025-01-01&to=2025-12-31', 'admin@demo.test');
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    await expect(charts(page)).toHaveCount(5);
    for (const title of ['Initiated Applications', 'Application Types Created', 'Completed Applications', 'Time to Complete', 'Last Section for Incomplete Applications']) {
      await expect(card(page, title)).toBeVisible();
    }
    await page.screenshot({ path: test.info().outputPath('reports.png'), fullPage: true });

    // The table holds the figures the chart plots (apexcharts' own data labels on the bars).
    const initiated = card(page, 'Initiated Applications');
    const plotted = await initiated.locator('.apexcharts-series').first().locator('.apexcharts-datalabel, .apexcharts-data-labels text').allTextContents();
    await initiated.getByRole('button', { name: 'View as table' }).click();
    const table = initiated.getByRole('table', { name: 'Initiated Applications' });
    await expect(table).toBeVisible();
    const completeColumn = await table.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(completeColumn).toHaveLength(6);
    if (plotted.length > 0) expect(plotted.filter(Boolean)).toEqual(completeColumn.filter((value) => value !== '0'));
    expect(await axeViolations(page)).toEqual([]);

    // Joint, Complete: the link opens the list filtered to exactly those applications.
    const jointComplete = table.getByRole('row', { name: /^Joint/ }).getByRole('link').first();
    const figure = Number(await jointComplete.textContent());
    expect(figure).toBeGreaterThan(0);
    await jointComplete.click();
    await expect(page).toHaveURL(/\/list\/all\?.*applicationType=.*Joint.*createdFrom=2025-01-01.*createdTo=2025-12-31.*completed=true/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`(${figure.toLocaleString('en-AU')})`);
    await expect(page.getByRole('region', { name: 'Filters in use' })).toContainText('Application type: Joint');
  });

  test('a click on a bar drills down too, and the range survives a reload and back/forward', async ({ page }) => {
    await signInAt(page, '/reports?from=2025-07-01&to=2025-12-31', 'admin@demo.test');
    await expect(charts(page)).toHaveCount(5);
    const completed = card(page, 'Completed Applications');
    await completed.getByRole('button', { name: 'View as table' }).click();
    const firstMonth = completed.getByRole('table').getByRole('row', { name: /^Jul 2025/ }).getByRole('link');
    const figure = Number(await firstMonth.textContent());
    await completed.getByRole('button', { name: 'View as chart' }).click();
    await completed.locator('.apexcharts-bar-area').first().click();
    await expect(page).toHaveURL(/completedFrom=2025-07-01&completedTo=2025-07-31/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`(${figure.toLocaleString('en-AU')})`);

    await page.goBack();
    await expect(page).toHaveURL(/\/reports\?from=2025-07-01&to=2025-12-31/);
    await page.reload();
    await expect(charts(page)).toHaveCount(5);
    await expect(page.getByText('Applications you can see, 2025-07-01 to 2025-12-31')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
