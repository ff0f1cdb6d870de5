import { assign, emit, fromPromise, setup } from 'xstate';
import { permissionTexts, type ErrorNoResult, type PermissionRequestType } from '../schemas/users.schema.ts';
import { modifyPermissions } from '../services/users.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface EditPermissionsInput {
  userId: string;
  /** HasApplicationAccess as listed. */
  hasAccess: boolean;
}

export interface EditPermissionsContext {
  userId: string;
  stored: boolean;
  value: boolean;
  resultText: string;
  succeeded: boolean;
}

export type EditPermissionsEvent =
  { type: 'access.toggle'; value: boolean } | { type: 'permissions.save' } | { type: 'dialog.close' };

/**
 * SUV §2/§5/§8 the Edit Permissions modal: one toggle for application access; Save only when it
 * differs from the stored value; the spec's text for each outcome. The host reloads the list.
 */
export const editPermissionsMachine = setup({
  types: typesOf<{
    context: EditPermissionsContext;
    events: EditPermissionsEvent;
    input: EditPermissionsInput;
    emitted: { type: 'users.changed' };
    tags: 'busy';
  }>(),
  actors: {
    savePermissions: fromPromise<ErrorNoResult, { userId: string; type: PermissionRequestType }>(
      ({ input }) => modifyPermissions(input.userId, input.type),
    ),
  },
  guards: {
    changed: ({ context }) => context.value !== context.stored,
    saved: (_, params: { answer: ErrorNoResult }) => params.answer.ErrorNo === 0,
  },
  actions: {
    assignValue: assign((_, params: { value: boolean }) => ({ value: params.value })),
    assignSaved: assign(({ context }) => ({
      stored: context.value,
      resultText: permissionTexts.updated,
      succeeded: true,
    })),
    assignRefused: assign((_, params: { answer: ErrorNoResult }) => ({
      resultText: params.answer.Message || permissionTexts.failed,
      succeeded: false,
    })),
    assignFailed: assign({ resultText: permissionTexts.failed, succeeded: false }),
    notifyChanged: emit({ type: 'users.changed' as const }),
  },
}).createMachine({
  id: 'editPermissions',
  initial: 'editing',
  context: ({ input }) => ({
    userId: input.userId,
    stored: input.hasAccess,
    value: input.hasAccess,
    resultText: '',
    succeeded: false,
  }),
  states: {
    editing: {
      description: 'The access toggle and the disclaimer; Save when the toggle differs from the stored value',
      on: {
        'access.toggle': {
          actions: { type: 'assignValue', params: ({ event }) => ({ value: event.value }) },
        },
        'permissions.save': { guard: 'changed', target: 'saving' },
        'dialog.close': { target: 'closed' },
      },
    },
    saving: {
      description: 'The change is being saved',
      tags: ['busy'],
      invoke: {
        id: 'savePermissions',
        src: 'savePermissions',
        input: ({ context }) => ({ userId: context.userId, type: context.value ? 'Grant' : 'Revoke' }),
        onDone: [
          {
            guard: { type: 'saved', params: ({ event }) => ({ answer: event.output }) },
            target: 'editing',
            actions: ['assignSaved', 'notifyChanged'],
          },
          {
            target: 'editing',
            actions: { type: 'assignRefused', params: ({ event }) => ({ answer: event.output }) },
          },
        ],
        onError: { target: 'editing', actions: 'assignFailed' },
      },
    },
    closed: { type: 'final', description: 'The modal is gone' },
  },
});

export const statechartLabels = {
  purpose: 'Changes whether an admin staff user can access your applications',
  spec: ['SUV §2', 'SUV §5', 'SUV §8'],
  actors: {
    savePermissions: {
      does: 'Grants or revokes application access',
      done: 'the server answered',
      failed: 'no answer',
    },
  },
  guards: { changed: 'the toggle differs from the stored value', saved: 'ErrorNo is 0' },
  delays: {},
  events: {
    'access.toggle': 'the toggle switched',
    'permissions.save': 'Save pressed',
    'dialog.close': 'Close or Escape',
  },
} satisfies MachineLabels<typeof editPermissionsMachine>;
