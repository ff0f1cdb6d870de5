import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { passwordChangeFeedback } from '../../src/domain/password-change.ts';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../src/schemas/account.schema.ts';

describe('passwordChangeFeedback (AM §5)', () => {
  it('lists every rule in policy order with whether the new password meets it', () => {
    const { rules } = passwordChangeFeedback({ current: '', next: 'abc', confirm: '' });
    expect(rules.map((rule) => [rule.label, rule.met])).toEqual([
      ['At least 8 characters', false],
      ['One lowercase letter', true],
      ['One uppercase letter', false],
      ['One number', false],
      ['One punctuation symbol', false],
    ]);
  });

  it("says 'Passwords do not match.' only once a differing confirmation is typed", () => {
    expect(passwordChangeFeedback({ current: '', next: 'Abcdef1!', confirm: '' }).mismatch).toBeUndefined();
    expect(passwordChangeFeedback({ current: '', next: 'Abcdef1!', confirm: 'Abcdef1' }).mismatch).toBe(
      'Passwords do not match.',
    );
    expect(
      passwordChangeFeedback({ current: '', next: 'Abcdef1!', confirm: 'Abcdef1!' }).mismatch,
    ).toBeUndefined();
  });
});

describe('change-password machine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(answer: () => Promise<ChangePasswordResponse>) {
    const calls: ChangePasswordRequest[] = [];
    const actor = createActor(
      changePasswordMachine.provide({
        actors: {
          changePassword: fromPromise<ChangePasswordResponse, ChangePasswordRequest>(({ input }) => {
            calls.push(input);
            return answer();
          }),
        },
      }),
    ).start();
    const type = (field: 'current' | 'next' | 'confirm', value: string) =>
      actor.send({ type: 'field.change', field, value });
    return { actor, calls, type };
  }

  it('validates 300 ms after the last change, not before', () => {
    const { actor, type } = start(() => new Promise(() => {}));
    type('next', 'Abcdef1!');
    type('confirm', 'Abcdef1');
    vi.advanceTimersByTime(299);
    expect(actor.getSnapshot().context.validated.confirm).toBe('');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().context.validated).toEqual({
      current: '',
      next: 'Abcdef1!',
      confirm: 'Abcdef1',
    });
  });

  it('restarts the debounce on every change', () => {
    const { actor, type } = start(() => new Promise(() => {}));
    type('next', 'A');
    vi.advanceTimersByTime(200);
    type('next', 'Ab');
    vi.advanceTimersByTime(200);
    expect(actor.getSnapshot().context.validated.next).toBe('');
    vi.advanceTimersByTime(100);
    expect(actor.getSnapshot().context.validated.next).toBe('Ab');
  });

  it('validates at once on blur', () => {
    const { actor, type } = start(() => new Promise(() => {}));
    type('next', 'short');
    actor.send({ type: 'field.blur' });
    expect(actor.getSnapshot().context.validated.next).toBe('short');
  });

  it('enables Save only for a complete, matching, policy-passing draft', () => {
    const { actor, type } = start(() => new Promise(() => {}));
    const canSave = () => actor.getSnapshot().can({ type: 'form.submit' });
    expect(canSave()).toBe(false);
    type('current', 'Demo-Passw0rd!');
    type('next', 'Better-Passw0rd!');
    expect(canSave()).toBe(false);
    type('confirm', 'Better-Passw0rd');
    expect(canSave()).toBe(false);
    type('confirm', 'Better-Passw0rd!');
    expect(canSave()).toBe(true);
    type('next', 'better-passw0rd!');
    type('confirm', 'better-passw0rd!');
    expect(canSave()).toBe(false);
  });

  async function submitValid(answer: () => Promise<ChangePasswordResponse>) {
    const started = start(answer);
    started.type('current', 'Demo-Passw0rd!');
    started.type('next', 'Better-Passw0rd!');
    started.type('confirm', 'Better-Passw0rd!');
    started.actor.send({ type: 'form.submit' });
    await vi.advanceTimersByTimeAsync(0);
    return started;
  }

  it('sends the current and new password, then signs out 2 s after a result of 2', async () => {
    const message = 'Your password has been changed. You will now be signed out of every session.';
    const { actor, calls } = await submitValid(async () => ({ message, result: 2 }));
    expect(calls).toEqual([{ oldPassword: 'Demo-Passw0rd!', newPassword: 'Better-Passw0rd!' }]);
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(actor.getSnapshot().context.message).toBe(message);
    await vi.advanceTimersByTimeAsync(1999);
    expect(actor.getSnapshot().status).toBe('active');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ message, signOut: true });
  });

  it('closes at once with the server message for any other result', async () => {
    const { actor } = await submitValid(async () => ({
      message: 'The current password is incorrect.',
      result: 1,
    }));
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({
      message: 'The current password is incorrect.',
      signOut: false,
    });
  });

  it('stays open, marked failed, when the request fails; typing clears the failure', async () => {
    const { actor, type } = await submitValid(() => Promise.reject(new Error('503')));
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.failed).toBe(true);
    type('current', 'Demo-Passw0rd!!');
    expect(actor.getSnapshot().context.failed).toBe(false);
  });

  it('ends without a message when cancelled', () => {
    const { actor } = start(() => new Promise(() => {}));
    actor.send({ type: 'form.cancel' });
    expect(actor.getSnapshot().output).toEqual({ message: undefined, signOut: false });
  });
});
