import { assign, emit, fromPromise, setup } from 'xstate';
import {
  actionTexts,
  requestEditRequireConfirmation,
  requestEditSuccess,
  type RequestEditResponse,
  type RequestViewResponse,
} from '../schemas/application-actions.schema.ts';
import { downloadReport, requestEdit, requestView } from '../services/application-actions.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface RequestEditInput {
  applicationGuid: string;
}

export interface RequestEditContext {
  applicationGuid: string;
  /** What the failed state says (AM §8 'An unknown error occurred.'); '' otherwise. */
  failure: string;
}

export type RequestEditEvent =
  | { type: 'edit.request' }
  | { type: 'edit.confirm' }
  | { type: 'dialog.close' }
  | { type: 'view.request' }
  | { type: 'report.download'; reportName: string }
  | { type: 'failure.dismiss' };

/**
 * What the hosting view does for the machine: open the form in a new window (AM §4), and refetch
 * the detail after an edit was granted (the server may have reset approvals) or a report was made
 * (its activity item).
 */
export type RequestEditEmitted = { type: 'window.open'; url: string } | { type: 'application.changed' };

const opensUrl = (answer: RequestEditResponse) => answer.Result === requestEditSuccess && answer.Url !== '';

/**
 * AM §2 View and Edit beside the Actions menu, and the menu's report items (AM §3 ReportItems, §7
 * GET /report): each asks the server for something to open, one at a time. Edit on a completed
 * application answers RequireConfirmation first; the Edit Application confirmation modal asks, and
 * the request is retried with the confirmation accepted (AM §4). The granted Url opens in a new
 * window and the detail is refetched; View's Url opens in a new window; a report is saved as a PDF.
 */
