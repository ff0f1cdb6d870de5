import { assign, emit, fromPromise, setup } from 'xstate';
import { canAddLabel, canSetLabel, clampLabelText } from '../domain/application-editors.ts';
import { actionTexts, type ActionResult } from '../schemas/application-actions.schema.ts';
import type { OptionList } from '../schemas/lookups.schema.ts';
import { addLabel, saveLabel } from '../services/application-editors.service.ts';
import { labels as labelList, systemInformation } from '../services/lookups.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface LabelPickerInput {
  /** The ApplicationGuid (ApplicationId of POST /label/save). */
  applicationGuid: string;
  /** The application's Label; '' when none is set. */
  currentLabel: string;
  /** label.add (AM §6): whether the label creator is offered at all. */
  canCreate: boolean;
}

/** The labels and the tenant's MaximumLabelLimit (GET /label/list and GET /configuration/information). */
export interface LabelCatalogue {
  labels: OptionList;
  maximum: number;
}

export interface LabelPickerContext {
  applicationGuid: string;
  currentLabel: string;
  canCreate: boolean;
  labels: OptionList;
  /** AM §3 System information MaximumLabelLimit. */
  maximum: number;
  /** The label chosen in the list (its Value); starts at the current label. */
  selected: string;
  /** The label creator's text, at most 15 characters (AM §5). */
  draft: string;
  /** AM §8: the add-label answer's Message, shown above the creator's input. */
  addError: string | undefined;
  /** Why the last Set or Clear did not happen. */
  saveError: string | undefined;
}

export type LabelPickerEvent =
  | { type: 'label.select'; label: string }
  | { type: 'label.submit' }
  | { type: 'label.clear' }
  | { type: 'creator.change'; text: string }
  | { type: 'creator.submit' }
  | { type: 'dialog.close' };

export type LabelPickerEmitted = { type: 'application.changed' };

/**
 * AM §2 Label picker, §4 (idle, saving, clearing), §5, §8: choose a label and Set it (disabled when
 * it equals the current one), Clear it (offered only when one is set), or, with label.add, create a
 * label of at most 15 characters while the count 'n / max' is under MaximumLabelLimit. A created
 * label joins the list, chosen; a refused one shows the server's Message above the input.
 */
