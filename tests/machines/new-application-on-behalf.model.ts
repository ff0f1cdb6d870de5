import { expect } from 'vitest';
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
  expectations: {
    states: {
      loadingOwners: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.owners).toEqual([]);
      },
      choosingOwner: (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      creating: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.ownerId).toBe(owner.PublicId);
      },
      created: (snapshot) => expect(snapshot.output).toEqual({ url: 'https://forms.demo.test/a/1' }),
      closed: (snapshot) => expect(snapshot.output).toEqual({ url: undefined }),
    },
    transitions: {
      'loadingOwners + xstate.done.actor.loadOwners': ({ after }) => {
        expect(after.context.owners).toEqual([owner]);
        expect(after.context.fieldError).toBeUndefined();
      },
      // AM §8: the on-behalf field shows ERROR when the owners cannot load.
      'loadingOwners + xstate.error.actor.loadOwners': ({ after }) => expect(after.context.fieldError).toBe('ERROR'),
      'loadingOwners + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'choosingOwner + owner.select': ({ after }) => {
        expect(after.context.ownerId).toBe(owner.PublicId);
        expect(after.context.fieldError).toBeUndefined();
      },
      // AM §5: Continue without an owner of the list shows 'Please select an owner.'.
      'choosingOwner + owner.confirm': ({ before, after, started }) => {
        const known = before.context.owners.some((candidate: typeof owner) => candidate.PublicId === before.context.ownerId);
        if (known) expect(started).toEqual({ createOnBehalf: { GlobalUserId: owner.GlobalUserId, OwnerId: owner.PublicId } });
        else expect(after.context.fieldError).toBe('Please select an owner.');
        expect(after.matches('creating')).toBe(known);
      },
      'choosingOwner + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'creating + xstate.done.actor.createOnBehalf': ({ event, after }) => {
        const created = event.output && typeof event.output === 'object' && 'Result' in event.output && event.output.Result === 'Success';
        expect(after.matches(created ? 'created' : 'choosingOwner')).toBe(true);
        if (!created) expect(after.context.fieldError).toBe('ERROR');
      },
      'creating + xstate.error.actor.createOnBehalf': ({ after }) => expect(after.context.fieldError).toBe('ERROR'),
    },
  },
});