export const requestEditMachine = setup({
  types: typesOf<{
    context: RequestEditContext;
    events: RequestEditEvent;
    input: RequestEditInput;
    emitted: RequestEditEmitted;
    tags: 'busy';
  }>(),
  actors: {
    requestEdit: fromPromise<RequestEditResponse, { applicationGuid: string; confirmationAccepted: boolean }>(
      ({ input }) => requestEdit(input.applicationGuid, input.confirmationAccepted),
    ),
    requestView: fromPromise<RequestViewResponse, { applicationGuid: string }>(({ input }) =>
      requestView(input.applicationGuid),
    ),
    downloadReport: fromPromise<void, { applicationGuid: string; reportName: string }>(({ input }) =>
      downloadReport({ ApplicationGuid: input.applicationGuid, ReportName: input.reportName }),
    ),
  },
  guards: {
    opensUrl: (_, params: { answer: RequestEditResponse }) => opensUrl(params.answer),
    requiresConfirmation: (_, params: { answer: RequestEditResponse }) =>
      params.answer.Result === requestEditRequireConfirmation,
    hasUrl: (_, params: { answer: RequestViewResponse }) => params.answer.Url !== '',
  },
  actions: {
    openWindow: emit((_, params: { url: string }) => ({ type: 'window.open' as const, url: params.url })),
    notifyChanged: emit({ type: 'application.changed' as const }),
    assignFailure: assign({ failure: actionTexts.unknownError }),
    clearFailure: assign({ failure: '' }),
  },
}).createMachine({
  id: 'requestEdit',
  initial: 'idle',
  context: ({ input }) => ({ applicationGuid: input.applicationGuid, failure: '' }),
  states: {
    idle: {
      description: 'View, Edit and the report items can be used',
      on: {
        'edit.request': { target: 'requestingEdit' },
        'view.request': { target: 'requestingView' },
        'report.download': { target: 'downloadingReport' },
      },
    },
    requestingEdit: {
      description: 'Edit asks the server for an edit link; Edit shows progress',
      tags: ['busy'],
      invoke: {
        id: 'requestEdit',
        src: 'requestEdit',
        input: ({ context }) => ({ applicationGuid: context.applicationGuid, confirmationAccepted: false }),
        onDone: [
          {
            guard: { type: 'opensUrl', params: ({ event }) => ({ answer: event.output }) },
            target: 'idle',
            actions: [{ type: 'openWindow', params: ({ event }) => ({ url: event.output.Url }) }, 'notifyChanged'],
          },
          {
            guard: { type: 'requiresConfirmation', params: ({ event }) => ({ answer: event.output }) },
            target: 'confirmingEdit',
          },
          { target: 'failed', actions: 'assignFailure' },
        ],
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    confirmingEdit: {
      description:
        'The Edit Application confirmation modal: editing a completed application resets approval, so applicants must re-approve',
      on: {
        'edit.confirm': { target: 'requestingConfirmedEdit' },
        'dialog.close': { target: 'idle' },
      },
    },
    requestingConfirmedEdit: {
      description: 'The edit request again, with the confirmation accepted',
      tags: ['busy'],
      invoke: {
        id: 'requestEdit',
        src: 'requestEdit',
        input: ({ context }) => ({ applicationGuid: context.applicationGuid, confirmationAccepted: true }),
        onDone: [
          {
            guard: { type: 'opensUrl', params: ({ event }) => ({ answer: event.output }) },
            target: 'idle',
            actions: [{ type: 'openWindow', params: ({ event }) => ({ url: event.output.Url }) }, 'notifyChanged'],
          },
          { target: 'failed', actions: 'assignFailure' },
        ],
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    requestingView: {
      description: 'View asks the server for a read-only link; View shows progress',
      tags: ['busy'],
      invoke: {
        id: 'requestView',
        src: 'requestView',
        input: ({ context }) => ({ applicationGuid: context.applicationGuid }),
        onDone: [
          {
            guard: { type: 'hasUrl', params: ({ event }) => ({ answer: event.output }) },
            target: 'idle',
            actions: { type: 'openWindow', params: ({ event }) => ({ url: event.output.Url }) },
          },
          { target: 'failed', actions: 'assignFailure' },
        ],
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    downloadingReport: {
      description: 'A report item: the PDF downloads under the name the server gives',
      tags: ['busy'],
      invoke: {
        id: 'downloadReport',
        src: 'downloadReport',
        input: ({ context, event }) => ({
          applicationGuid: context.applicationGuid,
          reportName: event.type === 'report.download' ? event.reportName : '',
        }),
        // The server records each report it generates in the activity feed.
        onDone: { target: 'idle', actions: 'notifyChanged' },
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    failed: {
      description: "'An unknown error occurred.' beside the buttons; View, Edit and the reports can be tried again",
      exit: 'clearFailure',
      on: {
        'edit.request': { target: 'requestingEdit' },
        'view.request': { target: 'requestingView' },
        'report.download': { target: 'downloadingReport' },
        'failure.dismiss': { target: 'idle' },
      },
    },
  },
});

export const statechartLabels = {
  purpose: 'View, Edit and the report items of the detail toolbar: ask the server, then open or save what it gives',
  spec: ['AM §2', 'AM §3', 'AM §4', 'AM §6', 'AM §7'],
  actors: {
    requestEdit: { does: 'Asks the server for a link to edit the application', done: 'the server answered', failed: 'the request failed' },
    requestView: { does: 'Asks the server for a read-only link to the application', done: 'the server answered', failed: 'the request failed' },
    downloadReport: { does: 'Downloads the report PDF', done: 'the PDF was saved', failed: 'the download failed' },
  },
  guards: {
    opensUrl: 'the edit was granted with a link',
    requiresConfirmation: 'the server asks for confirmation first (a completed application)',
    hasUrl: 'the server gave a link',
  },
  events: {
    'edit.request': 'Edit pressed',
    'edit.confirm': 'Edit application pressed in the confirmation',
    'dialog.close': 'Cancel or Escape in the confirmation',
    'view.request': 'View pressed',
    'report.download': 'a report item chosen from Actions',
    'failure.dismiss': 'Dismiss pressed beside the error',
  },
} satisfies MachineLabels<typeof requestEditMachine>;
