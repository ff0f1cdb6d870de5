import { assign, emit, fromPromise, setup } from 'xstate';
import { signingModeChoices } from '../domain/application-actions.ts';
import { canSaveField, type EditorField } from '../domain/application-editors.ts';
import { actionTexts, type ActionResult } from '../schemas/application-actions.schema.ts';
import { changePrimaryEmail, changeSigningMode, updateOwner } from '../services/application-editors.service.ts';
import { owners } from '../services/lookups.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface FieldEditorInput {
  field: EditorField;
  /** The ApplicationID (the path of each save). */
  applicationId: string;
  /**
   * What the application holds: the e-mail, the mode code (Pin, PrintandSign), the owner's name as
   * the detail shows it. A list field's value is resolved to its choice once the choices are in, so
   * choosing what the application already holds leaves Save disabled (issue 32).
   */
  current: string;
}

/** One choice of a list field (owners, signing modes): the value saved and the name shown. */
export interface FieldChoice {
  id: string;
  name: string;
}

export interface FieldEditorContext {
  field: EditorField;
  applicationId: string;
  current: string;
  /** The owners (GET /owner/list) or the two signing modes; empty for the e-mail. */
  choices: FieldChoice[];
  /** What is typed or chosen now: drives whether Save is enabled. */
  draft: string;
  /** The value as last validated (300 ms after a change, or on blur), undefined before: drives the message (AM §5). */
  validated: string | undefined;
  /** Why the last save did not happen: the server's Message, or 'An unknown error occurred.'. */
  error: string | undefined;
}

export type FieldEditorEvent =
  | { type: 'field.change'; value: string }
  | { type: 'field.blur' }
  | { type: 'form.submit' }
  | { type: 'dialog.close' };

export type FieldEditorEmitted = { type: 'application.changed' };

/**
 * AM §2 Edit Owner, Edit Email Address and Change Signing Mode: one value, validated 300 ms after a
 * change and on blur (AM §5), saved with one call, then the detail refetches. One machine serves
 * the three because their workflow is the same; what differs (the choices, the rule, the call)
 * is chosen by `field`, each in one place: `fieldProblem` in src/domain, the `saveField` actor here.
 * Only Edit Owner's choices come from the server.
 */
