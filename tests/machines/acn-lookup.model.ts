import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { acnLookupMachine } from '../../src/machines/acn-lookup.machine.ts';
import type { CompanyLookupResponse, GenerateReportResponse } from '../../src/schemas/verifications.schema.ts';
import { defineMachineModel } from './machine-model.ts';

/** SUV §5, written out here rather than read from the domain: three groups of three digits. */
const complete = /^[0-9]{3} [0-9]{3} [0-9]{3}$/;
const company = { companyNumber: '000250000', companyName: 'SOUTHERN CROSS LOGISTICS PTY LTD' };
const reportLink = '/entity-verification/api/v1/company/42/report';

export default defineMachineModel({
  name: 'acn-lookup',
  machine: acnLookupMachine.provide({
    actors: {
      verifyCompany: fromPromise<CompanyLookupResponse, { companyNumber: string }>(() => new Promise(() => {})),
      generateReport: fromPromise<GenerateReportResponse, CompanyLookupResponse>(() => new Promise(() => {})),
      downloadReport: fromPromise<void, { reportLink: string }>(() => new Promise(() => {})),
    },
  }),
  preconditions: 'The Company Verification modal just opened',
  contextKey: (snapshot) => ({ complete: complete.test(snapshot.context.acn) }),
  events: [
    // Letters dropped, more than nine digits cut: '000 250 000'.
    { type: 'acn.change', value: '000a2500001234' },
    { type: 'acn.change', value: '12 34' },
    { type: 'xstate.done.actor.verifyCompany', output: company },
    { type: 'xstate.error.actor.verifyCompany', error: new Error('404') },
    { type: 'xstate.done.actor.generateReport', output: { reportLink } },
    { type: 'xstate.error.actor.generateReport', error: new Error('500') },
    { type: 'xstate.done.actor.downloadReport', output: undefined },
    { type: 'xstate.error.actor.downloadReport', error: new Error('network') },
  ],
  expectations: {
    states: {
      entering: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.acn).toMatch(/^[0-9 ]{0,11}$/);
      },
      verifying: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.lookedUp).toMatch(complete);
      },
      found: (snapshot) => expect(snapshot.context.company).toEqual(company),
      notFound: (snapshot) => expect(snapshot.context.company).toBeUndefined(),
      generating: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      'generated.idle': (snapshot) => {
        expect(snapshot.context.reportLink).toBe(reportLink);
        expect(snapshot.hasTag('busy')).toBe(false);
      },
      'generated.downloading': (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      generateFailed: (snapshot) => expect(snapshot.context.reportLink).toBe(''),
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'entering + acn.change': ({ event, after }) =>
        expect(after.context.acn).toBe(event.value === '12 34' ? '123 4' : '000 250 000'),
      // Verify only for three groups of three; the spaces are removed before sending.
      'entering + acn.verify': ({ before, after, started }) => {
        if (complete.test(before.context.acn)) {
          expect(started).toEqual({ verifyCompany: { companyNumber: before.context.acn.replaceAll(' ', '') } });
        } else {
          expect(after.matches('entering')).toBe(true);
          expect(started).toEqual({});
        }
      },
      'entering + dialog.close': ({ after }) => expect(after.output).toEqual({ changed: false }),
      'verifying + xstate.done.actor.verifyCompany': ({ after }) => expect(after.matches('found')).toBe(true),
      // SUV §8: any non-ok answer is "not found".
      'verifying + xstate.error.actor.verifyCompany': ({ after }) => expect(after.matches('notFound')).toBe(true),
      'found + report.generate': ({ started }) => expect(started).toEqual({ generateReport: company }),
      'found + dialog.close': ({ after }) => expect(after.output).toEqual({ changed: false }),
      'notFound + lookup.retry': ({ before, started }) =>
        expect(started).toEqual({ verifyCompany: { companyNumber: before.context.lookedUp.replaceAll(' ', '') } }),
      'notFound + search.new': ({ after }) => {
        expect(after.context.acn).toBe('');
        expect(after.matches('entering')).toBe(true);
      },
      'notFound + dialog.close': ({ after }) => expect(after.output).toEqual({ changed: false }),
      'generating + xstate.done.actor.generateReport': ({ after }) => expect(after.context.changed).toBe(true),
      'generating + xstate.error.actor.generateReport': ({ after }) => {
        expect(after.matches('generateFailed')).toBe(true);
        expect(after.context.changed).toBe(false);
      },
      'generated.idle + report.download': ({ started }) => expect(started).toEqual({ downloadReport: { reportLink } }),
      'generated.downloading + xstate.done.actor.downloadReport': ({ after }) => expect(after.matches({ generated: 'idle' })).toBe(true),
      // SUV §8: a download failure is swallowed.
      'generated.downloading + xstate.error.actor.downloadReport': ({ after }) => expect(after.matches({ generated: 'idle' })).toBe(true),
      'generated + search.new': ({ after }) => {
        expect(after.context.acn).toBe('');
        expect(after.context.reportLink).toBe('');
      },
      // A report was generated: the list refreshes.
      'generated + dialog.close': ({ after }) => expect(after.output).toEqual({ changed: true }),
      'generateFailed + search.new': ({ after }) => expect(after.matches('entering')).toBe(true),
      'generateFailed + dialog.close': ({ after }) => expect(after.output).toEqual({ changed: false }),
    },
  },
});
