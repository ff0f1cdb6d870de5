import { expect, type Page } from '@playwright/test';

export const demoPassword = 'Demo-Passw0rd!';

/** Fills the server-rendered login page exactly as a person would. */
export async function submitLogin(page: Page, email: string, password = demoPassword) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the portal at `path`, signs in on the login page and waits for the shell. */
export async function signInAt(page: Page, path: string, email: string, password = demoPassword) {
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await submitLogin(page, email, password);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

export const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });
