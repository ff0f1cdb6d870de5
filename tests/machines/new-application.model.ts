import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { newApplicationMachine } from '../../src/machines/new-application.machine.ts';
import type { NewApplicationResponse } from '../../src/schemas/applications.schema.ts';
import { defineMachineModel } from './machine-model.ts';

export default defineMachineModel({
  name: 'new-application',
  machine: newApplicationMachine.provide({
    actors: { createApplication: fromPromise<NewApplicationResponse>(() => new Promise(() => {})) },
  }),
  events: [
    { type: 'xstate.done.actor.createApplication', output: { Result: 'Success', Message: '', Url: 'https://forms.demo.test/a/2' } },
    { type: 'xstate.done.actor.createApplication', output: { Result: 'Failed', Message: 'No product is available.', Url: '' } },
    { type: 'xstate.error.actor.createApplication', error: new Error('network down') },
  ],
  expectations: {
    states: {
      creating: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      failed: (snapshot) => expect(snapshot.context.message).toMatch(/./),
      created: (snapshot) => expect(snapshot.output).toEqual({ url: 'https://forms.demo.test/a/2' }),
      closed: (snapshot) => expect(snapshot.output).toEqual({ url: undefined }),
    },
    transitions: {
      // AM §8: a Result other than Success shows the server's message; no message (or a thrown
      // call) shows the generic text.
      'creating + xstate.done.actor.createApplication': ({ event, after }) => {
        if (event.output && typeof event.output === 'object' && 'Result' in event.output && event.output.Result === 'Success') {
          expect(after.matches('created')).toBe(true);
        } else {
          expect(after.matches('failed')).toBe(true);
          expect(after.context.message).toBe('No product is available.');
        }
      },
      'creating + xstate.error.actor.createApplication': ({ after }) => {
        expect(after.matches('failed')).toBe(true);
        expect(after.context.message).toBe('An unknown error occurred.');
      },
      'failed + dialog.close': ({ after }) => expect(after.status).toBe('done'),
    },
  },
});
