import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { editPermissionsMachine } from '../../src/machines/edit-permissions.machine.ts';
import type { ErrorNoResult, PermissionRequestType } from '../../src/schemas/users.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const userId = '6f1f5d1c-0a42-4d7e-9a43-0b8f3f525d0e';

export default defineMachineModel({
  name: 'edit-permissions',
  machine: editPermissionsMachine.provide({
    actors: { savePermissions: fromPromise<ErrorNoResult, { userId: string; type: PermissionRequestType }>(() => new Promise(() => {})) },
  }),
  input: { userId, hasAccess: false },
  preconditions: 'An admin staff user without application access, edited by another administrator',
  events: [
    { type: 'access.toggle', value: true },
    { type: 'access.toggle', value: false },
    { type: 'permissions.save' },
    { type: 'dialog.close' },
    { type: 'xstate.done.actor.savePermissions', output: { ErrorNo: 0, Message: 'ok' } },
    { type: 'xstate.done.actor.savePermissions', output: { ErrorNo: 1, Message: '' } },
    { type: 'xstate.error.actor.savePermissions', error: new Error('503') },
  ],
  contextKey: (state) => [state.context.value, state.context.stored, state.context.resultText],
  expectations: {
    states: {
      editing: (snapshot) => {
        // SUV §5: Save only when the toggle differs from what is stored.
        expect(snapshot.can({ type: 'permissions.save' })).toBe(snapshot.context.value !== snapshot.context.stored);
        expect(['', 'Permissions updated successfully', 'Edit application access failed for unknown reasons']).toContain(snapshot.context.resultText);
      },
      saving: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.value).not.toBe(snapshot.context.stored);
      },
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'editing + access.toggle': ({ event, after }) => expect(after.context.value).toBe(event.value),
      'editing + permissions.save': ({ after, started }) => {
        expect(after.value).toBe('saving');
        expect(started.savePermissions).toEqual({ userId, type: after.context.value ? 'Grant' : 'Revoke' });
      },
      'editing + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'saving + xstate.done.actor.savePermissions': ({ event, before, after, emitted }) => {
        const answer = event.output as ErrorNoResult;
        if (answer.ErrorNo === 0) {
          expect(after.context.resultText).toBe('Permissions updated successfully');
          expect(after.context.stored).toBe(before.context.value);
          expect(emitted).toEqual([{ type: 'users.changed' }]);
        } else {
          // SUV §8: the server's Message, or the fixed text when it gave none.
          expect(after.context.resultText).toBe(answer.Message || 'Edit application access failed for unknown reasons');
          expect(after.context.stored).toBe(before.context.stored);
          expect(emitted).toEqual([]);
        }
      },
      'saving + xstate.error.actor.savePermissions': ({ after }) => {
        expect(after.context.resultText).toBe('Edit application access failed for unknown reasons');
        expect(after.value).toBe('editing');
      },
    },
  },
});
