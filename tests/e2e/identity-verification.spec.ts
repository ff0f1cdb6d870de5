import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, signInAt } from './support.ts';

/**
 * Issue 14 in Chromium against the real server and the sandbox provider, on the seeded sandbox
 * people (server/db/identity-verification-seed.ts): Sandra and Samuel Sandbox pass, Jane Fail
 * fails, Mallory Embargo is on the sample sanctions list.
 */

const grid = (page: Page) => page.getByRole('grid', { name: 'Applications' });
const requirements = (page: Page) => page.getByRole('region', { name: 'Identification requirements', exact: true });
const activity = (page: Page) => page.getByRole('complementary', { name: 'Activity' });
const consent = (page: Page) => page.getByRole('checkbox', { name: /I confirm that I am authorised/ });

/** Finds the person's application through the list search and opens it. */
async function openApplicationOf(page: Page, email: string, name: string) {
  await signInAt(page, '/list/all', email);
  const search = page.getByRole('searchbox', { name: 'Search applications' });
  await search.fill(name);
  await search.press('Enter');
  await expect(page).toHaveURL(/q=/);
  // The list has taken the search (its chip) and shown its answer (nothing busy). Until then the grid
  // still shows the first page, where this person may be in another row (Samuel Sandbox is the 7th).
  // A click that found that cell keeps it while it stays in the page, and once the answer empties its
  // row the cell is hidden: the click waited on it until the test timed out (issue 41).
  await expect(page.getByRole('region', { name: 'Filters in use' }).getByText(name)).toBeVisible();
  await expect(grid(page).locator('xpath=ancestor::*[@aria-busy="true"]')).toHaveCount(0);
  // Only the result row: the grid may keep an earlier, hidden row mounted (the focused one).
  const cell = grid(page).getByRole('gridcell', { name, exact: true }).filter({ visible: true }).first();
  await expect(cell).toBeVisible();
  await cell.click();
  await expect(page.getByRole('heading', { level: 1, name: /^Application \(\d+\)$/ })).toBeVisible();
  await expect(requirements(page)).toBeVisible();
}

const menuButton = (page: Page, name: string) => page.getByRole('button', { name: `Verify ${name}`, exact: true });

async function choose(page: Page, name: string, item: string) {
  await menuButton(page, name).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
  return page.getByRole('dialog', { name: item, exact: true });
}

