import { fromPromise } from 'xstate';
import { cancelApplicationsMachine } from '../../src/machines/cancel-applications.machine.ts';
import type { CancelApplicationsResponse } from '../../src/schemas/applications.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const applications = [
  { applicationGuid: '0b8f3f52-5d0e-4d7e-9a43-6f1f5d1c0a42', applicationId: 1042, accountName: 'Smith Family Trust' },
  { applicationGuid: '5c1d2e3f-0000-4000-8000-000000001043', applicationId: 1043, accountName: 'Jones Super Fund' },
];

export default defineMachineModel({
  name: 'cancel-applications',
  machine: cancelApplicationsMachine.provide({
    actors: {
      cancelApplications: fromPromise<CancelApplicationsResponse, { guids: string[] }>(() => new Promise(() => {})),
    },
  }),
  input: { applications },
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
});
