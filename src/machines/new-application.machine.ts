import { assign, fromPromise, setup } from 'xstate';
import { newApplicationSuccess, type NewApplicationResponse } from '../schemas/applications.schema.ts';
import { newApplication } from '../services/applications.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface NewApplicationContext {
  /** The server's message when the application was not created (AM §8). */
  message: string | undefined;
  /** The new application's form, to open in a new window. */
  url: string | undefined;
}

export type NewApplicationEvent = { type: 'dialog.close' };

/** What a New ends with: the form to open, if an application was created. */
export interface NewApplicationOutput {
  url: string | undefined;
}

/** AM §8 generic failure text, for a request that failed without a message. */
export const unknownErrorText = 'An unknown error occurred.';

/**
 * New with app.create alone (AM §2, §6, §8): POST /application/new at once; Success opens the Url
 * in a new window, any other Result shows the server's message.
 */
export const newApplicationMachine = setup({
  types: typesOf<{
    context: NewApplicationContext;
    events: NewApplicationEvent;
    output: NewApplicationOutput;
    tags: 'busy';
  }>(),
  actors: {
    createApplication: fromPromise<NewApplicationResponse>(() => newApplication()),
  },
  guards: {
    isCreated: (_, params: { result: string }) => params.result === newApplicationSuccess,
  },
  actions: {
    assignUrl: assign((_, params: { url: string }) => ({ url: params.url })),
    assignMessage: assign((_, params: { message: string }) => ({ message: params.message || unknownErrorText })),
  },
}).createMachine({
  id: 'newApplication',
  initial: 'creating',
  context: { message: undefined, url: undefined },
  output: ({ context }) => ({ url: context.url }),
  states: {
    creating: {
      description: 'New: creating the application; the New button shows it is busy',
      tags: ['busy'],
      invoke: {
        id: 'createApplication',
        src: 'createApplication',
        onDone: [
          {
            guard: { type: 'isCreated', params: ({ event }) => ({ result: event.output.Result }) },
            target: 'created',
            actions: { type: 'assignUrl', params: ({ event }) => ({ url: event.output.Url }) },
          },
          {
            target: 'failed',
            actions: { type: 'assignMessage', params: ({ event }) => ({ message: event.output.Message }) },
          },
        ],
        onError: { target: 'failed', actions: { type: 'assignMessage', params: { message: '' } } },
      },
    },
    failed: {
      description: "The application was not created: the server's message, and Close",
      on: { 'dialog.close': { target: 'closed' } },
    },
    created: {
      description: 'Created: the form opens in a new window',
      type: 'final',
    },
    closed: { type: 'final' },
  },
});

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'New application (app.create): creates it at once and opens it in a new window, or shows the server’s message.',
  spec: ['AM §2', 'AM §6', 'AM §8'],
  actors: {
    createApplication: { does: 'Creates a new application', done: 'server answered', failed: 'creation failed' },
  },
  guards: { isCreated: 'the application was created' },
  events: { 'dialog.close': 'the message closed' },
} satisfies MachineLabels<typeof newApplicationMachine>;
