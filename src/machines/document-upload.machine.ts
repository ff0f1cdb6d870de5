import { assign, fromCallback, sendParent, setup } from 'xstate';
import { isAcceptedDocument } from '../domain/application-detail.ts';
import { invalidFileTypeMessage, type UploadDocumentsResponse } from '../schemas/application-detail.schema.ts';
import { uploadDocuments } from '../services/application-detail.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface DocumentUploadInput {
  applicationId: string;
  file: File;
  /** AM §3 System information AcceptedDocumentUploadExtensions; empty while unknown (the server still checks). */
  acceptedExtensions: readonly string[];
}

export interface DocumentUploadContext {
  applicationId: string;
  file: File;
  fileName: string;
  acceptedExtensions: readonly string[];
  /** Why the file was refused or failed: 'Invalid file type', or the server's Message (AM §8). */
  message: string | undefined;
  /** Bytes sent of the request's total while uploading (0 of 0 until the first report). */
  sent: number;
  total: number;
}

/**
 * The detail sends `upload.start` once it holds the file's actor; the upload actor reports
 * `upload.progress`, then `upload.answered` (the server's answer) or `upload.failed` (no answer).
 */
export type DocumentUploadEvent =
  | { type: 'upload.start' }
  | { type: 'upload.retry' }
  | { type: 'upload.progress'; sent: number; total: number }
  | { type: 'upload.answered'; response: UploadDocumentsResponse }
  | { type: 'upload.failed' };

/** When the upload fails without the server saying why (network, 5xx). */
export const uploadFailedText = 'The file could not be uploaded. Please try again.';

/** The server's words for this file: its own Message, else the answer's, else the generic text. */
function failureMessage(response: UploadDocumentsResponse): string {
  return response.UploadedDocuments[0]?.Message || response.Message || uploadFailedText;
}

const isStored = (response: UploadDocumentsResponse): boolean =>
  response.ErrorNo === 0 && response.UploadedDocuments[0]?.Success === true;

/**
 * One file of a document upload (AM §4 "Document upload file: uploading, failed", §5, §8). A file
 * whose extension is not accepted is refused before anything is sent; a stored file asks the
 * detail to refetch (its Documents card and activity feed change).
 */
export const documentUploadMachine = setup({
  types: typesOf<{
    context: DocumentUploadContext;
    events: DocumentUploadEvent;
    input: DocumentUploadInput;
    tags: 'busy';
  }>(),
  actors: {
    // Progress and the answer come back as events; leaving `uploading` aborts the request.
    uploadDocument: fromCallback<DocumentUploadEvent, { applicationId: string; file: File }>(({ input, sendBack }) => {
      const abort = new AbortController();
      uploadDocuments(input.applicationId, [input.file], (sent, total) => sendBack({ type: 'upload.progress', sent, total }), abort.signal).then(
        (response) => sendBack({ type: 'upload.answered', response }),
        () => {
          if (!abort.signal.aborted) sendBack({ type: 'upload.failed' });
        },
      );
      return () => abort.abort();
    }),
  },
  guards: {
    isAcceptedType: ({ context }) =>
      context.acceptedExtensions.length === 0 || isAcceptedDocument(context.fileName, context.acceptedExtensions),
    isStored: (_, params: { response: UploadDocumentsResponse }) => isStored(params.response),
  },
  actions: {
    assignRefusal: assign({ message: invalidFileTypeMessage }),
    assignFailure: assign((_, params: { message: string }) => ({ message: params.message })),
    resetUpload: assign({ message: undefined, sent: 0, total: 0 }),
    assignProgress: assign((_, params: { sent: number; total: number }) => ({ sent: params.sent, total: params.total })),
    requestRefetch: sendParent({ type: 'detail.refetch' }),
  },
}).createMachine({
  id: 'documentUpload',
  initial: 'queued',
  context: ({ input }) => ({
    applicationId: input.applicationId,
    file: input.file,
    fileName: input.file.name,
    acceptedExtensions: input.acceptedExtensions,
    message: undefined,
    sent: 0,
    total: 0,
  }),
  states: {
    queued: {
      description: 'The file waits for the detail to start it; its extension is checked before anything is sent',
      on: {
        'upload.start': [{ guard: 'isAcceptedType', target: 'uploading' }, { target: 'refused', actions: 'assignRefusal' }],
      },
    },
    refused: {
      description: "'Invalid file type': the extension is not accepted, nothing was sent",
      type: 'final',
    },
    uploading: {
      description: 'The file is being sent: its row shows how much has gone',
      tags: ['busy'],
      entry: 'resetUpload',
      invoke: {
        id: 'uploadDocument',
        src: 'uploadDocument',
        input: ({ context }) => ({ applicationId: context.applicationId, file: context.file }),
      },
      on: {
        'upload.progress': {
          actions: { type: 'assignProgress', params: ({ event }) => ({ sent: event.sent, total: event.total }) },
        },
        'upload.answered': [
          {
            guard: { type: 'isStored', params: ({ event }) => ({ response: event.response }) },
            target: 'done',
            actions: 'requestRefetch',
          },
          {
            target: 'failed',
            actions: { type: 'assignFailure', params: ({ event }) => ({ message: failureMessage(event.response) }) },
          },
        ],
        'upload.failed': {
          target: 'interrupted',
          actions: { type: 'assignFailure', params: { message: uploadFailedText } },
        },
      },
    },
    failed: {
      description: "The server's Message for this file (refused content, size): sending it again would not help",
      type: 'final',
    },
    interrupted: {
      description: 'No answer came (network, time-out, server error): the file can be sent again with Retry',
      on: { 'upload.retry': { target: 'uploading' } },
    },
    done: {
      description: 'Stored: the file is in the Documents card once the detail has refetched',
      type: 'final',
    },
  },
});

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'One file of a document upload: refused if its type is not accepted, else uploaded with progress; a stored file refreshes the detail.',
  spec: ['AM §4', 'AM §5', 'AM §8'],
  actors: {
    uploadDocument: { does: 'Uploads the file, reporting progress' },
  },
  guards: {
    isAcceptedType: 'the file type is accepted',
    isStored: 'the server stored the file',
  },
  events: {
    'upload.start': 'the upload began',
    'upload.retry': 'Retry chosen',
    'upload.progress': 'upload progress reported',
    'upload.answered': 'the server answered',
    'upload.failed': 'the upload failed (no answer)',
  },
} satisfies MachineLabels<typeof documentUploadMachine>;
