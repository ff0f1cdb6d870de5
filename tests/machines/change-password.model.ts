import { fromPromise } from 'xstate';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../src/schemas/account.schema.ts';
import { defineMachineModel } from './machine-model.ts';

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
});
