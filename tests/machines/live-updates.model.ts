import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import { liveUpdatesMachine, reconnectDelayMs } from '../../src/machines/live-updates.machine.ts';
import { defineMachineModel } from './machine-model.ts';

const changed = { kind: 'changed', ApplicationIDs: [1042] } as const;

export default defineMachineModel({
  name: 'live-updates',
  machine: liveUpdatesMachine.provide({ actors: { stream: fromCallback(() => () => {}) } }),
  input: { enabled: true },
  preconditions: 'A signed-in person holding a list claim',
  events: [
    { type: 'stream.opened' },
    { type: 'stream.position', id: '41' },
    { type: 'stream.message', id: '42', event: changed },
    { type: 'stream.dropped' },
    { type: 'stream.ended' },
    { type: 'stream.refused' },
    { type: 'session.ended' },
    { type: 'xstate.after.reconnectDelay.liveUpdates.reconnecting' },
  ],
  expectations: {
    states: {
      'streaming.connecting': (snapshot) => {
        expect(snapshot.hasTag('live')).toBe(false);
        expect(snapshot.hasTag('reconnecting')).toBe(false);
      },
      'streaming.live': (snapshot) => expect(snapshot.hasTag('live')).toBe(true),
      reconnecting: (snapshot) => {
        expect(snapshot.hasTag('reconnecting')).toBe(true);
        expect(snapshot.context.attempts).toBeGreaterThan(0);
      },
      offline: (snapshot) => {
        expect(snapshot.hasTag('live')).toBe(false);
        expect(snapshot.hasTag('reconnecting')).toBe(false);
      },
    },
    transitions: {
      'streaming.connecting + stream.opened': ({ after }) => {
        expect(after.matches({ streaming: 'live' })).toBe(true);
        expect(after.context.attempts).toBe(0);
      },
      'streaming + stream.position': ({ after }) => expect(after.context.lastEventId).toBe('41'),
      // Every event goes on to the list and the detail, and its id is where a reconnect resumes.
      'streaming + stream.message': ({ after, emitted }) => {
        expect(emitted).toEqual([{ type: 'live.event', event: changed }]);
        expect(after.context.lastEventId).toBe('42');
      },
      'streaming + stream.dropped': ({ before, after }) => {
        expect(after.matches('reconnecting')).toBe(true);
        expect(after.context.attempts).toBe(before.context.attempts + 1);
      },
      'streaming + stream.refused': ({ after }) => expect(after.matches('offline')).toBe(true),
      // A live stream the server ended (the token's expiry) opens again at once, from where it was.
      'streaming.live + stream.ended': ({ before, after, started }) => {
        expect(after.matches({ streaming: 'connecting' })).toBe(true);
        expect(after.hasTag('reconnecting')).toBe(false);
        expect(started).toEqual({ stream: { lastEventId: before.context.lastEventId, enabled: true } });
      },
      // One that ends before it was live waits like a drop.
      'streaming.connecting + stream.ended': ({ before, after }) => {
        expect(after.matches('reconnecting')).toBe(true);
        expect(after.context.attempts).toBe(before.context.attempts + 1);
      },
      // A new connection resumes from the last event id the stream sent.
      'reconnecting + after reconnectDelay': ({ before, after, started }) => {
        expect(after.matches({ streaming: 'connecting' })).toBe(true);
        expect(started).toEqual({ stream: { lastEventId: before.context.lastEventId, enabled: true } });
      },
      '(machine) + session.ended': ({ after }) => expect(after.matches('offline')).toBe(true),
    },
  },
});

/** The waits the header's "Reconnecting…" stands for, written out: 1 s, 2 s, 4 s ... at most 30 s. */
export const expectedReconnectDelays = () =>
  expect([1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
