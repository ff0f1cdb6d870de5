import { readFile } from 'node:fs/promises';
import { type Browser, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoPassword, navigation, signInAt, submitLogin } from './support.ts';

/**
 * Issue 28: user management as a new administrator uses it, in Chromium against the real server:
 * search and page, invite with access through Additional Details, the invited person's first
 * sign-in through the e-mailed link, deactivate, lock by wrong passwords and unlock, export, axe.
 */

const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByRole('rowheader', { name: new RegExp(name) }) });

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search users by name or e-mail' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/users\\?q=${encodeURIComponent(text).replace(/\./g, '\\.')}$`));
}

/** A fresh browser (no identity-provider session) signing in as `email`; the login page's answer when refused. */
async function freshSignIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await submitLogin(page, email, password);
  return { context, page };
}

async function confirmRowAction(page: Page, name: string, action: string, title: string, success: string) {
  await row(page, name).getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: action }).click();
  await expect(dialog.getByText(success)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

test('search and page through the users; the address carries q and the page, defaults left out', async ({ page }) => {
  await signInAt(page, '/users', 'admin@demo.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(rows(page)).toHaveCount(20);
  await expect(page).toHaveTitle(/^Users \d[\d,]*$/);
  await page.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/\/users\/2$/);
  await expect(rows(page)).toHaveCount(20);
  await search(page, 'Avery');
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'Avery Admin')).toContainText('Admin Staff (Full Access)');
  // One's own row has no edit-permissions button.
  await expect(row(page, 'Avery Admin').getByRole('button', { name: /Edit permissions/ })).toHaveCount(0);
  await search(page, 'zzznobody');
  await expect(page.getByText('No Results.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(rows(page)).toHaveCount(20);
});

test('a user without the claim sees the red alert', async ({ page }) => {
  await signInAt(page, '/users', 'staff@demo.test');
  await expect(page.getByRole('alert')).toHaveText('You do not have permission to view this page.');
});

test('invite a Read Only admin with access; they set a password from the e-mail and sign in; deactivated, they cannot', async ({ page, browser }) => {
  const email = `rita.${Date.now()}@example.com`;
  await signInAt(page, '/users', 'admin@demo.test');
  await page.getByRole('button', { name: 'New' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite User' });
  // A required field left empty says so when focus leaves it (AM §5), before anything is typed.
  // Focus leaves backwards, so that no other field is entered and left meanwhile.
  await invite.getByLabel('First Name').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(invite.getByText('This is a required field.')).toHaveCount(1);
  await invite.getByLabel('First Name').fill('Rita');
  await expect(invite.getByText('This is a required field.')).toHaveCount(0);
  await invite.getByLabel('Last Name').fill('Reader');
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('Mobile Number').fill('0412 34');
  await invite.getByLabel('Role').selectOption({ label: 'Admin Staff (Read Only)' });
  await expect(invite.getByText('Please enter valid phone')).toBeVisible();
  await expect(invite.getByRole('button', { name: 'Next' })).toBeDisabled();
  await invite.getByLabel('Mobile Number').fill('0412 345 678');
  await invite.getByRole('button', { name: 'Next' }).click();
  const details = page.getByRole('dialog', { name: 'Additional Details' });
  await expect(details.getByRole('switch', { name: 'Can access your applications' })).toBeChecked();
  await details.getByRole('button', { name: 'Send' }).click();
  await expect(invite.getByText('Invitation sent.')).toBeVisible();
  await expect(invite.getByLabel('First Name')).toBeDisabled();
  await invite.getByRole('button', { name: 'Close' }).click();

  await search(page, email);
  await expect(row(page, 'Rita Reader')).toContainText('Invited');
  await expect(row(page, 'Rita Reader')).toContainText('Can access your applications');

  // The outbox holds the e-mail; its link opens the branded set-password page.
  await page.goto('/outbox');
  const message = page.getByRole('article').filter({ hasText: email }).first();
  const link = await message.getByRole('link').first().getAttribute('href');
  expect(link).toMatch(/\/invitation\/[A-Za-z0-9_-]{43}$/);

  const invited = await browser.newContext();
  const invitedPage = await invited.newPage();
  await invitedPage.goto(link!);
  await expect(invitedPage.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await invitedPage.getByLabel('New password', { exact: true }).fill('Rita-Passw0rd!');
  await invitedPage.getByLabel('Confirm new password').fill('Rita-Passw0rd!');
  await invitedPage.getByRole('button', { name: 'Set password' }).click();
  await expect(invitedPage.getByRole('heading', { name: 'Your password is set. You can now sign in.' })).toBeVisible();
  await invitedPage.getByRole('link', { name: 'Sign in' }).click();
  await submitLogin(invitedPage, email, 'Rita-Passw0rd!');
  // What the Read Only role allows: the applications, not the users.
  await expect(navigation(invitedPage).getByRole('link', { name: 'Applications' })).toBeVisible();
  await expect(navigation(invitedPage).getByRole('link', { name: 'Users' })).toHaveCount(0);
  await invited.close();

  await page.goto(`/users?q=${encodeURIComponent(email)}`);
  await expect(row(page, 'Rita Reader')).toContainText('Active');
  await confirmRowAction(page, 'Rita Reader', 'Deactivate', 'Deactivate User', 'User deactivated successfully.');
  await expect(row(page, 'Rita Reader')).toContainText('Deactivated');
  await expect(row(page, 'Rita Reader').getByRole('button', { name: /Edit permissions/ })).toBeDisabled();

  const refused = await freshSignIn(browser, email, 'Rita-Passw0rd!');
  await expect(refused.page.getByRole('alert')).toHaveText('Your account is not active. Please contact your administrator.');
  await refused.context.close();
});

test('five wrong passwords lock an account; the row says why and when; unlock lets them sign in', async ({ page, browser }) => {
  const email = 'olivia.smith.0@staff.demo.test';
  // Olivia's own browser signed in before: it holds her device cookie (issue 27 point 11).
  const owner = await freshSignIn(browser, email, demoPassword);
  await expect(navigation(owner.page)).toBeVisible();
  const attacker = await freshSignIn(browser, email, 'wrong-1');
  for (let attempt = 2; attempt <= 5; attempt++) await submitLogin(attacker.page, email, `wrong-${attempt}`);
  await expect(attacker.page.getByRole('alert')).toContainText('locked');
  await expect(attacker.page.getByRole('alert')).toContainText('support@');
  await attacker.context.close();
  // The lock keeps out the guesser's browser, not Olivia's: her session goes on, and after logging
  // out her browser signs in again with the right password.
  await owner.page.reload();
  await expect(navigation(owner.page)).toBeVisible();
  await owner.page.getByRole('button', { name: /^Account:/ }).click();
  await owner.page.getByRole('menuitem', { name: 'Log Out' }).click();
  // Log Out navigates to the sign-in page; a goto before it lands is aborted by that navigation.
  await expect(owner.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signInAt(owner.page, '/', email);
  await owner.context.close();

  await signInAt(page, '/users', 'admin@demo.test');
  await search(page, 'olivia.smith.0');
  await expect(row(page, 'Olivia Smith')).toContainText('Locked - Invalid password');
  await expect(row(page, 'Olivia Smith')).toContainText(/Locked after 5 wrong passwords, \d{2}:\d{2}/);
  await row(page, 'Olivia Smith').getByRole('button', { name: 'Unlock Olivia Smith' }).click();
  const confirm = page.getByRole('dialog', { name: 'Unlock User' });
  await expect(confirm).toContainText('Please confirm you would like to unlock user Olivia Smith.');
  await confirm.getByRole('button', { name: 'Unlock' }).click();
  await expect(confirm.getByText('User unlocked successfully.')).toBeVisible();
  await confirm.getByRole('button', { name: 'Close' }).click();
  await expect(row(page, 'Olivia Smith')).toContainText('Active');

  const again = await freshSignIn(browser, email, demoPassword);
  await expect(navigation(again.page)).toBeVisible();
  await again.context.close();
});

test('Export All to CSV saves userlist.csv with every user, whatever the search, readable by Excel', async ({ page }) => {
  await signInAt(page, '/users', 'admin@demo.test');
  // A search that does not find Avery Admin: Export All still holds every user (SUV §1, §7).
  await search(page, 'Sam');
  await page.getByRole('button', { name: 'Action', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Export All to CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('userlist.csv');
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  // RFC 4180 records end in CRLF, as every export's writer writes them (src/domain/list-csv.ts).
  const lines = bytes.toString('utf8').slice(1).trim().split('\r\n');
  expect(lines[0]).toBe('First Name,Last Name,Email,Role,Status,Application Access,Last Activity (UTC)');
  expect(lines.some((line) => line.includes('admin@demo.test'))).toBe(true);
});

test.describe('accessibility', () => {
  test.use({ bypassCSP: true });

  async function violations(page: Page) {
    await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
    return page.evaluate(async () => {
      const axe = Reflect.get(window, 'axe') as { run: (context: Document) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      const result = await axe.run(document);
      return result.violations.map((violation) => `${violation.id} ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
    });
  }

  test('axe finds nothing on the users page, the invite modal, Additional Details and Edit Permissions', async ({ page }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await signInAt(page, '/users', 'admin@demo.test');
    await expect(rows(page)).toHaveCount(20);
    expect(await violations(page), 'page').toEqual([]);
    await page.getByRole('button', { name: 'New' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite User' });
    await invite.getByLabel('First Name').fill('Axe');
    expect(await violations(page), 'invite').toEqual([]);
    await invite.getByLabel('Last Name').fill('Checker');
    await invite.getByLabel('Email').fill(`axe.${Date.now()}@example.com`);
    await invite.getByLabel('Mobile Number').fill('0412345678');
    await invite.getByLabel('Role').selectOption({ label: 'Admin Staff (Full Access)' });
    await invite.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('dialog', { name: 'Additional Details' })).toBeVisible();
    expect(await violations(page), 'additional details').toEqual([]);
    await page.getByRole('dialog', { name: 'Additional Details' }).getByRole('button', { name: 'Back' }).click();
    await invite.getByRole('button', { name: 'Cancel' }).click();
    await search(page, 'readonly@demo.test');
    await row(page, 'Riley Reader').getByRole('button', { name: 'Edit permissions of Riley Reader' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit Permissions' })).toBeVisible();
    expect(await violations(page), 'edit permissions').toEqual([]);
  });
});

test('a page past the last says so and leads back to page 1 (issue 39 point 12)', async ({ page }) => {
  await signInAt(page, '/users/999', 'admin@demo.test');
  await expect(page.getByText('Page 999 has no users.')).toBeVisible();
  await expect(page.getByText('No Users.', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Go to page 1' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(rows(page)).toHaveCount(20);
});

test('a failed load says the users could not be loaded, not "No Users.", and Retry loads them (SUV §8 reading)', async ({ page }) => {
  let refuse = true;
  await page.route('**/api/users/list**', (route) => (refuse ? route.fulfill({ status: 503, body: '{}' }) : route.fallback()));
  await signInAt(page, '/users', 'admin@demo.test');
  await expect(page.getByRole('alert')).toContainText('The users could not be loaded.');
  await expect(page.getByText('No Users.', { exact: true })).toHaveCount(0);
  refuse = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(rows(page)).toHaveCount(20);
});
