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
});
