import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAt } from './support.ts';

/**
 * AM §2 the detail screen's editors (Assignee picker, Label picker, Edit Owner, Edit Email Address,
 * Change Signing Mode, Unlock applicant), §5 their rules, §6 the claims that show them: each done
 * as a person does it, each seen in the activity feed after the detail refetches.
 */

const listOf = (status: string) => `/list/all?status=${encodeURIComponent(JSON.stringify([status]))}`;
const grid = (page: Page) => page.getByRole('grid', { name: 'Applications' });
const firstRow = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('rowheader') }).first();
const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const latestActivity = (page: Page) => card(page, 'Activity feed').getByRole('listitem').first();
/** A Details row's value (a definition list's dd next to its dt). */
const detailValue = (page: Page, label: string) =>
  card(page, 'Details').locator('div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');

async function openFirstRow(page: Page): Promise<string> {
  await expect(firstRow(page)).toBeVisible();
  const id = (await firstRow(page).getByRole('rowheader').innerText()).trim();
  await firstRow(page).click();
  await expect(page.getByRole('heading', { level: 1, name: `Application (${id})` })).toBeVisible();
  return id;
}

/** Opens a combobox's list and picks the first option whose name is not `avoid`; returns the name picked. */
async function pickOtherOption(page: Page, dialog: Locator, avoid: string): Promise<string> {
  await dialog.getByRole('button', { name: 'Show options' }).click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = (await options.allInnerTexts()).map((name) => name.trim());
  const name = names.find((candidate) => candidate !== avoid && candidate !== '');
  if (!name) throw new Error(`no option other than ${avoid}`);
  await options.filter({ hasText: new RegExp(`^${name}$`) }).click();
  return name;
}

