import { expect } from 'vitest';
import { fromCallback } from 'xstate';
import type { BulkUploadEvent } from '../../src/machines/bulk-upload.machine.ts';
import { bulkUploadMachine } from '../../src/machines/bulk-upload.machine.ts';
import { defineMachineModel } from './machine-model.ts';

// The graph tells sample events apart by their JSON, and a File's JSON is {}: each says its name.
const named = (file: File) => Object.assign(file, { toJSON: () => ({ name: file.name }) });
const workbook = named(new File(['xlsx bytes'], 'applications.xlsx'));
const csv = named(new File(['a,b'], 'applications.csv'));
const answer = (ResponseType: string, Message: string, TemporaryErrorFileId: string | null = null) => ({
  Success: ResponseType === 'Success',
  Message,
  ResponseType,
  TemporaryErrorFileId,
});
const errorFileId = '7d1f2c4e-0000-4000-8000-00000000e001';

const inertUpload = fromCallback<BulkUploadEvent, { file: File }>(() => {});
const inertTemplate = fromCallback<BulkUploadEvent>(() => {});
const inertErrorFile = fromCallback<BulkUploadEvent, { id: string }>(() => {});
const resultPercent = (snapshot: { context: { percent: number } }) =>
  expect(snapshot.context.percent).toBe(100);

export default defineMachineModel({
  name: 'bulk-upload',
  machine: bulkUploadMachine.provide({
    actors: { uploadFile: inertUpload, downloadTemplate: inertTemplate, downloadErrorFile: inertErrorFile },
  }),
  events: [
    { type: 'file.drop', file: workbook },
    { type: 'file.drop', file: csv },
    { type: 'upload.progress', loaded: 990, total: 1000 },
    { type: 'upload.answered', response: answer('Success', '2 application(s) created.') },
    {
      type: 'upload.answered',
      response: answer('InvalidFileData', '1 issue(s) on 1 of 2 row(s).', errorFileId),
    },
    {
      type: 'upload.answered',
      response: answer('InvalidFile', 'Column A of the header row must be "Account Name".'),
    },
    // AM §4: success needs both Success and the Success ResponseType, and the issues view needs the
    // error workbook's id; an answer that has one without the other is another error.
    {
      type: 'upload.answered',
      response: { Success: true, Message: 'Partly imported.', ResponseType: 'InvalidFile', TemporaryErrorFileId: null },
    },
    { type: 'upload.answered', response: answer('InvalidFileData', 'The error workbook could not be made.') },
    { type: 'upload.failed' },
    { type: 'template.download' },
    { type: 'errorFile.download' },
    { type: 'download.failed' },
    { type: 'upload.again' },
    { type: 'dialog.close' },
  ],
  expectations: {
    states: {
      // Nothing chosen, sent or answered (at the start, and after Upload another file).
      idle: (snapshot) =>
        expect(snapshot.context).toMatchObject({ file: undefined, fileName: '', percent: 0, message: '', errorFileId: undefined }),
      // Transient: left at once for uploading or wrongType, so never seen at rest.
      checkingType: (snapshot) => expect(snapshot.context.fileName).not.toBe(''),
      wrongType: (snapshot) => expect(snapshot.context.fileName).toBe('applications.csv'),
      uploading: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        // AM §4: never above 95 before the response.
        expect(snapshot.context.percent).toBeLessThanOrEqual(95);
      },
      succeeded: resultPercent,
      invalidData: (snapshot) => {
        resultPercent(snapshot);
        expect(snapshot.context.errorFileId).toBe(errorFileId);
      },
      otherError: resultPercent,
      closed: (snapshot) => expect(snapshot.status).toBe('done'),
    },
    transitions: {
      'idle + file.drop': ({ after }) => expect(after.context.fileName).toMatch(/^applications\./),
      'idle + template.download': ({ after, started }) => {
        expect(after.context.downloadFailed).toBe(false);
        expect(Object.keys(started)).toEqual(['download']);
      },
      'idle + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'checkingType + always': ({ after }) =>
        expect(after.matches(after.context.fileName.endsWith('.xlsx') ? 'uploading' : 'wrongType')).toBe(
          true,
        ),
      'wrongType + file.drop': ({ after }) => expect(after.context.percent).toBe(0),
      'wrongType + template.download': ({ after, started }) => {
        expect(after.context.downloadFailed).toBe(false);
        expect(Object.keys(started)).toEqual(['download']);
      },
      'wrongType + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'uploading + upload.progress': ({ after }) => expect(after.context.percent).toBe(95),
      'uploading + upload.answered': ({ event, after, emitted }) => {
        const response = event.response as ReturnType<typeof answer>;
        const outcome =
          response.Success && response.ResponseType === 'Success'
            ? 'succeeded'
            : response.ResponseType === 'InvalidFileData' && response.TemporaryErrorFileId !== null
              ? 'invalidData'
              : 'otherError';
        expect(after.matches(outcome)).toBe(true);
        expect(after.context).toMatchObject({ percent: 100, message: response.Message, errorFileId: response.TemporaryErrorFileId ?? undefined });
        // The file is not kept once it has been sent.
        expect(after.context.file).toBeUndefined();
        // The list refreshes after a successful upload only.
        expect(emitted.map((event) => event.type)).toEqual(
          after.matches('succeeded') ? ['applications.uploaded'] : [],
        );
      },
      'uploading + upload.failed': ({ after, emitted }) => {
        expect(after.matches('otherError')).toBe(true);
        expect(after.context).toMatchObject({ percent: 100, message: '', file: undefined });
        expect(emitted).toEqual([]);
      },
      'succeeded + upload.again': ({ after }) => expect(after.context.downloadFailed).toBe(false),
      'succeeded + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'invalidData + errorFile.download': ({ after, started }) => {
        expect(after.matches('invalidData')).toBe(true);
        expect(after.context.downloadFailed).toBe(false);
        expect(started).toEqual({ download: { id: errorFileId } });
      },
      'invalidData + upload.again': ({ after }) => expect(after.context.downloadFailed).toBe(false),
      'invalidData + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      'otherError + upload.again': ({ after }) => expect(after.context.downloadFailed).toBe(false),
      'otherError + dialog.close': ({ after }) => expect(after.status).toBe('done'),
      '(machine) + download.failed': ({ after }) => expect(after.context.downloadFailed).toBe(true),
    },
  },
});
