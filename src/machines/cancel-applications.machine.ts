import { assign, fromPromise, setup } from 'xstate';
import type { CancelApplicationsResponse } from '../schemas/applications.schema.ts';
import { cancelApplications } from '../services/applications.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

/** An application the dialog lists: its guid (what is cancelled) and what a person recognises it by. */
export interface CancelTarget {
  applicationGuid: string;
  applicationId: number;
  accountName: string;
}

export interface CancelApplicationsInput {
  applications: CancelTarget[];
}

export interface CancelApplicationsContext {
  applications: CancelTarget[];
  /** Per application guid: cancelled (true) or not (false); empty until the server has answered. */
  outcomes: Record<string, boolean>;
}

export type CancelApplicationsEvent = { type: 'cancel.confirm' } | { type: 'dialog.close' };

export interface CancelApplicationsOutput {
  /** At least one application was cancelled: the list must be refreshed (AM §2, §4). */
  cancelledAny: boolean;
}

/**
 * AM §2/§8 the cancel modal, for one application (row menu, email view) or a selection (More
 * menu): confirm, cancel each, then 'Application(s) cancelled' with Cancelled or Error per application.
 */
export const cancelApplicationsMachine = setup({
  types: typesOf<{
    context: CancelApplicationsContext;
    events: CancelApplicationsEvent;
    input: CancelApplicationsInput;
    output: CancelApplicationsOutput;
    tags: 'busy';
  }>(),
  actors: {
    cancelApplications: fromPromise<CancelApplicationsResponse, { guids: string[] }>(({ input }) =>
      cancelApplications(input.guids),
    ),
  },
  actions: {
    assignOutcomes: assign((_, params: { response: CancelApplicationsResponse }) => ({
      outcomes: Object.fromEntries(params.response.Results.map((result) => [result.ApplicationGuid, result.Success])),
    })),
    // The request itself failed (network, server error): nothing is known to be cancelled, so every one shows Error.
    assignAllFailed: assign(({ context }) => ({
      outcomes: Object.fromEntries(context.applications.map((application) => [application.applicationGuid, false])),
    })),
  },
}).createMachine({
  id: 'cancelApplications',
  initial: 'confirming',
  context: ({ input }) => ({ applications: input.applications, outcomes: {} }),
  output: ({ context }) => ({ cancelledAny: Object.values(context.outcomes).some(Boolean) }),
  states: {
    confirming: {
      description: "'Cancel N application(s)': the applications to cancel, a confirm button and Close",
      on: {
        'cancel.confirm': { target: 'cancelling' },
        'dialog.close': { target: 'closed' },
      },
    },
    cancelling: {
      description: 'Cancelling the applications',
      tags: ['busy'],
      invoke: {
        id: 'cancelApplications',
        src: 'cancelApplications',
        input: ({ context }) => ({ guids: context.applications.map((application) => application.applicationGuid) }),
        onDone: {
          target: 'finished',
          actions: { type: 'assignOutcomes', params: ({ event }) => ({ response: event.output }) },
        },
        onError: { target: 'finished', actions: 'assignAllFailed' },
      },
    },
    finished: {
      description: "'Application(s) cancelled': each application with its status, Cancelled or Error",
      on: { 'dialog.close': { target: 'closed' } },
    },
    closed: { type: 'final' },
  },
});

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'The cancel modal for one application or the ticked ones: confirm, cancel each, then show Cancelled or Error per application.',
  spec: ['AM §2', 'AM §8'],
  actors: {
    cancelApplications: { does: 'Cancels the applications', done: 'server answered', failed: 'cancelling failed' },
  },
  events: {
    'cancel.confirm': 'Confirm chosen',
    'dialog.close': 'the modal closed',
  },
} satisfies MachineLabels<typeof cancelApplicationsMachine>;
