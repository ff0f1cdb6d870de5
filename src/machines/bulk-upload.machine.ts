import { assign, emit, fromCallback, setup } from 'xstate';
import { isBulkUploadFileName, uploadingPercent } from '../domain/bulk-upload.ts';
import { bulkUploadResponseTypes, type BulkUploadResponse } from '../schemas/bulk-upload.schema.ts';
import {
  downloadBulkUploadErrorFile,
  downloadBulkUploadTemplate,
  uploadApplications,
} from '../services/bulk-upload.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface BulkUploadContext {
  file: File | undefined;
  fileName: string;
  /** AM §4: 0..95 while uploading, 100 once the response has arrived. */
  percent: number;
  /** The server's Message (shown under the other-errors texts; the count on success). */
  message: string;
  errorFileId: string | undefined;
  /** The last template or error-file download failed. */
  downloadFailed: boolean;
}

export type BulkUploadEvent =
  | { type: 'file.drop'; file: File }
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'upload.answered'; response: BulkUploadResponse }
  | { type: 'upload.failed' }
  | { type: 'template.download' }
  | { type: 'errorFile.download' }
  | { type: 'upload.again' }
  | { type: 'download.failed' }
  | { type: 'dialog.close' };

export type BulkUploadEmitted = { type: 'applications.uploaded' };

/**
 * AM §2/§4/§5/§8 Upload Applications: a file is dropped (or picked), refused unless .xlsx or .xls,
 * uploaded with progress capped at 95 %, then 100 % with success (the list refreshes), invalid
 * data (the error workbook to download) or another error. Another file can follow any result.
 */
