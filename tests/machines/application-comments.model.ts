import { expect } from 'vitest';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { applicationCommentsMachine } from '../../src/machines/application-comments.machine.ts';
import type { ApplicationComment } from '../../src/schemas/application-detail.schema.ts';
import { HttpError } from '../../src/services/http.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

const existing: ApplicationComment[] = [
  { CommentId: 1, UserDisplayName: 'Avery Admin', CommentTimestamp: 1_760_000_000, Comment: 'Called the client.' },
];
const saved: ApplicationComment[] = [
  { CommentId: 2, UserDisplayName: 'Avery Admin', CommentTimestamp: 1_760_000_900, Comment: 'Documents received' },
  ...existing,
];

const readAndAdd = ['comments.view', 'comment.add'];
const addOnly = ['comment.add'];
const readOnly = ['comments.view'];

const canRead = (snapshot: AnyMachineSnapshot) => snapshot.context.claims.includes('comments.view');
const canAdd = (snapshot: AnyMachineSnapshot) => snapshot.context.claims.includes('comment.add');

/** AM §5, for these samples: what the draft should say once validated. */
function expectedMessage(draft: string): string | undefined {
  if (draft.trim() === '') return 'Empty comment cannot be saved.';
  if (draft.trim().length > 500) return 'Comment cannot be longer than 500 characters.';
  return undefined;
}

type Step = { event: { type: string; text?: string }; before: AnyMachineSnapshot; after: AnyMachineSnapshot; started: Record<string, unknown> };

/** Typed before the comments are there: kept, the card still opening. */
function typedWhileOpening({ event, before, after }: Step) {
  expect(after.value).toEqual(before.value);
  expect(after.context.draft).toBe(event.text);
  expect(after.context.saveFailed).toBe(false);
}

/** Left before the comments are there: checked (AM §5), the card still opening. */
function blurredWhileOpening({ before, after }: Step) {
  expect(after.value).toEqual(before.value);
  expect(after.context.message).toBe(expectedMessage(after.context.draft));
}

/** Saved before the comments are there: a valid comment is sent (its answer is the whole list); an invalid one says why. */
function submittedWhileOpening({ before, after, started }: Step) {
  if (canAdd(before) && expectedMessage(before.context.draft) === undefined) {
    expect(after.matches('saving')).toBe(true);
    expect(started.saveComment).toEqual({ applicationId: '1042', comment: 'Documents received' });
  } else {
    expect(after.value).toEqual(before.value);
    expect(started).toEqual({});
    expect(after.context.message).toBe(expectedMessage(before.context.draft));
  }
}

