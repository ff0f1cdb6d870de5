import { fromPromise } from 'xstate';
import { newApplicationOnBehalfMachine } from '../../src/machines/new-application-on-behalf.machine.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
const owner = {
  PublicId: '9d7c1c9e-4a8f-4f0e-9a4b-2f6f3c1d0001',
  DisplayName: 'Olivia Owner',
  GlobalUserId: '9d7c1c9e-4a8f-4f0e-9a4b-2f6f3c1d0002',
};

/** Whether an owner is picked is part of the vertex: Continue's guard reads it. */
export default defineMachineModel({
  name: 'new-application-on-behalf',
  machine: newApplicationOnBehalfMachine.provide({ actors: { loadOwners: never(), createOnBehalf: never() } }),
  contextKey: (snapshot) => ({ picked: snapshot.context.ownerId !== undefined }),
  events: [
    { type: 'xstate.done.actor.loadOwners', output: [owner] },
    { type: 'xstate.error.actor.loadOwners', error: new Error('network down') },
    { type: 'owner.select', ownerId: owner.PublicId },
    { type: 'xstate.done.actor.createOnBehalf', output: { Result: 'Success', Url: 'https://forms.demo.test/a/1' } },
    { type: 'xstate.done.actor.createOnBehalf', output: { Result: 'OwnerNotFound', Url: '' } },
    { type: 'xstate.error.actor.createOnBehalf', error: new Error('network down') },
  ],
});
