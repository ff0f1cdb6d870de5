import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { pingMachine } from '../../src/machines/ping.machine.ts';
import type { Ping } from '../../src/schemas/account.schema.ts';
import { defineMachineModel } from './machine-model.ts';

export default defineMachineModel({
  name: 'ping',
  machine: pingMachine.provide({ actors: { ping: fromPromise<Ping>(() => new Promise(() => {})) } }),
  events: [
    { type: 'xstate.after.pingInterval.ping.waiting' },
    { type: 'xstate.done.actor.ping', output: { Success: true } },
    { type: 'xstate.error.actor.ping', error: new Error('network down') },
  ],
  expectations: {
    states: {
      waiting: (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      pinging: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
    },
    transitions: {
      // AM §9: GET /account/ping every 120000 ms while the list is mounted.
      'waiting + after pingInterval': ({ after, started }) => {
        expect(after.matches('pinging')).toBe(true);
        expect(Object.keys(started)).toEqual(['ping']);
      },
      'pinging + xstate.done.actor.ping': ({ after }) => expect(after.matches('waiting')).toBe(true),
      // A failed ping changes nothing: the HTTP wrapper already ends the session on a 401.
      'pinging + xstate.error.actor.ping': ({ after }) => expect(after.matches('waiting')).toBe(true),
    },
  },
});