test.describe('application editors', () => {
  test('assign then clear, change owner, e-mail and signing mode on an Adviser edit application', async ({ page }) => {
    await signInAt(page, listOf('Adviser edit'), 'admin@demo.test');
    await openFirstRow(page);

    // Assign: disabled until someone other than the saved assignee is chosen (AM §5).
    await page.getByRole('button', { name: 'Edit assignee' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit Assignee' });
    const assign = dialog.getByRole('button', { name: 'Assign', exact: true });
    await expect(dialog.getByRole('combobox', { name: 'Assignee' })).toBeVisible();
    await expect(assign).toBeDisabled();
    const saved = (await detailValue(page, 'Assignee').innerText()).replace(/\s*Edit$/, '').trim();
    const assignee = await pickOtherOption(page, dialog, saved);
    await expect(assign).toBeEnabled();
    await page.screenshot({ path: 'test-results/editors-assignee-picker.png' });
    await assign.click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText(`Assigned to ${assignee} by Avery Admin`);
    await expect(detailValue(page, 'Assignee')).toContainText(assignee);

    // Clear: null is sent; the row empties.
    await page.getByRole('button', { name: 'Edit assignee' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Assignee' });
    await expect(dialog).toContainText(`Assigned to ${assignee}`);
    await dialog.getByRole('button', { name: 'Clear assignee' }).click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText('Assignee cleared by Avery Admin');
    await expect(detailValue(page, 'Assignee')).not.toContainText(assignee);
    // Issue 32: an empty row shows a dash beside its Edit.
    await expect(detailValue(page, 'Assignee')).toContainText('—');

    // Edit Owner: Save waits for a choice (AM §5).
    const owner = (await detailValue(page, 'Owner').innerText()).replace(/\s*Edit$/, '').trim();
    await page.getByRole('button', { name: 'Edit owner' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Owner' });
    await expect(dialog.getByRole('combobox', { name: 'Owner' })).toBeVisible();
    // Issue 32: it starts at the owner the application has, and Save stays disabled for that owner.
    await expect(dialog.getByRole('combobox', { name: 'Owner' })).toHaveValue(owner);
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    const newOwner = await pickOtherOption(page, dialog, owner);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText(`to ${newOwner} by Avery Admin`);
    await expect(detailValue(page, 'Owner')).toContainText(newOwner);

    // Edit Email Address: required and a valid address (AM §5), the message 300 ms after typing.
    await page.getByRole('button', { name: 'Edit email address' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Email Address' });
    const email = dialog.getByRole('textbox', { name: 'Email address' });
    const save = dialog.getByRole('button', { name: 'Save' });
    await email.fill('');
    await expect(dialog).toContainText('Email address is required.');
    await expect(save).toBeDisabled();
    await email.fill('not-an-address');
    await expect(dialog).toContainText('Please enter a valid email address.');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(save).toBeDisabled();
    const address = `e2e.${Date.now()}@example.test`;
    await email.fill(address);
    await expect(dialog).not.toContainText('Please enter a valid email address.');
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText('Primary e-mail address changed by Avery Admin');
    await expect(page.getByRole('link', { name: address })).toBeVisible();

    // Change Signing Mode: Online (Pin) or Print & Sign (PrintandSign), only in Adviser edit (AM §5/§6).
    const mode = (await detailValue(page, 'Mode').innerText()).replace(/\s*Edit$/, '').trim();
    const otherMode = mode === 'Online' ? 'Print & Sign' : 'Online';
    await page.getByRole('button', { name: 'Edit signing mode' }).click();
    dialog = page.getByRole('dialog', { name: 'Change Signing Mode' });
    await expect(dialog.getByRole('radio', { name: mode })).toBeChecked();
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
    // A person clicks the choice's label (the radio input itself is visually hidden).
    await dialog.locator('label').filter({ hasText: otherMode }).click();
    await expect(dialog.getByRole('radio', { name: otherMode })).toBeChecked();
    await page.screenshot({ path: 'test-results/editors-signing-mode.png' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText(`Signing mode changed to ${otherMode} by Avery Admin`);
    await expect(detailValue(page, 'Mode')).toContainText(otherMode);
  });

  test('labels created up to the limit, a refused add, then set and cleared', async ({ page }) => {
    await signInAt(page, listOf('Primary edit'), 'admin@demo.test');
    await openFirstRow(page);
    await page.getByRole('button', { name: 'Edit label' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Label' });
    const creator = dialog.getByRole('region', { name: 'Create label' });
    const text = creator.getByRole('textbox', { name: 'New label' });
    const create = creator.getByRole('button', { name: 'Create label' });
    await expect(text).toBeVisible();
    // AM §5: Create label is disabled while the text is empty; at most 15 characters are kept.
    await expect(create).toBeDisabled();
    await text.fill('A label far too long for it');
    await expect(text).toHaveValue('A label far too');

    const stamp = String(Date.now()).slice(-6);
    // The server's Message for a refused add, above the input (AM §8).
    await text.fill(`Dup ${stamp}`);
    await create.click();
    await expect(text).toHaveValue('');
    await text.fill(`Dup ${stamp}`);
    await create.click();
    await expect(creator.getByRole('alert')).toHaveText(`A label named Dup ${stamp} already exists.`);
    await page.screenshot({ path: 'test-results/editors-label-picker-refused.png' });
    const alertBox = await creator.getByRole('alert').boundingBox();
    const inputBox = await text.boundingBox();
    expect(alertBox && inputBox && alertBox.y < inputBox.y).toBe(true);

    // Create until the count reaches the tenant's MaximumLabelLimit: the creator goes, the count turns red.
    const count = creator.getByLabel(/^Labels: /);
    let created = `Dup ${stamp}`;
    for (let index = 0; index < 40 && (await text.isVisible()); index += 1) {
      const [shown, maximum] = (await count.innerText()).split(' / ').map(Number);
      if (shown === undefined || maximum === undefined || shown >= maximum) break;
      created = `L${stamp}-${index}`;
      await text.fill(created);
      await create.click();
      await expect(count).toHaveText(`${shown + 1} / ${maximum}`);
    }
    const [atCount, limit] = (await count.innerText()).split(' / ').map(Number);
    expect(atCount).toBe(limit);
    await expect(text).toHaveCount(0);
    await expect(count).toHaveCSS('color', 'rgb(180, 35, 24)');
    await page.screenshot({ path: 'test-results/editors-label-picker-at-limit.png' });

    // The last label created is chosen; Set label saves it.
    await expect(dialog.getByRole('combobox', { name: 'Label' })).toHaveValue(created);
    await dialog.getByRole('button', { name: 'Set label' }).click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText(`Label set to ${created} by Avery Admin`);
    await expect(detailValue(page, 'Label')).toContainText(created);

    // Set label is disabled while the choice is the current label; Clear label is offered since one is set.
    await page.getByRole('button', { name: 'Edit label' }).click();
    await expect(dialog.getByRole('button', { name: 'Set label' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Clear label' }).click();
    await expect(dialog).toBeHidden();
    await expect(latestActivity(page)).toContainText('Label cleared by Avery Admin');
    await expect(detailValue(page, 'Label')).not.toContainText(created);
    await page.getByRole('button', { name: 'Edit label' }).click();
    await expect(dialog.getByRole('button', { name: 'Set label' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Clear label' })).toHaveCount(0);
  });

  test('an MFA-locked applicant is unlocked', async ({ page }) => {
    await signInAt(page, listOf('Locked'), 'admin@demo.test');
    await openFirstRow(page);
    const approvals = card(page, 'Approval Status');
    const locked = approvals.getByRole('listitem').filter({ hasText: 'Locked' }).first();
    await expect(locked).toBeVisible();
    const unlock = locked.getByRole('button', { name: /^Unlock / });
    const name = ((await unlock.getAttribute('aria-label')) ?? '').replace(/^Unlock /, '');
    await unlock.click();
    const dialog = page.getByRole('dialog', { name: 'Unlock applicant' });
    await expect(dialog).toContainText(name);
    await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
    await expect(dialog).toContainText('Completed successfully.');
    await expect(latestActivity(page)).toContainText('unlocked (multi-factor lock) by Avery Admin');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(approvals.getByRole('listitem').filter({ hasText: name })).not.toContainText('Locked');
    await expect(approvals.getByRole('button', { name: `Unlock ${name}` })).toHaveCount(0);
  });

  test("an applicant's resume link is e-mailed again", async ({ page }) => {
    await signInAt(page, listOf('Primary edit'), 'admin@demo.test');
    await openFirstRow(page);
    const resend = card(page, 'Approval Status').getByRole('button', { name: /^Resend email to / }).first();
    const name = ((await resend.getAttribute('aria-label')) ?? '').replace(/^Resend email to /, '');
    await resend.click();
    const dialog = page.getByRole('dialog', { name: 'Resend email' });
    await dialog.getByRole('textbox', { name: 'Personalised message (optional)' }).fill('Please finish your part today.');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    // AM §8: 'Email has been sent.'
    await expect(dialog).toContainText('Email has been sent.');
    await expect(latestActivity(page)).toContainText(`Resume link e-mailed to ${name}`);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a user without the claims sees no edit controls', async ({ page }) => {
    // The other end of the Locked list: an applicant the test above did not unlock.
    await signInAt(page, `${listOf('Locked')}&sortBy=ID&sortType=asc`, 'readonly@demo.test');
    await openFirstRow(page);
    await expect(card(page, 'Details')).toBeVisible();
    for (const name of ['Edit assignee', 'Edit label', 'Edit owner', 'Edit email address', 'Edit signing mode']) {
      await expect(page.getByRole('button', { name })).toHaveCount(0);
    }
    await expect(card(page, 'Approval Status').getByText('Locked').first()).toBeVisible();
    await expect(card(page, 'Approval Status').getByRole('button')).toHaveCount(0);
  });
});