export default defineMachineModel({
  name: 'application-comments',
  machine: applicationCommentsMachine.provide({
    actors: { loadComments: never(), saveComment: never() },
    // Standalone there is no detail; the detail model covers what it does with `feed.reload`.
    actions: { announceSaved: () => {} },
  }),
  input: { applicationId: '1042', claims: readAndAdd },
  preconditions: 'Application 1042 open, by a user holding comments.view and comment.add',
  events: [
    { type: 'xstate.done.actor.loadComments', output: existing },
    { type: 'xstate.error.actor.loadComments', error: new HttpError(500, '/api/comment/1042') },
    { type: 'comment.change', text: '  Documents received  ' },
    { type: 'comment.change', text: '   ' },
    { type: 'comment.change', text: 'x'.repeat(501) },
    { type: 'xstate.after.commentValidationDebounce.applicationComments.editing.debouncing' },
    { type: 'xstate.done.actor.saveComment', output: saved },
    { type: 'xstate.done.actor.reloadComments', output: saved },
    { type: 'xstate.error.actor.reloadComments', error: new HttpError(503, '/api/comment/1042') },
    { type: 'xstate.error.actor.saveComment', error: new HttpError(400, '/api/comment/1042') },
  ],
  // What is typed decides whether Save goes ahead: drafts are part of the vertex.
  contextKey: (snapshot) => snapshot.context.draft,
  variants: [
    { name: 'comment.add only', input: { applicationId: '1042', claims: addOnly }, events: ['comments.load', 'comment.submit'] },
    { name: 'comments.view only', input: { applicationId: '1042', claims: readOnly }, events: ['comment.submit'] },
  ],
  expectations: {
    states: {
      waiting: (snapshot) => {
        // Nothing read or failed yet; what is typed is kept, and checked only once blurred or saved.
        expect(snapshot.context).toMatchObject({ comments: [], loadFailed: false, saveFailed: false });
        if (snapshot.context.message !== undefined) expect(snapshot.context.message).toBe(expectedMessage(snapshot.context.draft));
        expect(snapshot.children.loadComments).toBeUndefined();
      },
      loading: (snapshot) => {
        expect(canRead(snapshot)).toBe(true);
        expect(snapshot.children.loadComments).toBeDefined();
      },
      'editing.validated': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        if (snapshot.context.message !== undefined) expect(snapshot.context.message).toBe(expectedMessage(snapshot.context.draft));
        // Without comments.view nothing is read.
        if (!canRead(snapshot)) expect(snapshot.context.comments).toEqual([]);
      },
      'editing.debouncing': (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      saving: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(canAdd(snapshot)).toBe(true);
        expect(expectedMessage(snapshot.context.draft)).toBeUndefined();
      },
    },
    transitions: {
      // Issue 41: the comment box is there before the comments are; typing, leaving it and Save work.
      'waiting + comment.change': typedWhileOpening,
      'loading + comment.change': typedWhileOpening,
      'waiting + comment.blur': blurredWhileOpening,
      'loading + comment.blur': blurredWhileOpening,
      'waiting + comment.submit': submittedWhileOpening,
      'loading + comment.submit': submittedWhileOpening,
      'waiting + comments.load': ({ after, started }) => {
        if (canRead(after)) expect(started.loadComments).toEqual({ applicationId: '1042' });
        else {
          expect(after.matches('editing')).toBe(true);
          expect(started).toEqual({});
        }
      },
      'loading + xstate.done.actor.loadComments': ({ after }) => {
        expect(after.matches('editing')).toBe(true);
        expect(after.context.comments).toEqual(existing);
        expect(after.context.loadFailed).toBe(false);
      },
      'loading + xstate.error.actor.loadComments': ({ after }) => {
        expect(after.matches('editing')).toBe(true);
        expect(after.context.loadFailed).toBe(true);
      },
      // Issue 32: the detail refetched; the comments are read again and the draft is kept.
      'editing + comments.load': ({ before, after, started }) => {
        if (canRead(before)) expect(started.reloadComments).toEqual({ applicationId: '1042' });
        else expect(started).toEqual({});
        expect(after.context.draft).toBe(before.context.draft);
        expect(after.value).toEqual(before.value);
      },
      'editing + xstate.done.actor.reloadComments': ({ before, after }) => {
        expect(after.context.comments).toEqual(saved);
        expect(after.context.loadFailed).toBe(false);
        expect(after.context.draft).toBe(before.context.draft);
      },
      'editing + xstate.error.actor.reloadComments': ({ after }) => expect(after.context.loadFailed).toBe(true),
      'editing + comment.change': ({ event, after }) => {
        expect(after.matches({ editing: 'debouncing' })).toBe(true);
        expect(after.context.draft).toBe(event.text);
        expect(after.context.saveFailed).toBe(false);
      },
      'editing + comment.blur': ({ after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.message).toBe(expectedMessage(after.context.draft));
      },
      // AM §5: an invalid comment is never sent; it shows why instead.
      'editing + comment.submit': ({ before, after, started }) => {
        if (canAdd(before) && expectedMessage(before.context.draft) === undefined) {
          expect(after.matches('saving')).toBe(true);
          expect(started.saveComment).toEqual({ applicationId: '1042', comment: 'Documents received' });
        } else {
          expect(after.matches('editing')).toBe(true);
          expect(started).toEqual({});
          expect(after.context.message).toBe(expectedMessage(before.context.draft));
        }
      },
      'editing.debouncing + after commentValidationDebounce': ({ after }) => {
        expect(after.matches({ editing: 'validated' })).toBe(true);
        expect(after.context.message).toBe(expectedMessage(after.context.draft));
      },
      'saving + xstate.done.actor.saveComment': ({ after }) => {
        expect(after.matches('editing')).toBe(true);
        expect(after.context.comments).toEqual(saved);
        // The answer is the whole list: an earlier failed read is over.
        expect(after.context.loadFailed).toBe(false);
        expect(after.context.draft).toBe('');
        expect(after.context.message).toBeUndefined();
      },
      // The text stays, to try again.
      'saving + xstate.error.actor.saveComment': ({ before, after }) => {
        expect(after.matches('editing')).toBe(true);
        expect(after.context.saveFailed).toBe(true);
        expect(after.context.draft).toBe(before.context.draft);
      },
    },
  },
});