test.describe('identity verification', () => {
  test('new verification of a passing person: consent, Verify, the passed banner, the requirement and the feed updated', async ({ page }) => {
    await openApplicationOf(page, 'admin@demo.test', 'Samuel Sandbox');
    await expect(requirements(page).getByText('Not verified')).toBeVisible();
    // Issue 32: axe finds nothing on the detail, its Actions popover, the modal and its result.
    expect(await axeViolations(page), 'detail').toEqual([]);
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await expect(page.getByRole('menu', { name: 'Actions' })).toBeVisible();
    expect(await axeViolations(page), 'Actions popover').toEqual([]);
    await page.keyboard.press('Escape');
    const dialog = await choose(page, 'Samuel Sandbox', 'Verify Individual');
    const verify = dialog.getByRole('button', { name: 'Verify' });
    await expect(verify).toBeDisabled();
    await consent(page).check({ force: true });
    await expect(verify).toBeEnabled();
    expect(await axeViolations(page), 'verification modal').toEqual([]);
    await verify.click();
    await expect(dialog.getByText('The individual has passed verification.')).toBeVisible();
    expect(await axeViolations(page), 'verification result').toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    // His requirement only: the application has a second individual, verified already.
    await expect(requirements(page).getByRole('listitem').filter({ hasText: 'Samuel Sandbox' }).getByText('Verified', { exact: true })).toBeVisible();
    // Verified: nothing more to offer but screening.
    await menuButton(page, 'Samuel Sandbox').click();
    await expect(page.getByRole('menuitem')).toHaveText(['PEP/Sanctions Screening']);
    await page.keyboard.press('Escape');
    await expect(activity(page).getByText(/Verification passed for Samuel Sandbox by Avery Admin/)).toBeVisible();
  });

  test('re-verification adding a passport: the server-defined form, rjsf loaded only now, interactive quickly', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await openApplicationOf(page, 'admin@demo.test', 'Sandra Sandbox');
    // Budget: rjsf and the validators are not part of the detail route's load.
    expect(scripts.filter((url) => /identification-form|formValidator/.test(url))).toEqual([]);

    const formChunk = page.waitForResponse((response) => /identification-form/.test(response.url()));
    await menuButton(page, 'Sandra Sandbox').click();
    // Opening the menu fetched the modal and rjsf (a person takes longer than that to choose an item).
    await formChunk;
    await page.waitForTimeout(300);
    // Measured in the page: from choosing the item to the form's first field enabled in the DOM.
    await page.evaluate(() => {
      const marks: Record<string, number> = {};
      Reflect.set(window, 'verificationMarks', marks);
      document.addEventListener('click', () => (marks.open = performance.now()), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        const field = document.querySelector('select#root_DocumentType');
        if (field instanceof HTMLSelectElement && !field.disabled) {
          marks.interactive = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('menuitem', { name: 'Add Identification & Verify Individual' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Identification & Verify Individual' });
    const documentType = dialog.getByLabel('Identification to add');
    await expect(documentType).toBeEnabled();
    const interactiveMs = await page.evaluate(() => {
      const marks = Reflect.get(window, 'verificationMarks') as Record<string, number>;
      return Math.round((marks.interactive ?? NaN) - (marks.open ?? NaN));
    });
    console.info(`budget: modal open -> form interactive ${interactiveMs} ms (budget 300 ms)`);
    // The budget is 300 ms on an idle machine; the test's ceiling catches a waterfall (rjsf fetched
    // only after the options, say) without failing on a shared CI box's load. Set it to 300 to hold the budget.
    expect(interactiveMs).toBeLessThanOrEqual(Number(process.env.VERIFY_INTERACTIVE_CEILING_MS ?? 1_500));
    expect(scripts.some((url) => /identification-form/.test(url))).toBe(true);
    expect(scripts.some((url) => /formValidator/.test(url))).toBe(true);

    await documentType.selectOption({ label: 'Passport' });
    await dialog.getByLabel('Country of issue').selectOption({ label: 'Australia' });
    const number = dialog.getByLabel('Passport number');
    await number.fill('12345');
    await number.blur();
    // From the first attempt on the form validates live, and says the shape Australia expects (issue 32).
    const shape = '1 or 2 letters then 7 digits, e.g. PA1234567 (Australia)';
    await expect(dialog.getByText(shape, { exact: true })).toBeVisible();
    await expect(dialog.getByText(`Expected: ${shape}.`)).toBeVisible();
    await consent(page).check({ force: true });
    const verify = dialog.getByRole('button', { name: 'Verify' });
    await expect(verify).toBeDisabled();
    await number.fill('pa1234567');
    await expect(number).toHaveValue('PA1234567');
    await expect(dialog.getByText(`Expected: ${shape}.`)).toBeHidden();
    await expect(verify).toBeEnabled();
    await page.screenshot({ path: '/tmp/identity-verification-modal.png' });
    await verify.click();
    await expect(dialog.getByText('The individual has passed re-verification.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(requirements(page).getByText('Verified', { exact: true })).toBeVisible();
    await expect(activity(page).getByText(/Re-verification passed for Sandra Sandbox/)).toBeVisible();
  });

  test('screening a sanctions-list name: the failed banner, then the requirement shows the match', async ({ page }) => {
    await openApplicationOf(page, 'admin@demo.test', 'Mallory Embargo');
    const dialog = await choose(page, 'Mallory Embargo', 'PEP/Sanctions Screening');
    await consent(page).check({ force: true });
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await expect(dialog.getByRole('alert')).toContainText('The individual has failed PEP/Sanctions screening.');
    await expect(dialog.getByText('Possible match on a sanctions list.')).toBeVisible();
    expect(await axeViolations(page), 'failed screening result').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(requirements(page).getByText('Sanctions match')).toBeVisible();
    await expect(requirements(page).getByText(/Review the match before the application proceeds/)).toBeVisible();
    await expect(activity(page).getByText(/PEP\/Sanctions screening failed for Mallory Embargo/)).toBeVisible();
  });

  test('keyboard only: menu, form, consent and Verify without the mouse', async ({ page }) => {
    await openApplicationOf(page, 'admin@demo.test', 'Jane Fail');
    await menuButton(page, 'Jane Fail').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Add Identification & Verify Individual' })).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add Identification & Verify Individual' });
    const documentType = dialog.getByLabel('Identification to add');
    await expect(documentType).toBeEnabled();
    // Focus is inside the dialog; Tab reaches the first field.
    await documentType.focus();
    await page.keyboard.press('A'); // Australian driver licence
    await expect(documentType).toHaveValue('DriverLicence');
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('State or territory of issue')).toBeFocused();
    await page.keyboard.press('W'); // WA
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('Licence number')).toBeFocused();
    await page.keyboard.type('1234567');
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('Card number')).toBeFocused();
    await page.keyboard.type('AB12345678');
    await page.keyboard.press('Tab');
    await expect(consent(page)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(consent(page)).toBeChecked();
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Verify
    await expect(dialog.getByRole('button', { name: 'Verify' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toContainText('The individual has failed re-verification.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    // The item that opened it left with its menu: focus goes back to Verify…, not <body>.
    await expect(menuButton(page, 'Jane Fail')).toBeFocused();
    // Her requirement only: the application has a second individual, also not verified.
    await expect(requirements(page).getByRole('listitem').filter({ hasText: 'Jane Fail' }).getByText('Not verified')).toBeVisible();
  });

  test('a user without the verification claims sees no verification items', async ({ page }) => {
    await openApplicationOf(page, 'readonly@demo.test', 'Penelope Minister');
    await expect(requirements(page).getByText('Not verified')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Verify / })).toHaveCount(0);
  });
});
