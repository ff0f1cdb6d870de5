import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { fieldEditorMachine, type FieldChoice } from '../../src/machines/field-editor.machine.ts';
import type { EditorField } from '../../src/domain/application-editors.ts';
import type { ActionResult } from '../../src/schemas/application-actions.schema.ts';
import { defineMachineModel, type SampleEvent, type TransitionEffects } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
const unknownError = 'An unknown error occurred.';
const refusal = 'The e-mail address can only be changed while the application is incomplete.';
const applicationId = '100234';
const ownerA: FieldChoice = { id: '3c9e1f20-0000-4000-8000-0000000000c1', name: 'Alex Adviser' };
const ownerB: FieldChoice = { id: '3c9e1f20-0000-4000-8000-0000000000c2', name: 'Blair Broker' };
const currentEmail = 'old.address@example.test';

/** Edit Owner starts from the owner's name as the detail shows it (issue 32). */
const owner = { field: 'owner', applicationId, current: ownerA.name };
const email = { field: 'email', applicationId, current: currentEmail };
const signingMode = { field: 'signingMode', applicationId, current: 'Pin' };

/** The samples each editor's person would produce: owners picked, addresses typed, modes chosen. */
const changes: Record<string, SampleEvent[]> = {
  owner: [
    { type: 'field.change', value: ownerB.id },
    // The owner it already has: Save stays disabled (issue 32: no "Owner changed from X to X").
    { type: 'field.change', value: ownerA.id },
    { type: 'field.change', value: '' },
    // Not one of the owners listed (a stale or typed id): never saved.
    { type: 'field.change', value: '3c9e1f20-0000-4000-8000-0000000000ff' },
  ],
  email: [
    { type: 'field.change', value: 'new.address@example.test' },
    { type: 'field.change', value: 'not-an-address' },
    { type: 'field.change', value: '' },
  ],
  signingMode: [
    { type: 'field.change', value: 'PrintandSign' },
    { type: 'field.change', value: 'Pin' },
  ],
};

/** What loadChoices answers per editor: the owners, AM §5's two signing modes, nothing for the e-mail. */
const choices: Record<string, SampleEvent[]> = {
  owner: [
    { type: 'xstate.done.actor.loadChoices', output: [ownerA, ownerB] },
    { type: 'xstate.error.actor.loadChoices', error: new Error('network down') },
  ],
  email: [{ type: 'xstate.done.actor.loadChoices', output: [] }],
  signingMode: [
    {
      type: 'xstate.done.actor.loadChoices',
      output: [
        { id: 'Pin', name: 'Online' },
        { id: 'PrintandSign', name: 'Print & Sign' },
      ],
    },
  ],
};

/** AM §5, written out from the spec rather than taken from src/domain: what Save accepts per editor. */
function acceptable(field: string, value: string, current: string): boolean {
  if (value === current) return false;
  if (field === 'owner') return [ownerA.id, ownerB.id].includes(value);
  if (field === 'signingMode') return value === 'Pin' || value === 'PrintandSign';
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value);
}

const saveAnswered = ({ event, before, after, emitted }: TransitionEffects) => {
  const output = event.output as ActionResult | undefined;
  if (output?.Success) {
    expect(after.matches('saved')).toBe(true);
    expect(emitted).toEqual([{ type: 'application.changed' }]);
  } else {
    expect(after.matches('editing')).toBe(true);
    // Issue 32: a refused or failed save refetches the detail (the application may have changed).
    expect(emitted).toEqual([{ type: 'application.changed' }]);
    expect(after.context.error).toBe(output ? output.Message : unknownError);
    // The value stays for another try.
    expect(after.context.draft).toBe(before.context.draft);
  }
};

const closes = ({ after, emitted }: TransitionEffects) => {
  expect(after.matches('closed')).toBe(true);
  expect(emitted).toEqual([]);
};

export default defineMachineModel({
  name: 'field-editor',
  machine: fieldEditorMachine.provide({ actors: { loadChoices: never<FieldChoice[], { field: EditorField }>(), saveField: never<ActionResult, { field: EditorField; applicationId: string; value: string }>() } }),
  input: owner,
  variants: [
    {
      name: 'Edit Email Address',
      input: email,
      events: ['xstate.done.actor.loadChoices', 'form.submit', 'field.blur', 'xstate.done.actor.saveField'],
    },
    { name: 'Change Signing Mode', input: signingMode, events: ['xstate.done.actor.loadChoices', 'form.submit', 'xstate.done.actor.saveField'] },
  ],
  contextKey: (snapshot) => ({ draft: snapshot.context.draft, validated: snapshot.context.validated }),
  events: (snapshot: AnyMachineSnapshot) => [
    ...(choices[snapshot.context.field] ?? []),
    ...(changes[snapshot.context.field] ?? []),
    { type: 'xstate.after.validationDebounce.fieldEditor.editing.debouncing' },
    { type: 'xstate.done.actor.saveField', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveField', output: { Success: false, Message: refusal } },
    { type: 'xstate.error.actor.saveField', error: new Error('network down') },
  ],
  expectations: {
    states: {
      loadingChoices: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      unavailable: (snapshot) => expect(snapshot.context.choices).toEqual([]),
      'editing.validated': (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      'editing.debouncing': (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      saving: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      saved: (snapshot) => expect(snapshot.status).toBe('done'),
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'loadingChoices + xstate.done.actor.loadChoices': ({ event, after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.choices).toEqual(event.output);
        // Nothing is validated before the person does something: no message at first.
        expect(after.context.validated).toBeUndefined();
        // Every editor starts at the current value; the owner's name is resolved to its choice (issue 32).
        if (after.context.field === 'owner') expect(after.context.current).toBe(ownerA.id);
        expect(after.context.draft).toBe(after.context.current);
      },
      'loadingChoices + xstate.error.actor.loadChoices': ({ after }) => expect(after.matches('unavailable')).toBe(true),
      'loadingChoices + dialog.close': closes,
      'unavailable + dialog.close': closes,
      // AM §5: the message waits 300 ms after a change...
      'editing + field.change': ({ event, before, after }) => {
        expect(after.matches({ editing: 'debouncing' })).toBe(true);
        expect(after.context.draft).toBe(event.value);
        expect(after.context.validated).toBe(before.context.validated);
        expect(after.context.error).toBeUndefined();
      },
      'editing.debouncing + after validationDebounce': ({ after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.validated).toBe(after.context.draft);
      },
      // ...or comes at once on blur.
      'editing + field.blur': ({ after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.validated).toBe(after.context.draft);
      },
      'editing + form.submit': ({ before, after, started }) => {
        const { field, draft, current } = before.context;
        const saves = acceptable(field, draft, current);
        expect(after.matches(saves ? 'saving' : 'editing')).toBe(true);
        expect(started).toEqual(saves ? { saveField: { field, applicationId, value: draft } } : {});
      },
      'editing + dialog.close': closes,
      'saving + xstate.done.actor.saveField': saveAnswered,
      'saving + xstate.error.actor.saveField': saveAnswered,
    },
  },
});
