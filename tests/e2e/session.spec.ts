import { expect, test } from './fixtures.ts';
import { demoPassword, signInAt, submitLogin } from './support.ts';

async function changePassword(page: import('@playwright/test').Page, current: string, next: string) {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/current password/i).fill(current);
  await dialog.getByLabel(/^new password/i).fill(next);
  await dialog.getByLabel(/confirm/i).fill(next);
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Save' }).click();
  return dialog;
}

test('change password, be signed out, then sign in with the new one', async ({ page }) => {
  await signInAt(page, '/settings', 'manager@demo.test');
  const dialog = await changePassword(page, demoPassword, 'Manager-Passw0rd!2');
  await expect(dialog.getByText(/password has been changed/i)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  await submitLogin(page, 'manager@demo.test', demoPassword);
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await submitLogin(page, 'manager@demo.test', 'Manager-Passw0rd!2');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('a 401 from the API shows the timed-out screen, re-authenticates and returns to the same address', async ({ browser, baseURL }) => {
  const acme = `http://acme.localhost:${new URL(baseURL!).port}`;
  const first = await (await browser.newContext()).newPage();
  await signInAt(first, `${acme}/settings`, 'sessions@acme.test');

  // The same person changes the password in another browser: every session ends on the server.
  const second = await (await browser.newContext()).newPage();
  await signInAt(second, `${acme}/settings`, 'sessions@acme.test');
  await changePassword(second, demoPassword, 'Acme-Passw0rd!2');
  await expect(second.getByRole('dialog').getByText(/password has been changed/i)).toBeVisible();

  // The first tab's next call is refused: it explains, waits 5 s, then sends the person to sign in.
  await changePassword(first, demoPassword, 'Whatever-Passw0rd!3');
  await expect(first.getByText('The session has timed out. Redirecting to Authentication')).toBeVisible();
  await expect(first.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  await submitLogin(first, 'sessions@acme.test', 'Acme-Passw0rd!2');
  await expect(first).toHaveURL(`${acme}/settings`);
  await expect(first.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('when the session cannot be renewed any more it ends on /timeout', async ({ page, shortLivedBaseUrl }) => {
  test.setTimeout(60_000);
  await signInAt(page, `${shortLivedBaseUrl}/settings`, 'staff@demo.test');
  await expect(page).toHaveURL(`${shortLivedBaseUrl}/timeout`, { timeout: 30_000 });
  await expect(page.getByText('Your session has expired.')).toBeVisible();
});

test("/timeout carries the tenant's name and colours although it lies outside the session", async ({ page, baseURL }) => {
  const acme = `http://acme.localhost:${new URL(baseURL!).port}`;
  await page.goto(`${acme}/timeout`);
  await expect(page.getByText('Your session has expired.')).toBeVisible();
  await expect(page).toHaveTitle('Acme Super');
  await expect.poll(() => page.evaluate(() => document.documentElement.style.getPropertyValue('--brand-primary'))).toBe('#1f7a4d');
});

test('a network failure is reported to the monitoring tunnel', async ({ page }) => {
  await signInAt(page, '/settings', 'staff@demo.test');
  await page.route('**/api/account/info', (route) => route.abort('connectionfailed'));
  const report = page.waitForResponse((response) => response.url().endsWith('/api/monitoring') && response.request().method() === 'POST');
  await page.reload();
  const response = await report;
  expect(response.status()).toBe(200);
  expect(response.request().postData()).toContain('/api/account/info');
});

test('at 390 px the navigation menu holds the side navigation’s items at the same addresses; Help opens the help site (issue 39 point 2)', async ({ page }) => {
  await signInAt(page, '/users', 'admin@demo.test');
  const desktop = await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')]));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Navigation menu' }).click();
  const menu = page.getByRole('menu', { name: 'Navigation' });
  const mobile = await menu.getByRole('menuitem').evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')]));
  expect(mobile).toEqual(desktop);
  expect(mobile.at(-1)).toEqual(['Help (opens in a new tab)', 'https://help.demo.test/']);
  await page.screenshot({ path: 'test-results/shell-mobile-menu.png' });
  // The help site is outside the test machine: the browser is answered for it.
  await page.context().route('https://help.demo.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Help</title>' }));
  const opened = page.context().waitForEvent('page');
  await menu.getByRole('menuitem', { name: /^Help/ }).click();
  const help = await opened;
  await help.waitForLoadState();
  expect(help.url()).toMatch(/^https:\/\/help\.demo\.test\//);
  await help.close();
  await expect(page).toHaveURL(/\/users$/);
});
