import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { cancelApplicationsMachine } from '../../src/machines/cancel-applications.machine.ts';
import type { CancelApplicationsResponse } from '../../src/schemas/applications.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const applications = [
  { applicationGuid: '0b8f3f52-5d0e-4d7e-9a43-6f1f5d1c0a42', applicationId: 1042, accountName: 'Smith Family Trust' },
  { applicationGuid: '5c1d2e3f-0000-4000-8000-000000001043', applicationId: 1043, accountName: 'Jones Super Fund' },
];

const guids = applications.map((application) => application.applicationGuid);

export default defineMachineModel({
  name: 'cancel-applications',
  machine: cancelApplicationsMachine.provide({
    actors: {
      cancelApplications: fromPromise<CancelApplicationsResponse, { guids: string[] }>(() => new Promise(() => {})),
    },
  }),
  input: { applications },
  preconditions: 'Two applications ticked in the list (1042 Smith Family Trust, 1043 Jones Super Fund), Cancel chosen',
  events: [
    {
      type: 'xstate.done.actor.cancelApplications',
      output: {
        Results: [
          { ApplicationGuid: applications[0]?.applicationGuid, Success: true },
          { ApplicationGuid: applications[1]?.applicationGuid, Success: false },
        ],
      },
    },
    { type: 'xstate.error.actor.cancelApplications', error: new Error('network down') },
  ],
  expectations: {
    states: {
      confirming: (snapshot) => expect(snapshot.context.outcomes).toEqual({}),
      cancelling: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.outcomes).toEqual({});
      },
      // AM §8: every application listed has its outcome, Cancelled or Error.
      finished: (snapshot) =>
        expect(Object.keys(snapshot.context.outcomes).sort()).toEqual(guids.toSorted()),
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'confirming + cancel.confirm': ({ started }) => expect(started).toEqual({ cancelApplications: { guids } }),
      'confirming + dialog.close': ({ after }) => expect(after.output).toEqual({ cancelledAny: false }),
      'cancelling + xstate.done.actor.cancelApplications': ({ after }) =>
        expect(after.context.outcomes).toEqual({ [guids[0] ?? '']: true, [guids[1] ?? '']: false }),
      // The request failed: nothing is known to be cancelled, so each shows Error.
      'cancelling + xstate.error.actor.cancelApplications': ({ after }) =>
        expect(Object.values(after.context.outcomes)).toEqual([false, false]),
      // The list refreshes only when at least one application was cancelled (AM §4).
      'finished + dialog.close': ({ before, after }) =>
        expect(after.output).toEqual({ cancelledAny: Object.values(before.context.outcomes).some(Boolean) }),
    },
  },
});
