import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { requestEditMachine } from '../../src/machines/request-edit.machine.ts';
import type { RequestEditResponse, RequestViewResponse } from '../../src/schemas/application-actions.schema.ts';
import { defineMachineModel, type SampleEvent } from './machine-model.ts';

const applicationGuid = '0b8f3f52-5d0e-4d7e-9a43-6f1f5d1c0a42';
const editUrl = 'https://forms.demo.test/edit/0b8f3f52';
const viewUrl = 'https://forms.demo.test/view/0b8f3f52';
const unknownError = 'An unknown error occurred.';

const never = <T, I>() => fromPromise<T, I>(() => new Promise(() => {}));
const isEditAnswer = (value: unknown): value is RequestEditResponse =>
  typeof value === 'object' && value !== null && 'Result' in value && 'Url' in value;
const answerOf = (event: SampleEvent): RequestEditResponse => {
  const output: unknown = event.output;
  if (!isEditAnswer(output)) throw new Error('sample output is not a request-edit answer');
  return output;
};

/** AM §4: an edit granted opens its Url in a new window and refetches the detail (approvals may have been reset). */
const granted = (emitted: unknown[], url: string) =>
  expect(emitted).toEqual([{ type: 'window.open', url }, { type: 'application.changed' }]);
const failedQuietly = (after: { context: { failure: string } }, emitted: unknown[]) => {
  expect(after.context.failure).toBe(unknownError);
  expect(emitted).toEqual([]);
};

export default defineMachineModel({
  name: 'request-edit',
  machine: requestEditMachine.provide({
    actors: {
      requestEdit: never<RequestEditResponse, { applicationGuid: string; confirmationAccepted: boolean }>(),
      requestView: never<RequestViewResponse, { applicationGuid: string }>(),
      downloadReport: never<void, { applicationGuid: string; reportName: string }>(),
    },
  }),
  input: { applicationGuid },
  events: [
    { type: 'report.download', reportName: 'FinalReport' },
    { type: 'xstate.done.actor.requestEdit', output: { Result: 'Success', Url: editUrl } },
    { type: 'xstate.done.actor.requestEdit', output: { Result: 'RequireConfirmation', Url: '' } },
    { type: 'xstate.done.actor.requestEdit', output: { Result: 'Error', Url: '' } },
    // A Success without a Url has nothing to open.
    { type: 'xstate.done.actor.requestEdit', output: { Result: 'Success', Url: '' } },
    { type: 'xstate.error.actor.requestEdit', error: new Error('network down') },
    { type: 'xstate.done.actor.requestView', output: { Url: viewUrl } },
    { type: 'xstate.done.actor.requestView', output: { Url: '' } },
    { type: 'xstate.error.actor.requestView', error: new Error('network down') },
    { type: 'xstate.done.actor.downloadReport', output: undefined },
    { type: 'xstate.error.actor.downloadReport', error: new Error('404') },
  ],
  expectations: {
    states: {
      idle: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.failure).toBe('');
      },
      requestingEdit: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      // The modal is open; nothing is in flight.
      confirmingEdit: (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      requestingConfirmedEdit: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      requestingView: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      downloadingReport: (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      failed: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.failure).toBe(unknownError);
      },
    },
    transitions: {
      // The first request never claims the confirmation.
      'idle + edit.request': ({ started }) =>
        expect(started).toEqual({ requestEdit: { applicationGuid, confirmationAccepted: false } }),
      'idle + view.request': ({ started }) => expect(started).toEqual({ requestView: { applicationGuid } }),
      'idle + report.download': ({ started }) =>
        expect(started).toEqual({ downloadReport: { applicationGuid, reportName: 'FinalReport' } }),
      'requestingEdit + xstate.done.actor.requestEdit': ({ event, after, emitted }) => {
        const answer = answerOf(event);
        if (answer.Result === 'Success' && answer.Url !== '') {
          expect(after.matches('idle')).toBe(true);
          granted(emitted, answer.Url);
        } else if (answer.Result === 'RequireConfirmation') {
          // AM §4: the confirmation modal first; nothing opens yet.
          expect(after.matches('confirmingEdit')).toBe(true);
          expect(emitted).toEqual([]);
        } else failedQuietly(after, emitted);
      },
      'requestingEdit + xstate.error.actor.requestEdit': ({ after, emitted }) => failedQuietly(after, emitted),
      // AM §4: retried with the confirmation accepted.
      'confirmingEdit + edit.confirm': ({ started }) =>
        expect(started).toEqual({ requestEdit: { applicationGuid, confirmationAccepted: true } }),
      'confirmingEdit + dialog.close': ({ after, emitted, started }) => {
        expect(after.matches('idle')).toBe(true);
        expect(emitted).toEqual([]);
        expect(started).toEqual({});
      },
      // A second RequireConfirmation after confirming is a failure, never a loop of modals.
      'requestingConfirmedEdit + xstate.done.actor.requestEdit': ({ event, after, emitted }) => {
        const answer = answerOf(event);
        if (answer.Result === 'Success' && answer.Url !== '') granted(emitted, answer.Url);
        else failedQuietly(after, emitted);
      },
      'requestingConfirmedEdit + xstate.error.actor.requestEdit': ({ after, emitted }) => failedQuietly(after, emitted),
      // AM §4: request view opens its Url in a new window; nothing changed, so no refetch.
      'requestingView + xstate.done.actor.requestView': ({ event, after, emitted }) => {
        const url = typeof event.output === 'object' && event.output !== null && 'Url' in event.output ? event.output.Url : '';
        if (url !== '') expect(emitted).toEqual([{ type: 'window.open', url }]);
        else failedQuietly(after, emitted);
      },
      'requestingView + xstate.error.actor.requestView': ({ after, emitted }) => failedQuietly(after, emitted),
      // The report is in the activity feed: the detail refetches.
      'downloadingReport + xstate.done.actor.downloadReport': ({ after, emitted }) => {
        expect(after.matches('idle')).toBe(true);
        expect(emitted).toEqual([{ type: 'application.changed' }]);
      },
      'downloadingReport + xstate.error.actor.downloadReport': ({ after, emitted }) => failedQuietly(after, emitted),
      // Trying again clears the failure.
      'failed + edit.request': ({ after, started }) => {
        expect(after.context.failure).toBe('');
        expect(started).toEqual({ requestEdit: { applicationGuid, confirmationAccepted: false } });
      },
      'failed + view.request': ({ after, started }) => {
        expect(after.context.failure).toBe('');
        expect(started).toEqual({ requestView: { applicationGuid } });
      },
      'failed + report.download': ({ after, started }) => {
        expect(after.context.failure).toBe('');
        expect(started).toEqual({ downloadReport: { applicationGuid, reportName: 'FinalReport' } });
      },
      'failed + failure.dismiss': ({ after }) => expect(after.context.failure).toBe(''),
    },
  },
});
