import { assign, enqueueActions, fromPromise, sendParent, setup, stopChild, type DoneActorEvent } from 'xstate';
import { commentProblem } from '../domain/application-detail.ts';
import { hasClaim, type Claims } from '../domain/permissions.ts';
import type { ApplicationComment } from '../schemas/application-detail.schema.ts';
import { addComment, getComments } from '../services/application-detail.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface ApplicationCommentsInput {
  applicationId: string;
  claims: Claims;
}

export interface ApplicationCommentsContext {
  applicationId: string;
  claims: Claims;
  /** Newest first. */
  comments: ApplicationComment[];
  loadFailed: boolean;
  /** What is typed in the comment box. */
  draft: string;
  /** The validation message shown: set 300 ms after typing stops, on blur and on Save (AM §5). */
  message: string | undefined;
  saveFailed: boolean;
}

/** The detail sends `comments.load` once the application is there, and again after each refetch. */
export type ApplicationCommentsEvent =
  | { type: 'comments.load' }
  | { type: 'comment.change'; text: string }
  | { type: 'comment.blur' }
  | { type: 'comment.submit' };

/**
 * The Comments card of the application detail (AM §2, §5, §6, §8): the comments, read with
 * comments.view, and the comment box, with comment.add. A comment is validated 300 ms after the
 * last change, on blur and on Save ('Empty comment cannot be saved.', 'Comment cannot be longer
 * than 500 characters.'); a saved one asks the detail to reload its activity feed.
 */
