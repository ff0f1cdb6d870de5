// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../src/schemas/account.schema.ts';
import { ChangePasswordModal } from '../../src/views/shell/change-password-modal.tsx';

function renderDialog(answer: () => Promise<ChangePasswordResponse>) {
  const dialog = createActor(
    changePasswordMachine.provide({
      actors: { changePassword: fromPromise<ChangePasswordResponse, ChangePasswordRequest>(() => answer()) },
    }),
  ).start();
  render(<ChangePasswordModal dialog={dialog} />);
  const field = (name: string) => screen.getByLabelText(name, { exact: false, selector: 'input' });
  const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
  return { dialog, type };
}

describe('Change Password modal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // jsdom has no CSS.escape; react-aria's Modal reads a meta tag with it.
    if (typeof globalThis.CSS?.escape !== 'function') {
      vi.stubGlobal('CSS', {
        escape: (value: string) => value.replace(/["\\\]]/g, '\\$&'),
        supports: () => false,
      });
    }
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("shows 'Passwords do not match.' 300 ms after typing, and keeps Save disabled", async () => {
    const { type } = renderDialog(() => new Promise(() => {}));
    expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeTruthy();
    type('Current Password', 'Demo-Passw0rd!');
    type('New Password', 'Better-Passw0rd!');
    type('Confirm Password', 'Better-Passw0rd');
    expect(screen.queryByText('Passwords do not match.')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(screen.getByText('Passwords do not match.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });

  it('marks the policy rules met as the new password is typed, and enables Save', async () => {
    const { type } = renderDialog(() => new Promise(() => {}));
    type('Current Password', 'Demo-Passw0rd!');
    type('New Password', 'Better-Passw0rd!');
    type('Confirm Password', 'Better-Passw0rd!');
    await act(() => vi.advanceTimersByTimeAsync(300));
    const rules = screen.getByRole('list', { name: 'Password requirements' });
    expect(rules.textContent).not.toContain('(not met)');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
  });

  it("shows the server's message when the password was changed", async () => {
    const message = 'Your password has been changed. You will now be signed out of every session.';
    const { type } = renderDialog(async () => ({ message, result: 2 }));
    type('Current Password', 'Demo-Passw0rd!');
    type('New Password', 'Better-Passw0rd!');
    type('Confirm Password', 'Better-Passw0rd!');
    fireEvent.submit(screen.getByRole('button', { name: 'Save' }).closest('form') ?? document.body);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('status').textContent).toBe(message);
  });
});
