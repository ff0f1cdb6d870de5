import { expect, test } from './fixtures.ts';
import { navigation, signInAt, submitLogin } from './support.ts';

test('an administrator signs in through the login page and sees every navigation item', async ({ page }) => {
  await signInAt(page, '/', 'admin@demo.test');
  await expect(page).toHaveURL(/\/list$/);
  for (const item of ['Applications', 'Verifications', 'Reports', 'ID Verification', 'Users', 'Settings']) {
    await expect(navigation(page).getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  await expect(navigation(page).getByRole('link', { name: 'Help (opens in a new tab)' })).toHaveAttribute('href', 'https://help.demo.test/');
  await page.getByRole('button', { name: /^Account:/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Change Password' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Log Out' })).toBeVisible();
});

test('staff see neither Users nor Verifications', async ({ page }) => {
  await signInAt(page, '/', 'staff@demo.test');
  await expect(navigation(page).getByRole('link', { name: 'Applications' })).toBeVisible();
  await expect(navigation(page).getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(navigation(page).getByRole('link', { name: 'Verifications' })).toHaveCount(0);
});

test('a wrong password gets one message that does not say which field was wrong', async ({ page }) => {
  await page.goto('/');
  await submitLogin(page, 'staff@demo.test', 'not-my-password');
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await expect(page.getByLabel('Email')).toHaveValue('staff@demo.test');
});

test('five failures lock the account', async ({ page }) => {
  await page.goto('/');
  for (let attempt = 1; attempt <= 4; attempt++) {
    await submitLogin(page, 'readonly@demo.test', `wrong-${attempt}`);
    await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  }
  await submitLogin(page, 'readonly@demo.test', 'wrong-5');
  await expect(page.getByRole('alert')).toContainText('locked');
  await submitLogin(page, 'readonly@demo.test');
  await expect(page.getByRole('alert')).toContainText('locked');
});

test('log out ends the session', async ({ page }) => {
  await signInAt(page, '/settings', 'staff@demo.test');
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // The identity session is gone too: going back to the portal asks for a password again.
  await page.goto('/settings');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('an unknown tenant host shows the tenant-not-found page', async ({ page, baseURL }) => {
  const port = new URL(baseURL!).port;
  await page.goto(`http://unknown.localhost:${port}/`);
  await expect(page).toHaveURL(/\/tenantnotfound$/);
  await expect(page.getByText('LAB Portal unavailable')).toBeVisible();
  await expect(page.getByText(/5-10 minutes/)).toBeVisible();
});
