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
});