export const labelPickerMachine = setup({
  types: typesOf<{
    context: LabelPickerContext;
    events: LabelPickerEvent;
    input: LabelPickerInput;
    emitted: LabelPickerEmitted;
    tags: 'busy';
  }>(),
  actors: {
    loadLabels: fromPromise<LabelCatalogue>(async () => {
      const [labels, information] = await Promise.all([labelList(), systemInformation()]);
      return { labels, maximum: information.MaximumLabelLimit };
    }),
    addLabel: fromPromise<ActionResult, { text: string }>(({ input }) => addLabel({ LabelText: input.text })),
    saveLabel: fromPromise<ActionResult, { applicationGuid: string; label: string }>(({ input }) =>
      saveLabel(input.applicationGuid, input.label),
    ),
  },
  guards: {
    isNewLabel: ({ context }) => canSetLabel(context.selected, context.currentLabel),
    hasCurrentLabel: ({ context }) => context.currentLabel !== '',
    canCreateLabel: ({ context }) =>
      context.canCreate && canAddLabel(context.draft, context.labels.length, context.maximum),
    isSaved: (_, params: { result: ActionResult }) => params.result.Success,
  },
  actions: {
    assignCatalogue: assign((_, params: { catalogue: LabelCatalogue }) => ({
      labels: params.catalogue.labels,
      maximum: params.catalogue.maximum,
    })),
    assignSelection: assign((_, params: { label: string }) => ({ selected: params.label, saveError: undefined })),
    assignDraft: assign((_, params: { text: string }) => ({ draft: clampLabelText(params.text), addError: undefined })),
    // The server keeps labels by name (Name = Value); the new one is chosen, ready to Set.
    appendCreated: assign(({ context }) => {
      const name = context.draft.trim();
      return {
        labels: [...context.labels, { Name: name, Value: name }].sort((a, b) => a.Name.localeCompare(b.Name)),
        selected: name,
        draft: '',
        addError: undefined,
        saveError: undefined,
      };
    }),
    assignAddRefusal: assign((_, params: { result: ActionResult }) => ({
      addError: params.result.Message || actionTexts.unknownError,
    })),
    assignAddFailure: assign({ addError: actionTexts.unknownError }),
    assignSaveRefusal: assign((_, params: { result: ActionResult }) => ({
      saveError: params.result.Message || actionTexts.unknownError,
    })),
    assignSaveFailure: assign({ saveError: actionTexts.unknownError }),
    // Also after a refused or failed save: the refusal may be because the application changed (a
    // colleague depersonalised it), so the detail refetches and stops offering stale controls (issue 32).
    notifyChanged: emit({ type: 'application.changed' as const }),
  },
}).createMachine({
  id: 'labelPicker',
  initial: 'loading',
  context: ({ input }) => ({
    applicationGuid: input.applicationGuid,
    currentLabel: input.currentLabel,
    canCreate: input.canCreate,
    labels: [],
    maximum: 0,
    selected: input.currentLabel,
    draft: '',
    addError: undefined,
    saveError: undefined,
  }),
  states: {
    loading: {
      description: 'The labels and the label limit load; the picker shows a loading text',
      tags: ['busy'],
      invoke: {
        id: 'loadLabels',
        src: 'loadLabels',
        onDone: {
          target: 'idle',
          actions: { type: 'assignCatalogue', params: ({ event }) => ({ catalogue: event.output }) },
        },
        onError: { target: 'unavailable' },
      },
      on: { 'dialog.close': { target: 'closed' } },
    },
    unavailable: {
      description: "The labels could not be loaded: 'An unknown error occurred.' and Close",
      on: { 'dialog.close': { target: 'closed' } },
    },
    idle: {
      description:
        "The label list starting at the current label; Set label (disabled when equal to the current one), Clear label (only when one is set), Cancel; with label.add the count 'n / max' (red at the limit) and, under the limit, the creator (15 characters, Create label disabled when empty, the refusal's Message above it)",
      on: {
        'label.select': { actions: { type: 'assignSelection', params: ({ event }) => ({ label: event.label }) } },
        'label.submit': { guard: 'isNewLabel', target: 'saving' },
        'label.clear': { guard: 'hasCurrentLabel', target: 'clearing' },
        'creator.change': { actions: { type: 'assignDraft', params: ({ event }) => ({ text: event.text }) } },
        'creator.submit': { guard: 'canCreateLabel', target: 'adding' },
        'dialog.close': { target: 'closed' },
      },
    },
    adding: {
      description: 'Creating the label (POST label/add); the creator waits',
      tags: ['busy'],
      invoke: {
        id: 'addLabel',
        src: 'addLabel',
        input: ({ context }) => ({ text: context.draft.trim() }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
            target: 'idle',
            actions: 'appendCreated',
          },
          { target: 'idle', actions: { type: 'assignAddRefusal', params: ({ event }) => ({ result: event.output }) } },
        ],
        onError: { target: 'idle', actions: 'assignAddFailure' },
      },
    },
    saving: {
      description: 'Setting the chosen label (POST label/save); the buttons wait',
      tags: ['busy'],
      invoke: {
        id: 'saveLabel',
        src: 'saveLabel',
        input: ({ context }) => ({ applicationGuid: context.applicationGuid, label: context.selected }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
            target: 'saved',
            actions: 'notifyChanged',
          },
          { target: 'idle', actions: [{ type: 'assignSaveRefusal', params: ({ event }) => ({ result: event.output }) }, 'notifyChanged'] },
        ],
        onError: { target: 'idle', actions: ['assignSaveFailure', 'notifyChanged'] },
      },
    },
    clearing: {
      description: 'Clearing the label (POST label/save with an empty Label); the buttons wait',
      tags: ['busy'],
      invoke: {
        id: 'saveLabel',
        src: 'saveLabel',
        input: ({ context }) => ({ applicationGuid: context.applicationGuid, label: '' }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
            target: 'saved',
            actions: 'notifyChanged',
          },
          { target: 'idle', actions: [{ type: 'assignSaveRefusal', params: ({ event }) => ({ result: event.output }) }, 'notifyChanged'] },
        ],
        onError: { target: 'idle', actions: ['assignSaveFailure', 'notifyChanged'] },
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
  purpose: "Set or clear an application's label, and create labels up to the tenant's limit",
  spec: ['AM §2', 'AM §4', 'AM §5', 'AM §6', 'AM §8'],
  actors: {
    loadLabels: { does: 'Loads the labels and the label limit', done: 'labels loaded', failed: 'labels could not be loaded' },
    addLabel: { does: 'Creates a label', done: 'the server answered', failed: 'the request failed' },
    saveLabel: { does: "Saves the application's label (empty clears it)", done: 'the server answered', failed: 'the request failed' },
  },
  guards: {
    isNewLabel: 'a label is chosen that differs from the current one',
    hasCurrentLabel: 'the application has a label',
    canCreateLabel: 'label.add is held, the text is not empty and the count is under the limit',
    isSaved: 'the server saved it',
  },
  events: {
    'label.select': 'a label picked from the list',
    'label.submit': 'Set label pressed',
    'label.clear': 'Clear label pressed',
    'creator.change': 'the new label text typed',
    'creator.submit': 'Create label pressed',
    'dialog.close': 'Cancel, Close or Escape',
  },
} satisfies MachineLabels<typeof labelPickerMachine>;
