import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAt } from './support.ts';

/**
 * The Reports page (issue 30) in Chromium against the real server and the seeded demo tenant:
 * five charts, their tables, a drill-down whose list total equals the figure, the range in the
 * address, axe.
 */

const charts = (page: Page) => page.locator('.apexcharts-canvas');
/** A date segment of the picker, by react-aria's name ('year, End Date, Date range'). */
const segment = (page: Page, part: 'year, Start Date' | 'year, End Date') => page.getByRole('spinbutton', { name: new RegExp(`^${part}`) });
const historyLength = (page: Page) => page.evaluate(() => history.length);
/** The picker's days as react-aria submits them (hidden inputs named from and to). */
const pickerDay = (page: Page, name: 'from' | 'to') => page.locator(`input[name="${name}"]`);

/** Every GET /api/reports/summary the page makes, by its query. */
function summaryRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/reports/summary') seen.push(url.search);
  });
  return seen;
}
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

  test('a typed range goes into the address once, when it is done and valid; Back brings picker and charts back together (issue 39 point 4)', async ({ page }) => {
    const requests = summaryRequests(page);
    await signInAt(page, '/reports?from=2024-07-01&to=2024-12-31', 'admin@demo.test');
    await expect(charts(page)).toHaveCount(5);
    expect(requests).toEqual(['?from=2024-07-01&to=2024-12-31']);
    const before = await historyLength(page);

    // The year typed digit by digit passes 0002, 0020 and 0202: none of them is asked for or kept.
    await segment(page, 'year, End Date').click();
    await page.keyboard.type('2025');
    await expect(page).toHaveURL(/\/reports\?from=2024-07-01&to=2024-12-31$/);
    expect(await historyLength(page)).toBe(before);
    await expect(pickerDay(page, 'to')).toHaveValue('2025-12-31');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/reports\?from=2024-07-01&to=2025-12-31$/);
    await expect(page.getByText('Applications you can see, 2024-07-01 to 2025-12-31')).toBeVisible();
    expect(await historyLength(page)).toBe(before + 1);

    // Focus leaving the picker is done too.
    await segment(page, 'year, Start Date').click();
    await page.keyboard.type('2025');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).click();
    await expect(page).toHaveURL(/\/reports\?from=2025-07-01&to=2025-12-31$/);
    await expect(page.getByText('Applications you can see, 2025-07-01 to 2025-12-31')).toBeVisible();
    expect(await historyLength(page)).toBe(before + 2);
    expect(requests).toEqual(['?from=2024-07-01&to=2024-12-31', '?from=2024-07-01&to=2025-12-31', '?from=2025-07-01&to=2025-12-31']);

    // Back: the picker shows the range the charts count.
    await page.goBack();
    await expect(page).toHaveURL(/\/reports\?from=2024-07-01&to=2025-12-31$/);
    await expect(page.getByText('Applications you can see, 2024-07-01 to 2025-12-31')).toBeVisible();
    await expect(pickerDay(page, 'from')).toHaveValue('2024-07-01');
    await expect(pickerDay(page, 'to')).toHaveValue('2025-12-31');
    await page.goBack();
    await expect(page).toHaveURL(/\/reports\?from=2024-07-01&to=2024-12-31$/);
    await expect(page.getByText('Applications you can see, 2024-07-01 to 2024-12-31')).toBeVisible();
    await expect(pickerDay(page, 'from')).toHaveValue('2024-07-01');
    await expect(pickerDay(page, 'to')).toHaveValue('2024-12-31');
    await expect(charts(page)).toHaveCount(5);
  });

  test('a range that cannot be reported says why, offers no Retry and is not asked for again (issue 39 point 5)', async ({ page }) => {
    const requests = summaryRequests(page);
    // Known wrong in the browser (the rule the server uses): nothing is asked.
    await signInAt(page, '/reports?from=2026-03-01&to=2026-02-01', 'admin@demo.test');
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('This date range cannot be reported: to: must not be before from (2026-03-01)');
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await expect(charts(page)).toHaveCount(0);
    expect(requests).toEqual([]);

    await page.goto('/reports?from=2026-02-30&to=2026-03-31');
    await expect(alert).toHaveText('This date range cannot be reported: from: must be a real day written YYYY-MM-DD');
    await page.goto('/reports?from=2016-01-01&to=2026-01-09');
    await expect(alert).toHaveText('This date range cannot be reported: from: the range is at most 3,660 days (this one is 3,661)');
    expect(requests).toEqual([]);

    // Only the server knows the tenant's today before any figures: its 400's message, once.
    await page.goto('/reports?from=2099-01-01&to=2099-01-31');
    await expect(alert).toContainText('This date range cannot be reported: from: must not be after today (');
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect(requests).toEqual(['?from=2099-01-01&to=2099-01-31']);

    // Typed: refused beside the picker, the address and the charts stay as they were.
    await page.goto('/reports?from=2025-07-01&to=2025-12-31');
    await expect(charts(page)).toHaveCount(5);
    await segment(page, 'year, End Date').click();
    await page.keyboard.type('2024');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('to: must not be before from (2025-07-01)');
    await expect(page).toHaveURL(/\/reports\?from=2025-07-01&to=2025-12-31$/);
    await expect(page.getByText('Applications you can see, 2025-07-01 to 2025-12-31')).toBeVisible();
    expect(requests).toEqual(['?from=2099-01-01&to=2099-01-31', '?from=2025-07-01&to=2025-12-31']);
  });

  test('an empty range says so on every chart, and no whole month is partial (issue 39 point 6)', async ({ page }) => {
    await signInAt(page, '/reports?from=2015-01-01&to=2015-03-31', 'admin@demo.test');
    await expect(card(page, 'Initiated Applications')).toContainText('No applications in this range');
    await expect(card(page, 'Application Types Created')).toContainText('No applications in this range');
    await expect(card(page, 'Completed Applications')).toContainText('No applications completed in this range');
    await expect(card(page, 'Time to Complete')).toContainText('No applications completed in this range');
    await expect(card(page, 'Last Section for Incomplete Applications')).toContainText('No incomplete applications in this range');
    await expect(charts(page)).toHaveCount(0);
    // A whole month inside the range is not partial.
    await card(page, 'Completed Applications').getByRole('button', { name: 'View as table' }).click();
    await expect(card(page, 'Completed Applications').getByRole('rowheader')).toHaveText(['Jan 2015', 'Feb 2015', 'Mar 2015']);
    await page.screenshot({ path: test.info().outputPath('reports-empty.png'), fullPage: true });
  });

  test('the pie names every slice whole (issue 39 point 7)', async ({ page }) => {
    await signInAt(page, '/reports?from=2025-01-01&to=2025-12-31', 'admin@demo.test');
    const pie = card(page, 'Application Types Created');
    const labels = pie.locator('.apexcharts-pie-label');
    await expect(labels).toHaveText(['Individual', 'Joint', 'Company', 'Trust Individual', 'Trust Corporate', 'Other']);
    // A label may overhang its slice onto the white card: dark text in a white halo, all inside the drawing.
    const drawn = await labels.evaluateAll((elements) =>
      elements.map((element) => {
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        const svg = element.closest('svg')?.getBoundingClientRect();
        const inside = svg !== undefined && box.left >= svg.left && box.right <= svg.right && box.top >= svg.top && box.bottom <= svg.bottom;
        return { fill: style.fill, halo: style.stroke, order: style.paintOrder.split(' ')[0], inside };
      }),
    );
    for (const label of drawn) expect(label).toEqual({ fill: 'rgb(27, 31, 36)', halo: 'rgb(255, 255, 255)', order: 'stroke', inside: true });
    await pie.screenshot({ path: test.info().outputPath('reports-pie.png') });
  });
});
