import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../src/schemas/account.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const strong = 'Better-Passw0rd!';

/** AM §5 for these samples: all three filled, new equals confirm, and the new one is the strong sample. */
const savable = ({ context }: AnyMachineSnapshot) =>
  context.draft.current !== '' && context.draft.next === strong && context.draft.confirm === strong;

const outputOf = (snapshot: AnyMachineSnapshot) => {
  expect(snapshot.status).toBe('done');
  return snapshot.output;
};

export default defineMachineModel({
  name: 'change-password',
  machine: changePasswordMachine.provide({
    actors: {
      changePassword: fromPromise<ChangePasswordResponse, ChangePasswordRequest>(() => new Promise(() => {})),
    },
  }),
  events: [
    { type: 'field.change', field: 'current', value: 'Demo-Passw0rd!' },
    { type: 'field.change', field: 'next', value: 'Better-Passw0rd!' },
    { type: 'field.change', field: 'confirm', value: 'Better-Passw0rd!' },
    // A new password that breaks the policy takes Save away again.
    { type: 'field.change', field: 'next', value: 'short' },
    { type: 'xstate.after.validationDebounce.changePassword.editing.debouncing' },
    {
      type: 'xstate.done.actor.changePassword',
      output: { message: 'Your password has been changed.', result: 2 },
    },
    {
      type: 'xstate.done.actor.changePassword',
      output: { message: 'The current password is incorrect.', result: 1 },
    },
    { type: 'xstate.error.actor.changePassword', error: new Error('503 Service Unavailable') },
    { type: 'xstate.after.logoutDelay.changePassword.signingOut' },
  ],
  // canSave reads the draft: drafts that differ in what is filled in behave differently.
  contextKey: (state) => state.context.draft,
  // What the Change Password dialog shows (tests/machines/change-password.view.test.tsx).
  view: {
    editing: (screen, snapshot) => {
      expect(screen.getByRole('dialog', { name: 'Change Password' })).toBeTruthy();
      const save = screen.getByRole('button', { name: 'Save' });
      expect(save.hasAttribute('disabled'), 'Save is enabled exactly when the draft can be saved').toBe(!savable(snapshot));
      expect(screen.getByLabelText('Current Password', { exact: false, selector: 'input' })).toHaveProperty(
        'value',
        snapshot.context.draft.current,
      );
      // The rules follow the validated new password: the strong sample meets all five.
      const rules = screen.getByRole('list', { name: 'Password requirements' });
      expect(rules.querySelectorAll('li')).toHaveLength(5);
      const unmet = (rules.textContent?.match(/\(not met\)/g) ?? []).length;
      if (snapshot.context.validated.next === strong) expect(unmet).toBe(0);
      else expect(unmet).toBeGreaterThan(0);
      const failure = screen.queryByRole('alert');
      if (snapshot.context.failed) expect(failure?.textContent).toBe('The password could not be changed. Please try again.');
      else expect(failure).toBeNull();
    },
    submitting: (screen) => {
      const saving = screen.getByRole('button', { name: 'Saving...' });
      expect(saving.hasAttribute('disabled')).toBe(true);
      expect(screen.getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
    },
    signingOut: (screen) => {
      expect(screen.getByRole('status').textContent).toBe('Your password has been changed.');
      expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    },
  },
  expectations: {
    states: {
      'editing.validated': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.message).toBeUndefined();
        // Only a request that failed shows the failure, and a request needs a full draft.
        if (snapshot.context.draft.current === '') expect(snapshot.context.failed).toBe(false);
      },
      'editing.debouncing': (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      submitting: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(savable(snapshot)).toBe(true);
        expect(snapshot.children.changePassword).toBeDefined();
      },
      signingOut: ({ context }) => {
        expect(context.message).toBe('Your password has been changed.');
        expect(context.signOut).toBe(true);
      },
      signedOut: (snapshot) =>
        expect(outputOf(snapshot)).toEqual({ message: 'Your password has been changed.', signOut: true }),
      closed: (snapshot) =>
        expect(outputOf(snapshot)).toEqual({ message: 'The current password is incorrect.', signOut: false }),
      cancelled: (snapshot) => expect(outputOf(snapshot)).toEqual({ message: undefined, signOut: false }),
    },
    transitions: {
      'editing + field.change': ({ event, after }) => {
        expect(after.matches({ editing: 'debouncing' })).toBe(true);
        expect(after.context.draft[String(event.field)]).toBe(event.value);
        expect(after.context.failed).toBe(false);
      },
      'editing + field.blur': ({ after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.validated).toEqual(after.context.draft);
      },
      'editing + form.submit': ({ before, after, started }) => {
        if (savable(before)) {
          expect(after.matches('submitting')).toBe(true);
          expect(started.changePassword).toEqual({ oldPassword: 'Demo-Passw0rd!', newPassword: strong });
        } else {
          expect(after.matches('editing')).toBe(true);
          expect(started).toEqual({});
        }
      },
      'editing + form.cancel': ({ after }) => expect(after.matches('cancelled')).toBe(true),
      // Messages follow what is typed 300 ms after the last change.
      'editing.debouncing + after validationDebounce': ({ after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.validated).toEqual(after.context.draft);
      },
      'submitting + xstate.done.actor.changePassword': ({ event, after }) => {
        const changed = typeof event.output === 'object' && event.output !== null && 'result' in event.output && event.output.result === 2;
        expect(after.matches(changed ? 'signingOut' : 'closed')).toBe(true);
        expect(after.context.signOut).toBe(changed);
      },
      // The form stays open, with what was typed, to try again.
      'submitting + xstate.error.actor.changePassword': ({ before, after }) => {
        expect(after.matches('editing')).toBe(true);
        expect(after.context.failed).toBe(true);
        expect(after.context.draft).toEqual(before.context.draft);
      },
      'signingOut + after logoutDelay': ({ after }) => expect(after.matches('signedOut')).toBe(true),
    },
  },
});
