import { assign, fromPromise, setup } from 'xstate';
import {
  newApplicationSuccess,
  type NewOnBehalfRequest,
  type NewOnBehalfResponse,
} from '../schemas/applications.schema.ts';
import type { Owner } from '../schemas/lookups.schema.ts';
import { newApplicationOnBehalf } from '../services/applications.service.ts';
import { owners } from '../services/lookups.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';
import type { NewApplicationOutput } from './new-application.machine.ts';

export interface NewOnBehalfContext {
  owners: Owner[];
  /** The owner picked (its PublicId). */
  ownerId: string | undefined;
  /** Under the owner field: 'Please select an owner.' or 'ERROR' (AM §5, §8). */
  fieldError: string | undefined;
  url: string | undefined;
}

export type NewOnBehalfEvent =
  | { type: 'owner.select'; ownerId: string | undefined }
  | { type: 'owner.confirm' }
  | { type: 'dialog.close' };

/** AM §2, §5, §8 texts of the on-behalf modal, letter for letter. */
export const newOnBehalfTexts = {
  prompt: 'Please select the owner of this application:',
  noOwner: 'Please select an owner.',
  failed: 'ERROR',
} as const;

/**
 * New with app.createonbehalf (AM §2 New Application on-behalf modal, §5, §7, §8): pick the owner
 * from a searchable list, Continue posts /application/newonbehalf; Success opens the Url in a new
 * window, anything else shows ERROR on the field.
 */
export const newApplicationOnBehalfMachine = setup({
  types: typesOf<{
    context: NewOnBehalfContext;
    events: NewOnBehalfEvent;
    output: NewApplicationOutput;
    tags: 'busy';
  }>(),
  actors: {
    loadOwners: fromPromise<Owner[]>(() => owners()),
    createOnBehalf: fromPromise<NewOnBehalfResponse, NewOnBehalfRequest>(({ input }) => newApplicationOnBehalf(input)),
  },
  guards: {
    hasOwner: ({ context }) => context.owners.some((owner) => owner.PublicId === context.ownerId),
    isCreated: (_, params: { result: string }) => params.result === newApplicationSuccess,
  },
  actions: {
    assignOwners: assign((_, params: { owners: Owner[] }) => ({ owners: params.owners })),
    assignOwner: assign((_, params: { ownerId: string | undefined }) => ({ ownerId: params.ownerId, fieldError: undefined })),
    flagNoOwner: assign({ fieldError: newOnBehalfTexts.noOwner }),
    flagFailed: assign({ fieldError: newOnBehalfTexts.failed }),
    assignUrl: assign((_, params: { url: string }) => ({ url: params.url })),
  },
}).createMachine({
  id: 'newApplicationOnBehalf',
  initial: 'loadingOwners',
  context: { owners: [], ownerId: undefined, fieldError: undefined, url: undefined },
  output: ({ context }) => ({ url: context.url }),
  states: {
    loadingOwners: {
      description: "'Please select the owner of this application:' while the owners load",
      tags: ['busy'],
      invoke: {
        id: 'loadOwners',
        src: 'loadOwners',
        onDone: {
          target: 'choosingOwner',
          actions: { type: 'assignOwners', params: ({ event }) => ({ owners: event.output }) },
        },
        onError: { target: 'choosingOwner', actions: 'flagFailed' },
      },
      on: { 'dialog.close': { target: 'closed' } },
    },
    choosingOwner: {
      description:
        "'Please select the owner of this application:' with a searchable owner list, Continue and Cancel; 'Please select an owner.' or ERROR under the field",
      on: {
        'owner.select': { actions: { type: 'assignOwner', params: ({ event }) => ({ ownerId: event.ownerId }) } },
        'owner.confirm': [{ guard: 'hasOwner', target: 'creating' }, { actions: 'flagNoOwner' }],
        'dialog.close': { target: 'closed' },
      },
    },
    creating: {
      description: 'Creating the application on behalf of the chosen owner',
      tags: ['busy'],
      invoke: {
        id: 'createOnBehalf',
        src: 'createOnBehalf',
        input: ({ context }) => {
          const owner = context.owners.find((candidate) => candidate.PublicId === context.ownerId);
          return { GlobalUserId: owner?.GlobalUserId ?? '', OwnerId: owner?.PublicId ?? '' };
        },
        onDone: [
          {
            guard: { type: 'isCreated', params: ({ event }) => ({ result: event.output.Result }) },
            target: 'created',
            actions: { type: 'assignUrl', params: ({ event }) => ({ url: event.output.Url }) },
          },
          { target: 'choosingOwner', actions: 'flagFailed' },
        ],
        onError: { target: 'choosingOwner', actions: 'flagFailed' },
      },
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
    'New application on behalf (app.createonbehalf): pick the owner, Continue creates the application and opens it in a new window, or shows the error.',
  spec: ['AM §2', 'AM §5', 'AM §7', 'AM §8'],
  actors: {
    loadOwners: { does: 'Loads the owners to choose from', done: 'owners loaded', failed: 'owners could not be loaded' },
    createOnBehalf: { does: 'Creates the application for the owner', done: 'server answered', failed: 'creation failed' },
  },
  guards: {
    hasOwner: 'an owner from the list is chosen',
    isCreated: 'the application was created',
  },
  events: {
    'owner.select': 'an owner chosen',
    'owner.confirm': 'Continue chosen',
    'dialog.close': 'the modal closed',
  },
} satisfies MachineLabels<typeof newApplicationOnBehalfMachine>;
