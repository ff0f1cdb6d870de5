import { assign, emit, fromPromise, setup } from 'xstate';
import { canAssign } from '../domain/application-editors.ts';
import { actionTexts, type ActionResult } from '../schemas/application-actions.schema.ts';
import type { AssigneeOption } from '../schemas/lookups.schema.ts';
import { assignApplication } from '../services/application-editors.service.ts';
import { assignees } from '../services/lookups.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface AssigneePickerInput {
  /** The ApplicationID (the path of POST /application/assign/{id}). */
  applicationId: string;
  /** AssigneeUserId of the loaded application: null when nobody is assigned. */
  savedAssigneeId: string | null;
}

export interface AssigneePickerContext {
  applicationId: string;
  savedAssigneeId: string | null;
  /** GET /account/assignees: only the Assignable ones are offered. */
  assignees: AssigneeOption[];
  /** The assignee picked in the modal (its GlobalUserId); starts at the saved one. */
  selectedId: string | null;
  /** Why the last save or clear did not happen: the server's Message, or 'An unknown error occurred.'. */
  error: string | undefined;
}

export type AssigneePickerEvent =
  | { type: 'assignee.select'; assigneeId: string | null }
  | { type: 'assign.submit' }
  | { type: 'assignee.clear' }
  | { type: 'dialog.close' };

/** The detail refetches and the activity feed shows the change (AM §4 refetch). */
export type AssigneePickerEmitted = { type: 'application.changed' };

/**
 * AM §2 Assignee picker, §4 (idle, saving, clearing), §5: Assign is disabled until an assignee
 * different from the saved one is chosen; Clear sends null. A save that went through closes the
 * modal and tells the detail to refetch; one that did not keeps the modal open with the reason.
 */
export const assigneePickerMachine = setup({
  types: typesOf<{
    context: AssigneePickerContext;
    events: AssigneePickerEvent;
    input: AssigneePickerInput;
    emitted: AssigneePickerEmitted;
    tags: 'busy';
  }>(),
  actors: {
    loadAssignees: fromPromise<AssigneeOption[]>(() => assignees()),
    saveAssignee: fromPromise<ActionResult, { applicationId: string; assigneeId: string | null }>(({ input }) =>
      assignApplication(input.applicationId, { GlobalUserId: input.assigneeId }),
    ),
  },
  guards: {
    isNewAssignee: ({ context }) =>
      canAssign(context.selectedId, context.savedAssigneeId) &&
      context.assignees.some((option) => option.Value === context.selectedId),
    hasSavedAssignee: ({ context }) => context.savedAssigneeId !== null,
    isSaved: (_, params: { result: ActionResult }) => params.result.Success,
  },
  actions: {
    assignAssignees: assign((_, params: { assignees: AssigneeOption[] }) => ({
      assignees: params.assignees.filter((option) => option.Assignable),
    })),
    assignSelection: assign((_, params: { assigneeId: string | null }) => ({ selectedId: params.assigneeId, error: undefined })),
    assignRefusal: assign((_, params: { result: ActionResult }) => ({
      error: params.result.Message || actionTexts.unknownError,
    })),
    assignFailure: assign({ error: actionTexts.unknownError }),
    // Also after a refused or failed save: the refusal may be because the application changed (a
    // colleague depersonalised it), so the detail refetches and stops offering stale controls (issue 32).
    notifyChanged: emit({ type: 'application.changed' as const }),
  },
}).createMachine({
  id: 'assigneePicker',
  initial: 'loading',
  context: ({ input }) => ({
    applicationId: input.applicationId,
    savedAssigneeId: input.savedAssigneeId,
    assignees: [],
    selectedId: input.savedAssigneeId,
    error: undefined,
  }),
  states: {
    loading: {
      description: 'The assignees load; the picker shows a loading text',
      tags: ['busy'],
      invoke: {
        id: 'loadAssignees',
        src: 'loadAssignees',
        onDone: {
          target: 'idle',
          actions: { type: 'assignAssignees', params: ({ event }) => ({ assignees: event.output }) },
        },
        onError: { target: 'unavailable' },
      },
      on: { 'dialog.close': { target: 'closed' } },
    },
    unavailable: {
      description: "The assignees could not be loaded: 'An unknown error occurred.' and Close",
      on: { 'dialog.close': { target: 'closed' } },
    },
    idle: {
      description:
        'A searchable assignee list starting at the saved assignee; Assign (enabled once a different assignee is chosen), Clear assignee (when one is saved), Cancel; the last refusal above the buttons',
      on: {
        'assignee.select': {
          actions: { type: 'assignSelection', params: ({ event }) => ({ assigneeId: event.assigneeId }) },
        },
        'assign.submit': { guard: 'isNewAssignee', target: 'saving' },
        'assignee.clear': { guard: 'hasSavedAssignee', target: 'clearing' },
        'dialog.close': { target: 'closed' },
      },
    },
    saving: {
      description: 'Assigning the chosen person (POST assign with their GlobalUserId); the buttons wait',
      tags: ['busy'],
      invoke: {
        id: 'saveAssignee',
        src: 'saveAssignee',
        input: ({ context }) => ({ applicationId: context.applicationId, assigneeId: context.selectedId }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
            target: 'saved',
            actions: 'notifyChanged',
          },
          { target: 'idle', actions: [{ type: 'assignRefusal', params: ({ event }) => ({ result: event.output }) }, 'notifyChanged'] },
        ],
        onError: { target: 'idle', actions: ['assignFailure', 'notifyChanged'] },
      },
    },
    clearing: {
      description: 'Clearing the assignee (POST assign with GlobalUserId null); the buttons wait',
      tags: ['busy'],
      invoke: {
        id: 'saveAssignee',
        src: 'saveAssignee',
        input: ({ context }) => ({ applicationId: context.applicationId, assigneeId: null }),
        onDone: [
          {
            guard: { type: 'isSaved', params: ({ event }) => ({ result: event.output }) },
            target: 'saved',
            actions: 'notifyChanged',
          },
          { target: 'idle', actions: [{ type: 'assignRefusal', params: ({ event }) => ({ result: event.output }) }, 'notifyChanged'] },
        ],
        onError: { target: 'idle', actions: ['assignFailure', 'notifyChanged'] },
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
  purpose: 'Assign an application to a staff member, or clear its assignee',
  spec: ['AM §2', 'AM §4', 'AM §5', 'AM §6'],
  actors: {
    loadAssignees: { does: 'Loads the people applications can be assigned to', done: 'assignees loaded', failed: 'assignees could not be loaded' },
    saveAssignee: { does: 'Saves the assignee (null clears it)', done: 'the server answered', failed: 'the request failed' },
  },
  guards: {
    isNewAssignee: 'an assignee is chosen that differs from the saved one',
    hasSavedAssignee: 'the application has an assignee',
    isSaved: 'the server saved it',
  },
  events: {
    'assignee.select': 'an assignee picked from the list',
    'assign.submit': 'Assign pressed',
    'assignee.clear': 'Clear assignee pressed',
    'dialog.close': 'Cancel, Close or Escape',
  },
} satisfies MachineLabels<typeof assigneePickerMachine>;
