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

/**
 * axe's violations on the page as it is now ('rule-id (nodes): selectors'). axe goes in through
 * the DevTools protocol, which the portal's Content-Security-Policy does not govern, so the page
 * runs under its real policy.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const { readFile } = await import('node:fs/promises');
  if (!(await page.evaluate(() => Reflect.has(window, 'axe')))) await page.evaluate(await readFile('node_modules/axe-core/axe.min.js', 'utf8'));
  return page.evaluate(async () => {
    const axe = Reflect.get(window, 'axe') as {
      run: (context: Document) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }>;
    };
    const result = await axe.run(document);
    return result.violations.map((violation) => `${violation.id} (${violation.nodes.length}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}
