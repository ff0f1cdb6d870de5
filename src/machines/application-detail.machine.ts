import { createActorContext } from '@xstate/react';
import { assign, fromPromise, raise, setup, stopChild, type ActorRefFrom } from 'xstate';
import { commentProblem, defaultDetailSettings, newestFirst, type DetailSettings } from '../domain/application-detail.ts';
import { hasClaim, type Claims } from '../domain/permissions.ts';
import type {
  ActivityItem,
  ApplicationComment,
  ApplicationDetail,
  ApplicationIp,
  DocumentQuery,
  ReloadResponse,
} from '../schemas/application-detail.schema.ts';
import {
  addComment,
  downloadAllDocuments,
  downloadDocument,
  getActivityFeed,
  getApplication,
  getApplicationIps,
  getComments,
  reloadApplication,
  visibleDetailRows,
} from '../services/application-detail.service.ts';
import { systemConfiguration } from '../services/configuration.service.ts';
import { systemInformation } from '../services/lookups.service.ts';
import { documentUploadMachine } from './document-upload.machine.ts';
import { typesOf } from './machine-types.ts';

export interface ApplicationDetailInput {
  /** The ApplicationID of the route /application/{ApplicationID}. */
  applicationId: string;
  claims: Claims;
}

/** What the screen needs besides the application: system configuration, rows and accepted extensions. */
export interface DetailConfiguration {
  settings: DetailSettings;
  /** GET /configuration/rows: the optional Details rows the tenant shows. */
  rowNames: string[];
  acceptedExtensions: string[];
}

export interface UploadEntry {
  id: string;
  fileName: string;
  ref: ActorRefFrom<typeof documentUploadMachine>;
}

export interface ApplicationDetailContext {
  applicationId: string;
  claims: Claims;
  detail: ApplicationDetail | undefined;
  configuration: DetailConfiguration;
  /** Newest first (AM §2 Activity feed). */
  activity: ActivityItem[];
  activityFailed: boolean;
  ips: ApplicationIp[];
  /** Newest first. */
  comments: ApplicationComment[];
  commentsFailed: boolean;
  /** What is typed in the comment box. */
  commentDraft: string;
  /** The validation message shown: set 300 ms after typing stops, on blur and on Save (AM §5). */
  commentMessage: string | undefined;
  commentSaveFailed: boolean;
  downloadFailed: boolean;
  /** One per file dropped or picked, newest last; each runs document-upload.machine. */
  uploads: UploadEntry[];
  uploadCount: number;
  /** Indexes of the Tax rows whose TFN is revealed (blurred until then, AM §6). */
  revealedTfns: number[];
}

export type ApplicationDetailEvent =
  | { type: 'detail.refresh' }
  | { type: 'detail.refetch' }
  | { type: 'feed.reload' }
  | { type: 'vpn.reload' }
  | { type: 'comment.change'; text: string }
  | { type: 'comment.blur' }
  | { type: 'comment.submit' }
  | { type: 'document.download'; labDocsId: string; fileName: string }
  | { type: 'documents.downloadAll' }
  | { type: 'documents.add'; files: File[] }
  | { type: 'upload.dismiss'; id: string }
  | { type: 'tfn.toggle'; index: number };

/** Every configuration call at once; what cannot load keeps its default (the server checks uploads again). */
async function loadConfiguration(): Promise<DetailConfiguration> {
  const [custom, rows, information] = await Promise.allSettled([
    systemConfiguration(),
    visibleDetailRows(),
    systemInformation(),
  ]);
  return {
    settings:
      custom.status === 'fulfilled'
        ? {
            showDocumentListBeforeCompletion: custom.value.UISystemConfiguration.ShowDocumentListBeforeCompletion,
            showEVSummaryResult: custom.value.UISystemConfiguration.ShowEVSummaryResult,
          }
        : defaultDetailSettings,
    rowNames: rows.status === 'fulfilled' ? rows.value : [],
    acceptedExtensions: information.status === 'fulfilled' ? information.value.AcceptedDocumentUploadExtensions : [],
  };
}

export const emptyDetailConfiguration: DetailConfiguration = {
  settings: defaultDetailSettings,
  rowNames: [],
  acceptedExtensions: [],
};

/**
 * The application detail screen (AM §2, §4, §5, §7, §8). The application loads first; once it is
 * there, the activity feed, the VPN summary (vpnsummary.view) and the comments (comments.view) load
 * alongside. Refresh asks the server to reload the application, then refetches it; child workflows
 * (uploads now, the actions of the next issue) send `detail.refetch`. Any failure to load the
 * application (404, another tenant's, not visible, network) shows the spec's not-found text.
 */
