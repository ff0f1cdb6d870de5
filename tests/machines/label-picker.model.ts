import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { labelPickerMachine, type LabelCatalogue } from '../../src/machines/label-picker.machine.ts';
import type { ActionResult } from '../../src/schemas/application-actions.schema.ts';
import { defineMachineModel, type TransitionEffects } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
const option = (name: string) => ({ Name: name, Value: name });
const unknownError = 'An unknown error occurred.';
const limitMessage = 'The maximum of 3 labels has been reached.';
const guid = '5b1d3f0e-0000-4000-8000-00000000b001';

/** Two labels under a limit of three: one more can be created, then the creator goes. */
const underLimit: LabelCatalogue = { labels: [option('Priority'), option('VIP')], maximum: 3 };

const input = { applicationGuid: guid, currentLabel: 'VIP', canCreate: true };
const names = (snapshot: AnyMachineSnapshot) => snapshot.context.labels.map((label: { Name: string }) => label.Name);

const buttonsWait = (snapshot: AnyMachineSnapshot) => expect(snapshot.hasTag('busy')).toBe(true);

/** Set and Clear: saved closes with one application.changed; anything else stays open with the reason. */
const saveAnswered = ({ event, after, emitted }: TransitionEffects) => {
  const output = event.output as ActionResult | undefined;
  if (output?.Success) {
    expect(after.matches('saved')).toBe(true);
    expect(emitted).toEqual([{ type: 'application.changed' }]);
  } else {
    expect(after.matches('idle')).toBe(true);
    // Issue 32: a refused or failed save refetches the detail (the application may have changed).
    expect(emitted).toEqual([{ type: 'application.changed' }]);
    expect(after.context.saveError).toBe(output ? output.Message : unknownError);
  }
};

export default defineMachineModel({
  name: 'label-picker',
  machine: labelPickerMachine.provide({
    actors: { loadLabels: never<LabelCatalogue>(), addLabel: never<ActionResult, { text: string }>(), saveLabel: never<ActionResult, { applicationGuid: string; label: string }>() },
  }),
  input,
  variants: [
    { name: 'no label set', input: { ...input, currentLabel: '' }, events: ['label.clear', 'label.submit'] },
    { name: 'without label.add', input: { ...input, canCreate: false }, events: ['creator.submit'] },
  ],
  // The guards read the choice, the creator's text and how many labels there are.
  contextKey: (snapshot) => ({
    selected: snapshot.context.selected,
    draft: snapshot.context.draft,
    count: snapshot.context.labels.length,
  }),
  events: [
    { type: 'xstate.done.actor.loadLabels', output: underLimit },
    { type: 'xstate.error.actor.loadLabels', error: new Error('network down') },
    { type: 'label.select', label: 'Priority' },
    { type: 'label.select', label: 'VIP' },
    // 17 characters typed: only 15 are kept (AM §5).
    { type: 'creator.change', text: 'Awaiting callback' },
    { type: 'creator.change', text: '   ' },
    { type: 'xstate.done.actor.addLabel', output: { Success: true, Message: 'Label added.' } },
    { type: 'xstate.done.actor.addLabel', output: { Success: false, Message: limitMessage } },
    { type: 'xstate.error.actor.addLabel', error: new Error('network down') },
    { type: 'xstate.done.actor.saveLabel', output: { Success: true, Message: '' } },
    { type: 'xstate.done.actor.saveLabel', output: { Success: false, Message: 'This application has been cancelled.' } },
    { type: 'xstate.error.actor.saveLabel', error: new Error('network down') },
  ],
  expectations: {
    states: {
      loading: buttonsWait,
      unavailable: (snapshot) => expect(snapshot.context.labels).toEqual([]),
      idle: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.draft.length).toBeLessThanOrEqual(15);
        expect(snapshot.context.labels.length).toBeLessThanOrEqual(snapshot.context.maximum);
      },
      adding: buttonsWait,
      saving: buttonsWait,
      clearing: buttonsWait,
      saved: (snapshot) => expect(snapshot.status).toBe('done'),
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'loading + xstate.done.actor.loadLabels': ({ after }) => {
        expect(names(after)).toEqual(['Priority', 'VIP']);
        expect(after.context.maximum).toBe(3);
        // The list starts at the current label.
        expect(after.context.selected).toBe(after.context.currentLabel);
      },
      'loading + xstate.error.actor.loadLabels': ({ after }) => expect(after.matches('unavailable')).toBe(true),
      'loading + dialog.close': ({ after }) => expect(after.matches('closed')).toBe(true),
      'unavailable + dialog.close': ({ after }) => expect(after.matches('closed')).toBe(true),
      'idle + label.select': ({ event, after }) => {
        expect(after.context.selected).toBe(event.label);
        expect(after.context.saveError).toBeUndefined();
      },
      // AM §5: Set label goes only with a label that differs from the current one.
      'idle + label.submit': ({ before, after, started }) => {
        const differs = before.context.selected !== '' && before.context.selected !== before.context.currentLabel;
        expect(after.matches(differs ? 'saving' : 'idle')).toBe(true);
        expect(started).toEqual(differs ? { saveLabel: { applicationGuid: guid, label: before.context.selected } } : {});
      },
      // AM §5: Clear label is there only when a label is set; clearing saves an empty Label.
      'idle + label.clear': ({ before, after, started }) => {
        const isSet = before.context.currentLabel !== '';
        expect(after.matches(isSet ? 'clearing' : 'idle')).toBe(true);
        expect(started).toEqual(isSet ? { saveLabel: { applicationGuid: guid, label: '' } } : {});
      },
      'idle + creator.change': ({ event, after }) => {
        expect(after.context.draft).toBe(String(event.text).slice(0, 15));
        expect(after.context.addError).toBeUndefined();
      },
      // AM §5/§6: creating needs label.add, some text, and a count under MaximumLabelLimit.
      'idle + creator.submit': ({ before, after, started }) => {
        const allowed =
          before.context.canCreate && before.context.draft.trim() !== '' && before.context.labels.length < before.context.maximum;
        expect(after.matches(allowed ? 'adding' : 'idle')).toBe(true);
        expect(started).toEqual(allowed ? { addLabel: { text: before.context.draft.trim() } } : {});
      },
      'idle + dialog.close': ({ after, emitted }) => {
        expect(after.matches('closed')).toBe(true);
        expect(emitted).toEqual([]);
      },
      'adding + xstate.done.actor.addLabel': ({ event, before, after, emitted }) => {
        const output = event.output as ActionResult;
        expect(after.matches('idle')).toBe(true);
        // Creating a label changes no application.
        expect(emitted).toEqual([]);
        if (output.Success) {
          expect(names(after)).toContain(before.context.draft.trim());
          expect(after.context.selected).toBe(before.context.draft.trim());
          expect(after.context.draft).toBe('');
        } else {
          // AM §8: the Message shows above the input, which keeps the text.
          expect(after.context.addError).toBe(limitMessage);
          expect(after.context.draft).toBe(before.context.draft);
          expect(names(after)).toEqual(names(before));
        }
      },
      'adding + xstate.error.actor.addLabel': ({ before, after }) => {
        expect(after.context.addError).toBe(unknownError);
        expect(names(after)).toEqual(names(before));
      },
      'saving + xstate.done.actor.saveLabel': saveAnswered,
      'saving + xstate.error.actor.saveLabel': saveAnswered,
      'clearing + xstate.done.actor.saveLabel': saveAnswered,
      'clearing + xstate.error.actor.saveLabel': saveAnswered,
    },
  },
});
