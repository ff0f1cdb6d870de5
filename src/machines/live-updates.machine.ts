import { createActorContext } from '@xstate/react';
import { assign, emit, fromCallback, setup } from 'xstate';
import type { LiveEvent } from '../schemas/live-events.schema.ts';
import { openLiveEvents } from '../services/live-events.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface LiveUpdatesInput {
  /** Whether the person may listen at all (a list claim): without one the server answers 403. */
  enabled: boolean;
}

export interface LiveUpdatesContext {
  enabled: boolean;
  /** Drops since the stream was last live: the next wait doubles with each. */
  attempts: number;
  /** The last event id the stream sent: a new connection resumes from it (Last-Event-ID). */
  lastEventId: string | undefined;
}

export type LiveUpdatesEvent =
  | { type: 'stream.opened' }
  | { type: 'stream.position'; id: string }
  | { type: 'stream.message'; id: string | undefined; event: LiveEvent }
  | { type: 'stream.dropped' }
  | { type: 'stream.ended' }
  | { type: 'stream.refused' }
  | { type: 'session.ended' };

/** What the list and the detail hear (their pages subscribe and send it on to their machines). */
export type LiveUpdatesEmitted = { type: 'live.event'; event: LiveEvent };

/** The first wait after a drop; it doubles with each drop in a row up to the longest. */
export const firstReconnectDelayMs = 1_000;
export const longestReconnectDelayMs = 30_000;

/** The wait before connecting again after `attempts` drops in a row: 1 s, 2 s, 4 s ... 30 s. */
export const reconnectDelayMs = (attempts: number) => Math.min(firstReconnectDelayMs * 2 ** Math.max(attempts - 1, 0), longestReconnectDelayMs);

/**
 * The live event stream of one signed-in tab (docs/decisions/012-live-changes.md): connecting,
 * live, reconnecting with a growing wait after a drop (resuming from the last event id, so nothing
 * is lost), offline once the session has ended or the server refuses the stream. Every event is
 * emitted as `live.event`; the header shows the state ("Live" / "Reconnecting…").
 */
export const liveUpdatesMachine = setup({
  types: typesOf<{
    context: LiveUpdatesContext;
    events: LiveUpdatesEvent;
    input: LiveUpdatesInput;
    emitted: LiveUpdatesEmitted;
    tags: 'live' | 'reconnecting';
  }>(),
  actors: {
    stream: fromCallback<LiveUpdatesEvent, { lastEventId: string | undefined; enabled: boolean }>(({ input, sendBack }) => {
      // Without a list claim the server would answer 403: the same outcome, without the request.
      if (!input.enabled) {
        sendBack({ type: 'stream.refused' });
        return undefined;
      }
      return openLiveEvents(input.lastEventId, {
        opened: () => sendBack({ type: 'stream.opened' }),
        position: (id) => sendBack({ type: 'stream.position', id }),
        event: (id, event) => sendBack({ type: 'stream.message', id, event }),
        dropped: () => sendBack({ type: 'stream.dropped' }),
        ended: () => sendBack({ type: 'stream.ended' }),
        refused: () => sendBack({ type: 'stream.refused' }),
      });
    }),
  },
  actions: {
    assignPosition: assign((_, params: { id: string | undefined }) => (params.id === undefined ? {} : { lastEventId: params.id })),
    emitEvent: emit((_, params: { event: LiveEvent }) => ({ type: 'live.event' as const, event: params.event })),
    resetAttempts: assign({ attempts: 0 }),
    countAttempt: assign(({ context }) => ({ attempts: context.attempts + 1 })),
  },
  delays: {
    reconnectDelay: ({ context }) => reconnectDelayMs(context.attempts),
  },
}).createMachine({
  id: 'liveUpdates',
  initial: 'streaming',
  context: ({ input }) => ({ enabled: input.enabled, attempts: 0, lastEventId: undefined }),
  on: { 'session.ended': { target: '.offline' } },
  states: {
    streaming: {
      description: 'The event stream is open or being opened',
      initial: 'connecting',
      invoke: { id: 'stream', src: 'stream', input: ({ context }) => ({ lastEventId: context.lastEventId, enabled: context.enabled }) },
      on: {
        'stream.position': { actions: { type: 'assignPosition', params: ({ event }) => ({ id: event.id }) } },
        'stream.message': {
          actions: [
            { type: 'assignPosition', params: ({ event }) => ({ id: event.id }) },
            { type: 'emitEvent', params: ({ event }) => ({ event: event.event }) },
          ],
        },
        'stream.dropped': { target: 'reconnecting' },
        'stream.refused': { target: 'offline' },
      },
      states: {
        connecting: {
          description: 'Connecting to the event stream; the header shows nothing yet',
          on: {
            'stream.opened': { target: 'live', actions: 'resetAttempts' },
            // Ended before it was ever live: a failure like a drop, waited on (no tight loop).
            'stream.ended': { target: '#liveUpdates.reconnecting' },
          },
        },
        live: {
          description: "'Live' in the header: colleagues' changes appear without Refresh",
          tags: ['live'],
          // The server ends a live stream at the token's expiry: the session has renewed it, so the
          // stream opens again at once with the new one (no 'Reconnecting…'), from the last event id.
          on: { 'stream.ended': { target: '#liveUpdates.streaming', reenter: true } },
        },
      },
    },
    reconnecting: {
      description: "'Reconnecting…' in the header: the stream dropped; it connects again after a wait that doubles with each drop (1 s to 30 s) and resumes where it stopped",
      tags: ['reconnecting'],
      entry: 'countAttempt',
      after: { reconnectDelay: { target: 'streaming' } },
    },
    offline: {
      description: 'The session has ended or the server refused the stream: nothing shown, no more attempts',
    },
  },
});

export const LiveUpdatesContext = createActorContext(liveUpdatesMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    "Holds the tab's live event stream: connecting, live, reconnecting with a growing wait after a drop (resuming where it stopped), offline once the session has ended.",
  spec: ['Issue 42'],
  actors: {
    stream: { does: 'Reads the live event stream (GET /api/events; refused at once without a list claim)' },
  },
  delays: { reconnectDelay: 'the reconnect wait (1 s, doubling to 30 s)' },
  events: {
    'stream.opened': 'the server accepted the stream',
    'stream.position': 'the stream said where it stands',
    'stream.message': 'an event arrived',
    'stream.dropped': 'the connection dropped',
    'stream.ended': 'the server ended the stream (the token expired)',
    'stream.refused': 'the server refused the stream (401/403)',
    'session.ended': 'the session ended',
  },
} satisfies MachineLabels<typeof liveUpdatesMachine>;