export const bulkUploadMachine = setup({
  types: typesOf<{
    context: BulkUploadContext;
    events: BulkUploadEvent;
    emitted: BulkUploadEmitted;
    tags: 'busy';
  }>(),
  actors: {
    uploadFile: fromCallback<BulkUploadEvent, { file: File }>(({ input, sendBack }) => {
      uploadApplications(input.file, (loaded, total) =>
        sendBack({ type: 'upload.progress', loaded, total }),
      ).then(
        (response) => sendBack({ type: 'upload.answered', response }),
        () => sendBack({ type: 'upload.failed' }),
      );
    }),
    downloadTemplate: fromCallback<BulkUploadEvent>(({ sendBack }) => {
      downloadBulkUploadTemplate().catch(() => sendBack({ type: 'download.failed' }));
    }),
    downloadErrorFile: fromCallback<BulkUploadEvent, { id: string }>(({ input, sendBack }) => {
      downloadBulkUploadErrorFile(input.id).catch(() => sendBack({ type: 'download.failed' }));
    }),
  },
  guards: {
    isAcceptedFile: (_, params: { fileName: string }) => isBulkUploadFileName(params.fileName),
    isSuccess: (_, params: { response: BulkUploadResponse }) =>
      params.response.Success && params.response.ResponseType === bulkUploadResponseTypes.success,
    isInvalidData: (_, params: { response: BulkUploadResponse }) =>
      params.response.ResponseType === bulkUploadResponseTypes.invalidFileData &&
      params.response.TemporaryErrorFileId !== null,
  },
  actions: {
    assignFile: assign((_, params: { file: File }) => ({
      file: params.file,
      fileName: params.file.name,
      percent: 0,
      message: '',
      errorFileId: undefined,
    })),
    assignProgress: assign((_, params: { loaded: number; total: number }) => ({
      percent: uploadingPercent(params.loaded, params.total),
    })),
    assignAnswer: assign((_, params: { response: BulkUploadResponse }) => ({
      percent: 100,
      message: params.response.Message,
      errorFileId: params.response.TemporaryErrorFileId ?? undefined,
    })),
    assignFailure: assign({ percent: 100, message: '' }),
    /** The file is not kept once it has been sent. */
    forgetFile: assign({ file: undefined }),
    reset: assign({
      file: undefined,
      fileName: '',
      percent: 0,
      message: '',
      errorFileId: undefined,
      downloadFailed: false,
    }),
    startTemplateDownload: assign(({ spawn }) => {
      spawn('downloadTemplate', { id: 'download' });
      return { downloadFailed: false };
    }),
    startErrorFileDownload: assign(({ context, spawn }) => {
      spawn('downloadErrorFile', { id: 'download', input: { id: context.errorFileId ?? '' } });
      return { downloadFailed: false };
    }),
    markDownloadFailed: assign({ downloadFailed: true }),
    notifyUploaded: emit({ type: 'applications.uploaded' as const }),
  },
}).createMachine({
  id: 'bulkUpload',
  initial: 'idle',
  context: {
    file: undefined,
    fileName: '',
    percent: 0,
    message: '',
    errorFileId: undefined,
    downloadFailed: false,
  },
  on: {
    'download.failed': { actions: 'markDownloadFailed' },
  },
  states: {
    idle: {
      description: 'The dropzone (drop a file or choose one) and the template download link',
      on: {
        'file.drop': {
          target: 'checkingType',
          actions: { type: 'assignFile', params: ({ event }) => ({ file: event.file }) },
        },
        'template.download': { actions: 'startTemplateDownload' },
        'dialog.close': { target: 'closed' },
      },
    },
    checkingType: {
      description: 'Only .xlsx and .xls go on; anything else is refused before any request',
      always: [
        {
          guard: { type: 'isAcceptedFile', params: ({ context }) => ({ fileName: context.fileName }) },
          target: 'uploading',
        },
        { target: 'wrongType' },
      ],
    },
    wrongType: {
      description: 'Refused before sending: only .xlsx and .xls; another file can be dropped',
      on: {
        'file.drop': {
          target: 'checkingType',
          actions: { type: 'assignFile', params: ({ event }) => ({ file: event.file }) },
        },
        'template.download': { actions: 'startTemplateDownload' },
        'dialog.close': { target: 'closed' },
      },
    },
    uploading: {
      description: 'Uploading: the progress bar, capped at 95 % until the response arrives',
      tags: ['busy'],
      exit: 'forgetFile',
      invoke: {
        id: 'uploadFile',
        src: 'uploadFile',
        input: ({ context }) => ({ file: context.file ?? new File([], context.fileName) }),
      },
      on: {
        'upload.progress': {
          actions: {
            type: 'assignProgress',
            params: ({ event }) => ({ loaded: event.loaded, total: event.total }),
          },
        },
        'upload.answered': [
          {
            guard: { type: 'isSuccess', params: ({ event }) => ({ response: event.response }) },
            target: 'succeeded',
            actions: [
              { type: 'assignAnswer', params: ({ event }) => ({ response: event.response }) },
              'notifyUploaded',
            ],
          },
          {
            guard: { type: 'isInvalidData', params: ({ event }) => ({ response: event.response }) },
            target: 'invalidData',
            actions: { type: 'assignAnswer', params: ({ event }) => ({ response: event.response }) },
          },
          {
            target: 'otherError',
            actions: { type: 'assignAnswer', params: ({ event }) => ({ response: event.response }) },
          },
        ],
        'upload.failed': { target: 'otherError', actions: 'assignFailure' },
      },
    },
    succeeded: {
      description: '100 %: the two success texts; the list has refreshed',
      on: { 'upload.again': { target: 'idle', actions: 'reset' }, 'dialog.close': { target: 'closed' } },
    },
    invalidData: {
      description: "100 %: the issues texts and 'Download Template & Review Issues'; nothing was imported",
      on: {
        'errorFile.download': { actions: 'startErrorFileDownload' },
        'upload.again': { target: 'idle', actions: 'reset' },
        'dialog.close': { target: 'closed' },
      },
    },
    otherError: {
      description: "100 %: the two 'other errors' texts and the server's Message",
      on: { 'upload.again': { target: 'idle', actions: 'reset' }, 'dialog.close': { target: 'closed' } },
    },
    closed: { type: 'final' },
  },
});

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'Upload Applications: takes an .xlsx or .xls file, uploads it with progress and shows success, the error workbook for invalid data, or another error.',
  spec: ['AM §2', 'AM §4', 'AM §5', 'AM §8'],
  actors: {
    uploadFile: { does: 'Uploads the file, reporting progress' },
    downloadTemplate: { does: 'Downloads the template workbook' },
    downloadErrorFile: { does: 'Downloads the error workbook' },
  },
  guards: {
    isAcceptedFile: 'the file is .xlsx or .xls',
    isSuccess: 'the server accepted every application',
    isInvalidData: 'the server found invalid data and made an error workbook',
  },
  events: {
    'file.drop': 'a file dropped or picked',
    'upload.progress': 'upload progress reported',
    'upload.answered': 'the server answered',
    'upload.failed': 'the upload failed',
    'template.download': 'Download template chosen',
    'errorFile.download': 'Download error file chosen',
    'upload.again': 'Upload another file chosen',
    'download.failed': 'a download failed',
    'dialog.close': 'the dialog closed',
  },
} satisfies MachineLabels<typeof bulkUploadMachine>;
