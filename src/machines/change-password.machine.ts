import { createActorContext } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import { emptyPasswordChangeDraft } from '../domain/password-change.ts';
import { canSavePasswordChange, type PasswordChangeDraft } from '../domain/password-policy.ts';
import {
  passwordChangedResult,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
} from '../schemas/account.schema.ts';
import { changePassword } from '../services/account.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export type PasswordField = keyof PasswordChangeDraft;

export interface ChangePasswordContext {
  /** What is typed now: drives whether Save is enabled. */
  draft: PasswordChangeDraft;
  /** The draft as last validated (300 ms after typing stops, or on blur): drives the messages. */
  validated: PasswordChangeDraft;
  /** The server's message once it has answered (AM §8 "Password change: shows the server's message"). */
  message: string | undefined;
  /** The request failed (network, server error): the form stays open to try again. */
  failed: boolean;
  signOut: boolean;
}

export type ChangePasswordEvent =
  | { type: 'field.change'; field: PasswordField; value: string }
  | { type: 'field.blur' }
  | { type: 'form.submit' }
  | { type: 'form.cancel' };

/** What the dialog ends with: the server's message to show, and whether the user must be signed out. */
export interface ChangePasswordOutput {
  message: string | undefined;
  signOut: boolean;
}

/** AM §4/§5: the Change Password modal. */
export const changePasswordMachine = setup({
  types: typesOf<{
    context: ChangePasswordContext;
    events: ChangePasswordEvent;
    tags: 'busy';
    output: ChangePasswordOutput;
  }>(),
  actors: {
    changePassword: fromPromise<ChangePasswordResponse, ChangePasswordRequest>(({ input }) =>
      changePassword(input),
    ),
  },
  guards: {
    canSave: ({ context }) => canSavePasswordChange(context.draft),
    isPasswordChanged: (_, params: { result: number }) => params.result === passwordChangedResult,
  },
  actions: {
    assignField: assign(({ context, event }) =>
      event.type === 'field.change'
        ? { draft: { ...context.draft, [event.field]: event.value }, failed: false }
        : {},
    ),
    validate: assign({ validated: ({ context }) => context.draft }),
    assignMessage: assign((_, params: { message: string }) => ({ message: params.message })),
    markFailed: assign({ failed: true }),
    markSignOut: assign({ signOut: true }),
  },
  delays: {
    validationDebounce: 300,
    logoutDelay: 2000,
  },
}).createMachine({
  id: 'changePassword',
  initial: 'editing',
  context: {
    draft: emptyPasswordChangeDraft,
    validated: emptyPasswordChangeDraft,
    message: undefined,
    failed: false,
    signOut: false,
  },
  output: ({ context }) => ({ message: context.message, signOut: context.signOut }),
  states: {
    editing: {
      description:
        'Change Password form: current, new and confirm password, the policy rules and whether the passwords match; Save is enabled once all three are filled, match and pass the policy',
      initial: 'validated',
      on: {
        'field.change': { target: '.debouncing', reenter: true, actions: 'assignField' },
        'field.blur': { target: '.validated', actions: 'validate' },
        'form.submit': { guard: 'canSave', target: 'submitting' },
        'form.cancel': { target: 'cancelled' },
      },
      states: {
        validated: {
          description: 'Messages reflect what is typed',
        },
        debouncing: {
          description: 'Typing: messages update 300 ms after the last change',
          after: { validationDebounce: { target: 'validated', actions: 'validate' } },
        },
      },
    },
    submitting: {
      description: 'Saving the new password',
      tags: ['busy'],
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ context }) => ({ oldPassword: context.draft.current, newPassword: context.draft.next }),
        onDone: [
          {
            guard: { type: 'isPasswordChanged', params: ({ event }) => ({ result: event.output.result }) },
            target: 'signingOut',
            actions: [
              { type: 'assignMessage', params: ({ event }) => ({ message: event.output.message }) },
              'markSignOut',
            ],
          },
          {
            target: 'closed',
            actions: { type: 'assignMessage', params: ({ event }) => ({ message: event.output.message }) },
          },
        ],
        onError: { target: 'editing', actions: 'markFailed' },
      },
    },
    signingOut: {
      description: "The server's message; the user is signed out after 2 seconds",
      after: { logoutDelay: 'signedOut' },
    },
    signedOut: { type: 'final' },
    closed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

/** For a Change Password form outside the session shell; inside it the session machine invokes the machine. */
export const ChangePasswordContext = createActorContext(changePasswordMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'The Change Password dialog: checks the new password against the rules as it is typed, saves it, and signs the person out 2 s after a change.',
  spec: ['AM §4', 'AM §5', 'AM §8'],
  actors: {
    changePassword: {
      does: 'Changes the password',
      done: 'server answered',
      failed: 'the change could not be sent',
    },
  },
  guards: {
    canSave: 'every field is filled in and valid',
    isPasswordChanged: 'the password was changed',
  },
  delays: {
    validationDebounce: 'the pause after the last keystroke before the fields are checked',
    logoutDelay: 'the pause showing the result before signing out',
  },
  events: {
    'field.change': 'a field was typed in',
    'field.blur': 'a field lost focus',
    'form.submit': 'Save chosen',
    'form.cancel': 'Cancel chosen',
  },
} satisfies MachineLabels<typeof changePasswordMachine>;
