import { fromPromise } from 'xstate';
import { verificationDetailsMachine } from '../../src/machines/verification-details.machine.ts';
import type { VerificationDetail } from '../../src/schemas/verifications.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const detail: VerificationDetail = {
  applicationId: 'V7',
  applicantName: 'Ava Lee',
  applicantMobileNumber: '',
  requestStatus: 'Complete',
  requester: 'Avery Admin',
  requestDateUtc: '2026-01-01T00:00:00.000Z',
  responseDateUtc: '2026-01-01T00:01:00.000Z',
  requestType: 'IndividualVerification',
  referenceNumber: '',
  responseResult: 'success',
  reportLink: '/r',
  reportName: 'verification-report-V7.pdf',
};

export default defineMachineModel({
  name: 'verification-details',
  machine: verificationDetailsMachine.provide({
    actors: {
      loadDetail: fromPromise<VerificationDetail, { id: string }>(() => new Promise(() => {})),
      downloadReport: fromPromise<void, { reportLink: string; company: boolean }>(() => new Promise(() => {})),
    },
  }),
  input: { id: '7' },
  preconditions: '/verifications/details/V7 opened',
  events: [
    { type: 'xstate.done.actor.loadDetail', output: detail },
    { type: 'xstate.error.actor.loadDetail', error: new Error('404') },
    { type: 'xstate.done.actor.downloadReport', output: undefined },
    { type: 'xstate.error.actor.downloadReport', error: new Error('network') },
  ],
});