export const applicationDetailMachine = setup({
  types: typesOf<{
    context: ApplicationDetailContext;
    events: ApplicationDetailEvent;
    input: ApplicationDetailInput;
    tags: 'busy' | 'downloading';
  }>(),
  actors: {
    loadDetail: fromPromise<ApplicationDetail, { applicationId: string }>(({ input }) =>
      getApplication(input.applicationId),
    ),
    loadConfiguration: fromPromise<DetailConfiguration>(() => loadConfiguration()),
    reloadApplication: fromPromise<ReloadResponse, { applicationId: string }>(({ input }) =>
      reloadApplication(input.applicationId),
    ),
    loadActivity: fromPromise<ActivityItem[], { applicationId: string }>(({ input }) =>
      getActivityFeed(input.applicationId),
    ),
    loadIps: fromPromise<ApplicationIp[], { applicationId: string }>(({ input }) =>
      getApplicationIps(input.applicationId),
    ),
    loadComments: fromPromise<ApplicationComment[], { applicationId: string }>(({ input }) =>
      getComments(input.applicationId),
    ),
    saveComment: fromPromise<ApplicationComment, { applicationId: string; comment: string }>(({ input }) =>
      addComment(input.applicationId, input.comment),
    ),
    downloadDocument: fromPromise<void, { query: DocumentQuery; fileName: string }>(({ input }) =>
      downloadDocument(input.query, input.fileName),
    ),
    downloadAllDocuments: fromPromise<void, { applicationId: string }>(({ input }) =>
      downloadAllDocuments(input.applicationId),
    ),
    documentUpload: documentUploadMachine,
  },
  guards: {
    canSeeVpn: ({ context }) => hasClaim(context.claims, 'vpnsummary.view'),
    canReadComments: ({ context }) => hasClaim(context.claims, 'comments.view'),
    canSaveComment: ({ context }) =>
      hasClaim(context.claims, 'comment.add') && commentProblem(context.commentDraft) === undefined,
    canDownload: ({ context }) => hasClaim(context.claims, 'document.download'),
    canUpload: ({ context }) => hasClaim(context.claims, 'document.upload'),
  },
  actions: {
    assignDetail: assign((_, params: { detail: ApplicationDetail }) => ({ detail: params.detail })),
    assignConfiguration: assign((_, params: { configuration: DetailConfiguration }) => ({
      configuration: params.configuration,
    })),
    assignActivity: assign((_, params: { activity: ActivityItem[] }) => ({
      activity: newestFirst(params.activity),
      activityFailed: false,
    })),
    flagActivityFailed: assign({ activityFailed: true }),
    assignIps: assign((_, params: { ips: ApplicationIp[] }) => ({ ips: params.ips })),
    assignComments: assign((_, params: { comments: ApplicationComment[] }) => ({
      comments: params.comments,
      commentsFailed: false,
    })),
    flagCommentsFailed: assign({ commentsFailed: true }),
    assignCommentDraft: assign((_, params: { text: string }) => ({ commentDraft: params.text, commentSaveFailed: false })),
    validateComment: assign(({ context }) => ({ commentMessage: commentProblem(context.commentDraft) })),
    addSavedComment: assign(({ context }, params: { comment: ApplicationComment }) => ({
      comments: [params.comment, ...context.comments],
      commentDraft: '',
      commentMessage: undefined,
    })),
    flagCommentSaveFailed: assign({ commentSaveFailed: true }),
    clearDownloadFailed: assign({ downloadFailed: false }),
    flagDownloadFailed: assign({ downloadFailed: true }),
    spawnUploads: assign(({ context, spawn }, params: { files: File[] }) => {
      const added = params.files.map((file, offset): UploadEntry => {
        const id = `upload-${context.uploadCount + offset + 1}`;
        return {
          id,
          fileName: file.name,
          ref: spawn('documentUpload', {
            id,
            input: {
              applicationId: context.applicationId,
              file,
              acceptedExtensions: context.configuration.acceptedExtensions,
            },
          }),
        };
      });
      return { uploads: [...context.uploads, ...added], uploadCount: context.uploadCount + added.length };
    }),
    stopUpload: stopChild((_, params: { id: string }) => params.id),
    removeUpload: assign(({ context }, params: { id: string }) => ({
      uploads: context.uploads.filter((upload) => upload.id !== params.id),
    })),
    toggleTfn: assign(({ context }, params: { index: number }) => ({
      revealedTfns: context.revealedTfns.includes(params.index)
        ? context.revealedTfns.filter((index) => index !== params.index)
        : [...context.revealedTfns, params.index],
    })),
    reloadFeed: raise({ type: 'feed.reload' }),
    reloadVpn: raise({ type: 'vpn.reload' }),
  },
  delays: {
    /** AM §5/§9: fields validate 300 ms after the last change. */
    commentValidationDebounce: 300,
  },
}).createMachine({
  id: 'applicationDetail',
  initial: 'loading',
  context: ({ input }) => ({
    applicationId: input.applicationId,
    claims: input.claims,
    detail: undefined,
    configuration: emptyDetailConfiguration,
    activity: [],
    activityFailed: false,
    ips: [],
    comments: [],
    commentsFailed: false,
    commentDraft: '',
    commentMessage: undefined,
    commentSaveFailed: false,
    downloadFailed: false,
    uploads: [],
    uploadCount: 0,
    revealedTfns: [],
  }),
  // The configuration does not depend on the application: it loads while the application does.
  invoke: {
    id: 'loadConfiguration',
    src: 'loadConfiguration',
    onDone: { actions: { type: 'assignConfiguration', params: ({ event }) => ({ configuration: event.output }) } },
  },
  states: {
    loading: {
      description: "'Loading application...'",
      tags: ['busy'],
      invoke: {
        id: 'loadDetail',
        src: 'loadDetail',
        input: ({ context }) => ({ applicationId: context.applicationId }),
        onDone: {
          target: 'loaded',
          actions: { type: 'assignDetail', params: ({ event }) => ({ detail: event.output }) },
        },
        onError: { target: 'notFound' },
      },
    },
    notFound: {
      description:
        "'This application cannot be found. The application may no longer exist or you might not have permission to view it.' (a 404, another tenant's or a hidden application, or any failure)",
    },
    loaded: {
      type: 'parallel',
      on: {
        'documents.add': {
          guard: 'canUpload',
          actions: { type: 'spawnUploads', params: ({ event }) => ({ files: event.files }) },
        },
        'upload.dismiss': {
          actions: [
            { type: 'stopUpload', params: ({ event }) => ({ id: event.id }) },
            { type: 'removeUpload', params: ({ event }) => ({ id: event.id }) },
          ],
        },
        'tfn.toggle': { actions: { type: 'toggleTfn', params: ({ event }) => ({ index: event.index }) } },
      },
      states: {
        data: {
          initial: 'idle',
          states: {
            idle: {
              description:
                'The cards in the spec order (Header, Progress while incomplete, Exceptions, Details, Approval Status, Documents, Identification requirements or Electronic Verification summary, Outstanding documents, Tax Information Details, VPN Summary, Comments), the Activity feed beside them; Actions, View, Edit and Refresh',
              on: {
                'detail.refresh': { target: 'reloading' },
                'detail.refetch': { target: 'refetching' },
              },
            },
            reloading: {
              description: 'Refresh: the server reads the application again from its source (POST reload); the cards stay',
              tags: ['busy'],
              invoke: {
                id: 'reloadApplication',
                src: 'reloadApplication',
                input: ({ context }) => ({ applicationId: context.applicationId }),
                // A failed reload still refetches: what the server holds now is worth showing.
                onDone: { target: 'refetching' },
                onError: { target: 'refetching' },
              },
            },
            refetching: {
              description: 'The application is read again (after Refresh, an upload or an action); the cards stay',
              tags: ['busy'],
              on: { 'detail.refetch': { target: 'refetching', reenter: true } },
              invoke: {
                id: 'refetchDetail',
                src: 'loadDetail',
                input: ({ context }) => ({ applicationId: context.applicationId }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'assignDetail', params: ({ event }) => ({ detail: event.output }) },
                    'reloadFeed',
                    'reloadVpn',
                  ],
                },
                onError: { target: '#applicationDetail.notFound' },
              },
            },
          },
        },
        feed: {
          initial: 'loading',
          on: { 'feed.reload': { target: '.loading', reenter: true } },
          states: {
            loading: {
              description: 'The activity feed is loading (the items shown so far stay)',
              invoke: {
                id: 'loadActivity',
                src: 'loadActivity',
                input: ({ context }) => ({ applicationId: context.applicationId }),
                onDone: {
                  target: 'ready',
                  actions: { type: 'assignActivity', params: ({ event }) => ({ activity: event.output }) },
                },
                onError: { target: 'ready', actions: 'flagActivityFailed' },
              },
            },
            ready: {
              description: "The Activity feed, newest first, dates 'D MMM YYYY HH:mm' (or that it could not load)",
            },
          },
        },
        vpn: {
          initial: 'checking',
          states: {
            checking: {
              always: [{ guard: 'canSeeVpn', target: 'loading' }, { target: 'hidden' }],
            },
            hidden: { description: 'No VPN Summary card (without vpnsummary.view)' },
            loading: {
              description: 'The VPN Summary card is loading',
              invoke: {
                id: 'loadIps',
                src: 'loadIps',
                input: ({ context }) => ({ applicationId: context.applicationId }),
                onDone: {
                  target: 'ready',
                  actions: { type: 'assignIps', params: ({ event }) => ({ ips: event.output }) },
                },
                onError: { target: 'unavailable' },
              },
            },
            ready: {
              description: 'The VPN Summary: each address with its applicant, ISP, VPN flag and time',
              on: { 'vpn.reload': { target: 'loading' } },
            },
            unavailable: {
              description: "'VPN detection results are not available for this application.'",
              on: { 'vpn.reload': { target: 'loading' } },
            },
          },
        },
        comments: {
          initial: 'checking',
          states: {
            checking: {
              always: [{ guard: 'canReadComments', target: 'loading' }, { target: 'editing' }],
            },
            loading: {
              description: 'The comments are loading',
              invoke: {
                id: 'loadComments',
                src: 'loadComments',
                input: ({ context }) => ({ applicationId: context.applicationId }),
                onDone: {
                  target: 'editing',
                  actions: { type: 'assignComments', params: ({ event }) => ({ comments: event.output }) },
                },
                onError: { target: 'editing', actions: 'flagCommentsFailed' },
              },
            },
            editing: {
              initial: 'validated',
              on: {
                'comment.change': {
                  target: '.debouncing',
                  reenter: true,
                  actions: { type: 'assignCommentDraft', params: ({ event }) => ({ text: event.text }) },
                },
                'comment.blur': { target: '.validated', actions: 'validateComment' },
                'comment.submit': [{ guard: 'canSaveComment', target: 'saving' }, { actions: 'validateComment' }],
              },
              states: {
                validated: {
                  description:
                    "The comments (comments.view) and the comment box (comment.add); 'Empty comment cannot be saved.' or 'Comment cannot be longer than 500 characters.' once validated",
                },
                debouncing: {
                  description: 'Typing: the comment is validated 300 ms after the last change',
                  after: { commentValidationDebounce: { target: 'validated', actions: 'validateComment' } },
                },
              },
            },
            saving: {
              description: 'The comment is being saved; its activity item follows',
              tags: ['busy'],
              invoke: {
                id: 'saveComment',
                src: 'saveComment',
                input: ({ context }) => ({ applicationId: context.applicationId, comment: context.commentDraft.trim() }),
                onDone: {
                  target: 'editing',
                  actions: [{ type: 'addSavedComment', params: ({ event }) => ({ comment: event.output }) }, 'reloadFeed'],
                },
                onError: { target: 'editing', actions: 'flagCommentSaveFailed' },
              },
            },
          },
        },
        downloads: {
          initial: 'idle',
          states: {
            idle: {
              description: 'Documents can be downloaded one by one or all as a zip (document.download)',
              on: {
                'document.download': { guard: 'canDownload', target: 'downloadingOne' },
                'documents.downloadAll': { guard: 'canDownload', target: 'downloadingAll' },
              },
            },
            downloadingOne: {
              description: 'One document is downloading',
              tags: ['downloading'],
              entry: 'clearDownloadFailed',
              invoke: {
                id: 'downloadDocument',
                src: 'downloadDocument',
                input: ({ context, event }) => ({
                  query: {
                    ApplicationGuid: context.detail?.ApplicationGuid ?? '',
                    LabDocsId: event.type === 'document.download' ? event.labDocsId : '',
                  },
                  fileName: event.type === 'document.download' ? event.fileName : '',
                }),
                onDone: { target: 'idle' },
                onError: { target: 'idle', actions: 'flagDownloadFailed' },
              },
            },
            downloadingAll: {
              description: 'Every document is downloading as one zip',
              tags: ['downloading'],
              entry: 'clearDownloadFailed',
              invoke: {
                id: 'downloadAllDocuments',
                src: 'downloadAllDocuments',
                input: ({ context }) => ({ applicationId: context.applicationId }),
                onDone: { target: 'idle' },
                onError: { target: 'idle', actions: 'flagDownloadFailed' },
              },
            },
          },
        },
      },
    },
  },
});

export const ApplicationDetailContext = createActorContext(applicationDetailMachine);