export const fieldEditorMachine = setup({
  types: typesOf<{
    context: FieldEditorContext;
    events: FieldEditorEvent;
    input: FieldEditorInput;
    emitted: FieldEditorEmitted;
    tags: 'busy';
  }>(),
  actors: {
    // Only the owners come from the server; the signing modes are the spec's two, the e-mail has none.
    loadChoices: fromPromise<FieldChoice[], { field: EditorField }>(async ({ input }) => {
      switch (input.field) {
        case 'owner':
          return (await owners()).map((owner) => ({ id: owner.PublicId, name: owner.DisplayName }));
        case 'signingMode':
          return signingModeChoices.map((choice) => ({ id: choice.value, name: choice.label }));
        case 'email':
          return [];
      }
    }),
    saveField: fromPromise<ActionResult, { field: EditorField; applicationId: string; value: string }>(({ input }) => {
      switch (input.field) {
        case 'owner':
          return updateOwner(input.applicationId, input.value);
        case 'email':
          return changePrimaryEmail(input.applicationId, input.value);
        case 'signingMode':
          return changeSigningMode(input.applicationId, input.value);
      }
    }),
  },
  guards: {
    // A list field saves only one of its choices; the e-mail is free text.
    canSave: ({ context }) =>
      canSaveField(context.field, context.draft, context.current) &&
      (context.field === 'email' || context.choices.some((choice) => choice.id === context.draft)),
    isSaved: (_, params: { result: ActionResult }) => params.result.Success,
  },
  actions: {
    // The current value as one of the choices (the owner arrives by name): it is preselected.
    assignChoices: assign(({ context }, params: { choices: FieldChoice[] }) => {
      const current =
        params.choices.find((choice) => choice.id === context.current || choice.name === context.current)?.id ??
        context.current;
      return { choices: params.choices, current, draft: context.draft === context.current ? current : context.draft };
    }),
    assignDraft: assign((_, params: { value: string }) => ({ draft: params.value, error: undefined })),
    validate: assign({ validated: ({ context }) => context.draft }),
    assignRefusal: assign((_, params: { result: ActionResult }) => ({
      error: params.result.Message || actionTexts.unknownError,
    })),
    assignFailure: assign({ error: actionTexts.unknownError }),
    // Also after a refused or failed save: the refusal may be because the application changed (a
    // colleague depersonalised it), so the detail refetches and stops offering stale controls (issue 32).
    notifyChanged: emit({ type: 'application.changed' as const }),
  },
  delays: {
    validationDebounce: 300,
  },
}).createMachine({
  id: 'fieldEditor',
  initial: 'loadingChoices',
  context: ({ input }) => ({
    field: input.field,
    applicationId: input.applicationId,
    current: input.current,
    choices: [],
    draft: input.current,
    validated: undefined,
    error: undefined,
  }),
  states: {
    loadingChoices: {
      description: 'Edit Owner: the owners load behind a loading text (the other editors pass at once)',
      tags: ['busy'],
      invoke: {
        id: 'loadChoices',
        src: 'loadChoices',
        input: ({ context }) => ({ field: context.field }),
        onDone: {
          target: 'editing',
          actions: { type: 'assignChoices', params: ({ event }) => ({ choices: event.output }) },
        },
        onError: { target: 'unavailable' },
      },
      on: { 'dialog.close': { target: 'closed' } },
    },
    unavailable: {
      description: "The owners could not be loaded: 'An unknown error occurred.' and Close",
      on: { 'dialog.close': { target: 'closed' } },
    },
    editing: {
      description:
        'The field (a searchable owner list, the e-mail address, or Online / Print & Sign) with its message; Save is enabled once the value is acceptable and differs from the current one; Cancel',
      initial: 'validated',
      on: {
        'field.change': {
          target: '.debouncing',
          reenter: true,
          actions: { type: 'assignDraft', params: ({ event }) => ({ value: event.value }) },
        },
        'field.blur': { target: '.validated', actions: 'validate' },
        'form.submit': { guard: 'canSave', target: 'saving', actions: 'validate' },
        'dialog.close': { target: 'closed' },
      },
      states: {
        validated: { description: 'The message reflects the value as it is' },
        debouncing: {
          description: 'Typing: the message updates 300 ms after the last change',
          after: { validationDebounce: { target: 'validated', actions: 'validate' } },
        },
      },
    },
    saving: {
      description: 'Saving the new value; the buttons wait',
      tags: ['busy'],
      invoke: {
        id: 'saveField',
        src: 'saveField',
        input: ({ context }) => ({ field: context.field, applicationId: context.applicationId, value: context.draft.trim() }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
            target: 'saved',
            actions: 'notifyChanged',
          },
          { target: 'editing', actions: [{ type: 'assignRefusal', params: ({ event }) => ({ result: event.output }) }, 'notifyChanged'] },
        ],
        onError: { target: 'editing', actions: ['assignFailure', 'notifyChanged'] },
      },
    },
    saved: {
      description: 'Saved: the modal closes and the detail refetches (its activity feed shows the change)',
      type: 'final',
    },
    closed: { type: 'final' },
  },
});

export const statechartLabels = {
  purpose: "Change one field of an application: its owner, its primary e-mail address or its signing mode",
  spec: ['AM §2', 'AM §4', 'AM §5', 'AM §6'],
  actors: {
    loadChoices: {
      does: 'Gives the choices: the owners (loaded), the two signing modes, none for the e-mail',
      done: 'choices at hand',
      failed: 'owners could not be loaded',
    },
    saveField: {
      does: 'Saves the value (update owner, change primary e-mail or change signing mode)',
      done: 'the server answered',
      failed: 'the request failed',
    },
  },
  guards: {
    canSave: 'the value is acceptable (one of the choices for a list) and differs from the current one',
    isSaved: 'the server saved it',
  },
  delays: { validationDebounce: 'AM §5: 300 ms after the last change' },
  events: {
    'field.change': 'the value typed or chosen',
    'field.blur': 'the field left',
    'form.submit': 'Save pressed',
    'dialog.close': 'Cancel, Close or Escape',
  },
} satisfies MachineLabels<typeof fieldEditorMachine>;
