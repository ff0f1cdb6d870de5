import { expect } from 'vitest';
import { fromCallback, type AnyMachineSnapshot } from 'xstate';
import {
  documentUploadMachine,
  uploadFailedText,
  type DocumentUploadEvent,
} from '../../src/machines/document-upload.machine.ts';
import type { UploadDocumentsResponse } from '../../src/schemas/application-detail.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const accepted = ['pdf', 'jpg', 'png'];
const pdf = new File(['%PDF-1.4'], 'statement.pdf', { type: 'application/pdf' });
const exe = new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' });

const stored: UploadDocumentsResponse = {
  UploadedDocuments: [
    { Success: true, PublicId: 'd-1', FileName: 'statement.pdf', UploadedTimestamp: 1_760_000_000, Message: '' },
  ],
  ErrorNo: 0,
  Message: '',
};
/** The server sniffed the content and refused it, with its own words (AM §8: shown as is). */
const refusedByServer: UploadDocumentsResponse = {
  UploadedDocuments: [
    { Success: false, PublicId: '', FileName: 'statement.pdf', UploadedTimestamp: 0, Message: 'The file is larger than 20 MB.' },
  ],
  ErrorNo: 1,
  Message: '1 of 1 files could not be uploaded.',
};

/** No error number but the file is not stored: a failure, in the answer's own words. */
const notStored: UploadDocumentsResponse = {
  UploadedDocuments: [{ Success: false, PublicId: '', FileName: 'statement.pdf', UploadedTimestamp: 0, Message: '' }],
  ErrorNo: 0,
  Message: 'Nothing was stored.',
};
/** The file went through but the answer carries an error number: not counted as stored. */
const storedWithError: UploadDocumentsResponse = { ...stored, ErrorNo: 3, Message: 'The activity could not be written.' };
/** An error without any words and without a file result: the generic text (AM §8). */
const wordless: UploadDocumentsResponse = { UploadedDocuments: [], ErrorNo: 2, Message: '' };

/** What the person reads after each answer that is not a stored file. */
const failureTexts = new Map<UploadDocumentsResponse, string>([
  [refusedByServer, 'The file is larger than 20 MB.'],
  [notStored, 'Nothing was stored.'],
  [wordless, 'The file could not be uploaded. Please try again.'],
  [storedWithError, 'The activity could not be written.'],
]);

const input = (file: File) => ({ applicationId: '1042', file, acceptedExtensions: accepted });
/** The .exe is refused where the configuration names accepted types; with none named, any file goes. */
const isRefusedFile = (snapshot: AnyMachineSnapshot) =>
  snapshot.context.fileName === 'setup.exe' && snapshot.context.acceptedExtensions.length > 0;

export default defineMachineModel({
  name: 'document-upload',
  machine: documentUploadMachine.provide({
    // Silent: the path sends the progress and the answer itself.
    actors: { uploadDocument: fromCallback<DocumentUploadEvent, { applicationId: string; file: File }>(() => {}) },
    // Standalone there is no detail to ask; the detail model sees the request as `detail.refetch`.
    actions: { requestRefetch: () => {} },
  }),
  input: input(pdf),
  preconditions: 'A PDF dropped on application 1042 (accepted types from the configuration)',
  events: [
    { type: 'upload.progress', sent: 4096, total: 8192 },
    { type: 'upload.answered', response: stored },
    { type: 'upload.answered', response: refusedByServer },
    { type: 'upload.answered', response: notStored },
    { type: 'upload.answered', response: wordless },
    { type: 'upload.answered', response: storedWithError },
    { type: 'upload.failed' },
  ],
  variants: [
    { name: 'a .exe file', input: input(exe), events: ['upload.start'] },
    { name: 'a .exe file where no accepted types are configured', input: { ...input(exe), acceptedExtensions: [] }, events: ['upload.start'] },
  ],
  expectations: {
    states: {
      queued: (snapshot) => {
        expect(snapshot.children.uploadDocument).toBeUndefined();
        expect(snapshot.context.message).toBeUndefined();
      },
      // AM §5/§8: refused before sending.
      refused: (snapshot) => {
        expect(snapshot.status).toBe('done');
        expect(snapshot.context.message).toBe('Invalid file type');
        expect(isRefusedFile(snapshot)).toBe(true);
        expect(snapshot.children.uploadDocument).toBeUndefined();
      },
      uploading: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.message).toBeUndefined();
        expect(isRefusedFile(snapshot)).toBe(false);
      },
      failed: (snapshot) => {
        expect(snapshot.status).toBe('done');
        expect([...failureTexts.values()]).toContain(snapshot.context.message);
      },
      interrupted: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.message).toBe(uploadFailedText);
      },
      done: (snapshot) => {
        expect(snapshot.status).toBe('done');
        expect(snapshot.context.message).toBeUndefined();
      },
    },
    transitions: {
      'queued + upload.start': ({ after, started }) => {
        if (isRefusedFile(after)) {
          expect(after.matches('refused')).toBe(true);
          expect(started).toEqual({});
        } else {
          expect(after.matches('uploading')).toBe(true);
          expect(started.uploadDocument).toEqual({ applicationId: '1042', file: after.context.fileName === 'setup.exe' ? exe : pdf });
        }
      },
      'uploading + upload.progress': ({ after }) => {
        expect(after.matches('uploading')).toBe(true);
        expect(after.context.sent).toBe(4096);
        expect(after.context.total).toBe(8192);
      },
      'uploading + upload.answered': ({ event, after }) => {
        if (event.response === stored) expect(after.matches('done')).toBe(true);
        else {
          expect(after.matches('failed')).toBe(true);
          // The file's own Message from the server before the summary, else the generic text.
          expect(after.context.message).toBe(failureTexts.get(event.response as UploadDocumentsResponse));
        }
      },
      'uploading + upload.failed': ({ after }) => {
        expect(after.matches('interrupted')).toBe(true);
        expect(after.context.message).toBe(uploadFailedText);
      },
      'interrupted + upload.retry': ({ after, started }) => {
        expect(after.matches('uploading')).toBe(true);
        expect(after.context.sent).toBe(0);
        expect(started.uploadDocument).toEqual({ applicationId: '1042', file: pdf });
      },
    },
  },
});