export const applicationCommentsMachine = setup({
  types: typesOf<{
    context: ApplicationCommentsContext;
    events: ApplicationCommentsEvent;
    input: ApplicationCommentsInput;
    tags: 'busy';
    children: { loadComments: 'loadComments'; reloadComments: 'loadComments'; saveComment: 'saveComment' };
  }>(),
  actors: {
    loadComments: fromPromise<ApplicationComment[], { applicationId: string }>(({ input }) =>
      getComments(input.applicationId),
    ),
    saveComment: fromPromise<ApplicationComment[], { applicationId: string; comment: string }>(({ input }) =>
      addComment(input.applicationId, input.comment),
    ),
  },
  guards: {
    canReadComments: ({ context }) => hasClaim(context.claims, 'comments.view'),
    canSaveComment: ({ context }) =>
      hasClaim(context.claims, 'comment.add') && commentProblem(context.draft) === undefined,
  },
  actions: {
    assignComments: assign((_, params: { comments: ApplicationComment[] }) => ({
      comments: params.comments,
      loadFailed: false,
    })),
    flagLoadFailed: assign({ loadFailed: true }),
    // A newer reload replaces the one under way, so an older answer never overwrites a newer one.
    // A reload begun before a save would answer the comments without the new one after the save's own
    // answer (which holds them all), and overwrite it: a save ends it.
    stopReload: stopChild('reloadComments'),
    startReload: enqueueActions(({ context, enqueue }) => {
      enqueue.stopChild('reloadComments');
      enqueue.spawnChild('loadComments', { id: 'reloadComments', input: { applicationId: context.applicationId } });
    }),
    assignDraft: assign((_, params: { text: string }) => ({ draft: params.text, saveFailed: false })),
    validate: assign(({ context }) => ({ message: commentProblem(context.draft) })),
    // The answer holds every comment, the new one included.
    assignSaved: assign((_, params: { comments: ApplicationComment[] }) => ({
      comments: params.comments,
      loadFailed: false,
      draft: '',
      message: undefined,
    })),
    flagSaveFailed: assign({ saveFailed: true }),
    announceSaved: sendParent({ type: 'feed.reload' }),
  },
  delays: {
    /** AM §5/§9: fields validate 300 ms after the last change. */
    commentValidationDebounce: 300,
  },
}).createMachine({
  id: 'applicationComments',
  initial: 'waiting',
  context: ({ input }) => ({
    applicationId: input.applicationId,
    claims: input.claims,
    comments: [],
    loadFailed: false,
    draft: '',
    message: undefined,
    saveFailed: false,
  }),
  states: {
    waiting: {
      description: 'Waiting for the application to load',
      on: {
        'comments.load': [{ guard: 'canReadComments', target: 'loading' }, { target: 'editing' }],
        // The comment box is shown from the start: what is typed before the comments are there is
        // kept, and Save saves it (its answer is the whole list), as once they are (issue 41: a
        // journey that typed at once lost its comment).
        'comment.change': { actions: { type: 'assignDraft', params: ({ event }) => ({ text: event.text }) } },
        'comment.blur': { actions: 'validate' },
        'comment.submit': [{ guard: 'canSaveComment', target: 'saving' }, { actions: 'validate' }],
      },
    },
    loading: {
      description: 'The comments are loading',
      on: {
        // As while waiting: typing is kept, and Save ends the read (the save answers the whole list).
        'comment.change': { actions: { type: 'assignDraft', params: ({ event }) => ({ text: event.text }) } },
        'comment.blur': { actions: 'validate' },
        'comment.submit': [{ guard: 'canSaveComment', target: 'saving' }, { actions: 'validate' }],
      },
      invoke: {
        id: 'loadComments',
        src: 'loadComments',
        input: ({ context }) => ({ applicationId: context.applicationId }),
        onDone: {
          target: 'editing',
          actions: { type: 'assignComments', params: ({ event }) => ({ comments: event.output }) },
        },
        onError: { target: 'editing', actions: 'flagLoadFailed' },
      },
    },
    editing: {
      initial: 'validated',
      on: {
        // The detail refetched: the comments are read again, the draft being typed is kept.
        'comments.load': { guard: 'canReadComments', actions: 'startReload' },
        'xstate.done.actor.reloadComments': {
          actions: {
            type: 'assignComments',
            params: ({ event }: { event: DoneActorEvent<ApplicationComment[]> }) => ({ comments: event.output }),
          },
        },
        'xstate.error.actor.reloadComments': { actions: 'flagLoadFailed' },
        'comment.change': {
          target: '.debouncing',
          reenter: true,
          actions: { type: 'assignDraft', params: ({ event }) => ({ text: event.text }) },
        },
        'comment.blur': { target: '.validated', actions: 'validate' },
        'comment.submit': [{ guard: 'canSaveComment', target: 'saving' }, { actions: 'validate' }],
      },
      states: {
        validated: {
          description:
            "The comments (comments.view), newest first, and the comment box (comment.add); 'Empty comment cannot be saved.' or 'Comment cannot be longer than 500 characters.' once validated",
        },
        debouncing: {
          description: 'Typing: the comment is validated 300 ms after the last change',
          after: { commentValidationDebounce: { target: 'validated', actions: 'validate' } },
        },
      },
    },
    saving: {
      description: 'The comment is being saved (the server writes its activity item with it)',
      tags: ['busy'],
      entry: 'stopReload',
      invoke: {
        id: 'saveComment',
        src: 'saveComment',
        input: ({ context }) => ({ applicationId: context.applicationId, comment: context.draft.trim() }),
        onDone: {
          target: 'editing',
          actions: [{ type: 'assignSaved', params: ({ event }) => ({ comments: event.output }) }, 'announceSaved'],
        },
        onError: { target: 'editing', actions: 'flagSaveFailed' },
      },
    },
  },
});

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'The Comments card of an application: reads the comments (comments.view) and adds one (comment.add), validated as it is typed.',
  spec: ['AM §2', 'AM §5', 'AM §6', 'AM §8'],
  actors: {
    loadComments: { does: 'Loads the application’s comments', done: 'comments loaded', failed: 'comments could not be loaded' },
    saveComment: { does: 'Saves the comment', done: 'comment saved', failed: 'comment could not be saved' },
  },
  children: {
    reloadComments: { does: 'Reads the comments again', done: 'comments reloaded', failed: 'comments could not be reloaded' },
  },
  guards: {
    canReadComments: 'the user may read comments (comments.view)',
    canSaveComment: 'the user may add comments (comment.add) and the comment is valid',
  },
  delays: { commentValidationDebounce: 'the pause after the last keystroke before the comment is checked' },
  events: {
    'comments.load': 'the card opened, or the application was refetched',
    'comment.change': 'the comment was typed in',
    'comment.blur': 'the comment box lost focus',
    'comment.submit': 'Save chosen',
  },
} satisfies MachineLabels<typeof applicationCommentsMachine>;
