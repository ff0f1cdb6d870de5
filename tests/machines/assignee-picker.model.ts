import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { assigneePickerMachine } from '../../src/machines/assignee-picker.machine.ts';
import type { ActionResult } from '../../src/schemas/application-actions.schema.ts';
import type { AssigneeOption } from '../../src/schemas/lookups.schema.ts';
import { defineMachineModel, type TransitionEffects } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
const saved: AssigneeOption = { Name: 'Avery Admin', Value: '1f0e7c9a-0000-4000-8000-0000000000a1', Assignable: true };
const other: AssigneeOption = { Name: 'Morgan Manager', Value: '1f0e7c9a-0000-4000-8000-0000000000a2', Assignable: true };
const disabledUser: AssigneeOption = { Name: 'Dana Disabled', Value: '1f0e7c9a-0000-4000-8000-0000000000a3', Assignable: false };
const refusal = 'This application has been cancelled.';
const unknownError = 'An unknown error occurred.';

const withSaved = { applicationId: '100234', savedAssigneeId: saved.Value };
const withoutSaved = { applicationId: '100234', savedAssigneeId: null };

const buttonsWait = (snapshot: AnyMachineSnapshot) => expect(snapshot.hasTag('busy')).toBe(true);
/** A save's answer: saved closes with one application.changed; anything else stays open with the reason and has the detail refetch. */
const answered = ({ event, after, emitted, before }: TransitionEffects) => {
  const output = event.output as ActionResult | undefined;
  if (output?.Success) {
    expect(after.matches('saved')).toBe(true);
    expect(emitted).toEqual([{ type: 'application.changed' }]);
  } else {
    expect(after.matches('idle')).toBe(true);
    // Issue 32: a refused or failed save refetches the detail (the application may have changed).
    expect(emitted).toEqual([{ type: 'application.changed' }]);
    expect(after.context.error).toBe(output ? output.Message : unknownError);
    // What was chosen stays chosen for another try.
    expect(after.context.selectedId).toBe(before.context.selectedId);
  }
};

export default defineMachineModel({
  name: 'assignee-picker',
  machine: assigneePickerMachine.provide({
    actors: { loadAssignees: never<AssigneeOption[]>(), saveAssignee: never<ActionResult, { applicationId: string; assigneeId: string | null }>() },
  }),
  input: withSaved,
  variants: [{ name: 'nobody assigned yet', input: withoutSaved, events: ['assignee.clear', 'assign.submit'] }],
  // Assign's guard reads what is chosen and whether the list has loaded.
  contextKey: (snapshot) => ({ selected: snapshot.context.selectedId, loaded: snapshot.context.assignees.length > 0 }),
  events: [
    { type: 'xstate.done.actor.loadAssignees', output: [saved, other, disabledUser] },
    { type: 'xstate.error.actor.loadAssignees', error: new Error('network down') },
    { type: 'assignee.select', assigneeId: other.Value },
    { type: 'assignee.select', assigneeId: saved.Value },
    { type: 'assignee.select', assigneeId: null },
    { type: 'xstate.done.actor.saveAssignee', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveAssignee', output: { Success: false, Message: refusal } },
    { type: 'xstate.error.actor.saveAssignee', error: new Error('network down') },
  ],
  expectations: {
    states: {
      loading: buttonsWait,
      unavailable: (snapshot) => expect(snapshot.context.assignees).toEqual([]),
      idle: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        // Only people who can be assigned are offered.
        expect(snapshot.context.assignees.every((option: AssigneeOption) => option.Assignable)).toBe(true);
      },
      saving: buttonsWait,
      clearing: buttonsWait,
      saved: (snapshot) => expect(snapshot.status).toBe('done'),
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'loading + xstate.done.actor.loadAssignees': ({ after }) => {
        expect(after.matches('idle')).toBe(true);
        expect(after.context.assignees.map((option: AssigneeOption) => option.Name)).toEqual(['Avery Admin', 'Morgan Manager']);
        // The picker starts at the saved assignee.
        expect(after.context.selectedId).toBe(after.context.savedAssigneeId);
      },
      'loading + xstate.error.actor.loadAssignees': ({ after }) => expect(after.matches('unavailable')).toBe(true),
      'loading + dialog.close': ({ after, emitted }) => {
        expect(after.matches('closed')).toBe(true);
        expect(emitted).toEqual([]);
      },
      'unavailable + dialog.close': ({ after }) => expect(after.matches('closed')).toBe(true),
      'idle + assignee.select': ({ event, after }) => {
        expect(after.context.selectedId).toBe(event.assigneeId);
        expect(after.context.error).toBeUndefined();
      },
      // AM §5: Assign goes only with an assignee who differs from the saved one.
      'idle + assign.submit': ({ before, after, started }) => {
        const different = before.context.selectedId !== null && before.context.selectedId !== before.context.savedAssigneeId;
        expect(after.matches(different ? 'saving' : 'idle')).toBe(true);
        expect(started).toEqual(different ? { saveAssignee: { applicationId: '100234', assigneeId: before.context.selectedId } } : {});
      },
      // AM §5: clearing sends null; there is nothing to clear when nobody is assigned.
      'idle + assignee.clear': ({ before, after, started }) => {
        const assigned = before.context.savedAssigneeId !== null;
        expect(after.matches(assigned ? 'clearing' : 'idle')).toBe(true);
        expect(started).toEqual(assigned ? { saveAssignee: { applicationId: '100234', assigneeId: null } } : {});
      },
      'idle + dialog.close': ({ after, emitted }) => {
        expect(after.matches('closed')).toBe(true);
        expect(emitted).toEqual([]);
      },
      'saving + xstate.done.actor.saveAssignee': answered,
      'saving + xstate.error.actor.saveAssignee': answered,
      'clearing + xstate.done.actor.saveAssignee': answered,
      'clearing + xstate.error.actor.saveAssignee': answered,
    },
  },
});
