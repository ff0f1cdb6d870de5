import { createActorContext } from '@xstate/react';
import { fromPromise, setup } from 'xstate';
import { ping } from '../services/account.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

/**
 * AM §4/§9: while the application list is mounted, GET /account/ping every 120000 ms keeps the
 * server session alive. A failed ping changes nothing here: a 401 already ends the session through
 * the HTTP wrapper, and other failures are reported there.
 */
export const pingMachine = setup({
  types: typesOf<{ tags: 'busy' }>(),
  actors: {
    ping: fromPromise(() => ping()),
  },
  delays: {
    pingInterval: 120_000,
  },
}).createMachine({
  id: 'ping',
  initial: 'waiting',
  states: {
    waiting: {
      description: 'Waiting for the next ping',
      after: { pingInterval: 'pinging' },
    },
    pinging: {
      description: 'Pinging the account API',
      tags: ['busy'],
      invoke: {
        id: 'ping',
        src: 'ping',
        onDone: { target: 'waiting' },
        onError: { target: 'waiting' },
      },
    },
  },
});

/** The list page provides this around itself so the ping runs exactly while it is mounted. */
export const PingContext = createActorContext(pingMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'Keeps the server session alive while the application list is open by pinging the account API every 2 minutes.',
  spec: ['AM §4', 'AM §9'],
  actors: {
    ping: { does: 'Pings the account API (GET /account/ping)', done: 'ping answered', failed: 'ping failed' },
  },
  delays: { pingInterval: 'the ping interval' },
} satisfies MachineLabels<typeof pingMachine>;
