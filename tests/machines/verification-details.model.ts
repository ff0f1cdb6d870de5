import { expect } from 'vitest';
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

/** A company record: its report downloads through the company service (SUV §7). */
const companyDetail: VerificationDetail = { ...detail, applicationId: 'C8', applicantName: 'BLUE GUM ORCHARDS LIMITED', requestType: 'Company', reportLink: '/c', reportName: 'ASIC-extract-000500005-C8.pdf' };

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
  contextKey: (snapshot) => snapshot.context.detail?.requestType,
  events: [
    { type: 'xstate.done.actor.loadDetail', output: detail },
    { type: 'xstate.done.actor.loadDetail', output: companyDetail },
    { type: 'xstate.error.actor.loadDetail', error: new Error('404') },
    { type: 'xstate.done.actor.downloadReport', output: undefined },
    { type: 'xstate.error.actor.downloadReport', error: new Error('network') },
  ],
  expectations: {
    states: {
      // SUV §2: 'Loading Verification Details' until the record answers, asked for by the address's number.
      loading: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.detail).toBeUndefined();
        expect(snapshot.context.id).toBe('7');
      },
      'loaded.idle': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect([detail, companyDetail]).toContainEqual(snapshot.context.detail);
      },
      'loaded.downloading': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.detail).toBeDefined();
      },
      // SUV §8: 'Failed to load verification details', no record and nothing running.
      failed: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.detail).toBeUndefined();
      },
    },
    transitions: {
      'loading + xstate.done.actor.loadDetail': ({ event, after }) => {
        expect(after.matches({ loaded: 'idle' })).toBe(true);
        expect(after.context.detail).toEqual(event.output);
      },
      'loading + xstate.error.actor.loadDetail': ({ after }) => expect(after.matches('failed')).toBe(true),
      // The record's own report, through the service its type belongs to.
      'loaded.idle + report.download': ({ before, started }) =>
        expect(started).toEqual({
          downloadReport: before.context.detail === companyDetail ? { reportLink: '/c', company: true } : { reportLink: '/r', company: false },
        }),
      'loaded.downloading + xstate.done.actor.downloadReport': ({ before, after }) => {
        expect(after.matches({ loaded: 'idle' })).toBe(true);
        expect(after.context.detail).toBe(before.context.detail);
      },
      // SUV §8: a download failure is swallowed: the page stays as it was.
      'loaded.downloading + xstate.error.actor.downloadReport': ({ before, after }) => {
        expect(after.matches({ loaded: 'idle' })).toBe(true);
        expect(after.context.detail).toBe(before.context.detail);
      },
    },
  },
});
