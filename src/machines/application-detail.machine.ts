import { createActorContext } from '@xstate/react';
import { assign, enqueueActions, fromPromise, sendTo, setup, stopChild, type ActorRefFrom, type DoneActorEvent } from 'xstate';
import { defaultDetailSettings, newestFirst, type DetailSettings } from '../domain/application-detail.ts';
import { activitySince } from '../domain/live-changes.ts';
import { hasClaim, type Claims } from '../domain/permissions.ts';
import type {
  ActivityItem,
  ApplicationDetail,
  ApplicationIp,
  DocumentQuery,
  ReloadResponse,
} from '../schemas/application-detail.schema.ts';
import {
  downloadAllDocuments,
  downloadDocument,
  getActivityFeed,
  getApplication,
  getApplicationIps,
  reloadApplication,
  visibleDetailRows,
} from '../services/application-detail.service.ts';
import { systemConfiguration } from '../services/configuration.service.ts';
import { systemInformation } from '../services/lookups.service.ts';
import { applicationCommentsMachine } from './application-comments.machine.ts';
import { documentUploadMachine } from './document-upload.machine.ts';
import type { MachineLabels } from './machine-labels.ts';
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

/** The VPN Summary card (AM §2, §8): hidden without vpnsummary.view, else loading, ready or unavailable. */
export type VpnStatus = 'hidden' | 'loading' | 'ready' | 'unavailable';

export interface ApplicationDetailContext {
  applicationId: string;
  claims: Claims;
  detail: ApplicationDetail | undefined;
  configuration: DetailConfiguration;
  /** Newest first (AM §2 Activity feed). */
  activity: ActivityItem[];
  activityLoading: boolean;
  activityFailed: boolean;
  vpn: VpnStatus;
  ips: ApplicationIp[];
  downloading: boolean;
  downloadFailed: boolean;
  /** One per file dropped or picked, newest last; each runs document-upload.machine. */
  uploads: UploadEntry[];
  uploadCount: number;
  /** Indexes of the Tax rows whose TFN is revealed (blurred until then, AM §6). */
  revealedTfns: number[];
  /**
   * While a refetch for a colleague's change (live event stream) is under way: the newest activity
   * time seen before it. The feed read after it names what changed since (issue 42).
   */
  liveSince: number | undefined;
  /** What colleagues changed, newest first, from the activity feed read after their change. */
  liveChanges: ActivityItem[];
  /** When those were read (ms): the notice says how long before that they were made. */
  liveChangesReadAt: number;
}

export type ApplicationDetailEvent =
  | { type: 'detail.refresh' }
  | { type: 'detail.refetch' }
  | { type: 'feed.reload' }
  | { type: 'vpn.reload' }
  | { type: 'document.download'; labDocsId: string; fileName: string }
  | { type: 'documents.downloadAll' }
  | { type: 'documents.add'; files: File[] }
  | { type: 'upload.dismiss'; id: string }
  | { type: 'tfn.toggle'; index: number }
  | { type: 'live.changed' };

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
 * The application detail screen (AM §2, §4, §7, §8). The application loads first; once it is there,
 * the activity feed, the VPN summary (vpnsummary.view) and the comments (a child machine) load
 * alongside. Refresh asks the server to reload the application, then refetches it and every card
 * with it; child workflows (uploads, actions, editors) send `detail.refetch`. Any failure to load the
 * application (404, another tenant's, not visible, network) shows the spec's not-found text; a
 * failed refetch keeps the loaded screen and offers to try again.
 *
 * The feed, the VPN summary and downloads run as spawned actors whose progress lives in context
 * (not parallel regions), so the states a person moves through stay few and every path is tested.
 */
export const applicationDetailMachine = setup({
  types: typesOf<{
    context: ApplicationDetailContext;
    events: ApplicationDetailEvent;
    input: ApplicationDetailInput;
    tags: 'busy';
    children: {
      comments: 'comments';
      loadActivity: 'loadActivity';
      loadIps: 'loadIps';
      download: 'downloadDocument' | 'downloadAllDocuments';
    };
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
    downloadDocument: fromPromise<void, { query: DocumentQuery; fileName: string }>(({ input }) =>
      downloadDocument(input.query, input.fileName),
    ),
    downloadAllDocuments: fromPromise<void, { applicationId: string }>(({ input }) =>
      downloadAllDocuments(input.applicationId),
    ),
    comments: applicationCommentsMachine,
    documentUpload: documentUploadMachine,
  },
  guards: {
    canDownload: ({ context }) => hasClaim(context.claims, 'document.download') && !context.downloading,
    canUpload: ({ context }) => hasClaim(context.claims, 'document.upload'),
  },
  actions: {
    assignDetail: assign((_, params: { detail: ApplicationDetail }) => ({ detail: params.detail })),
    assignConfiguration: assign((_, params: { configuration: DetailConfiguration }) => ({
      configuration: params.configuration,
    })),
    // A newer load replaces the one under way, so an older answer never overwrites a newer one.
    startActivity: enqueueActions(({ context, enqueue }) => {
      enqueue.stopChild('loadActivity');
      enqueue.spawnChild('loadActivity', { id: 'loadActivity', input: { applicationId: context.applicationId } });
      enqueue.assign({ activityLoading: true });
    }),
    assignActivity: assign(({ context }, params: { activity: ActivityItem[] }) => {
      const activity = newestFirst(params.activity);
      const since = context.liveSince;
      const changes = since === undefined ? [] : activitySince(activity, context.activity, since);
      return {
        activity,
        activityLoading: false,
        activityFailed: false,
        liveSince: undefined,
        liveChanges: changes.length > 0 ? changes : context.liveChanges,
        liveChangesReadAt: changes.length > 0 ? Date.now() : context.liveChangesReadAt,
      };
    }),
    // The first of a burst of changes keeps its mark: the feed then names them all.
    markLiveChange: assign(({ context }) => ({
      liveSince: context.liveSince ?? context.activity[0]?.TimeStamp ?? 0,
    })),
    flagActivityFailed: assign({ activityLoading: false, activityFailed: true }),
    // AM §6: the VPN Summary needs vpnsummary.view; without it the card stays hidden and nothing loads.
    startIps: enqueueActions(({ context, enqueue }) => {
      if (!hasClaim(context.claims, 'vpnsummary.view')) return;
      enqueue.stopChild('loadIps');
      enqueue.spawnChild('loadIps', { id: 'loadIps', input: { applicationId: context.applicationId } });
      enqueue.assign({ vpn: 'loading' });
    }),
    assignIps: assign((_, params: { ips: ApplicationIp[] }) => ({ ips: params.ips, vpn: 'ready' as const })),
    flagVpnUnavailable: assign({ vpn: 'unavailable' as const }),
    startDownload: enqueueActions(({ context, enqueue }, params: { labDocsId: string; fileName: string }) => {
      enqueue.spawnChild('downloadDocument', {
        id: 'download',
        input: {
          query: { ApplicationGuid: context.detail?.ApplicationGuid ?? '', LabDocsId: params.labDocsId },
          fileName: params.fileName,
        },
      });
      enqueue.assign({ downloading: true, downloadFailed: false });
    }),
    startZipDownload: enqueueActions(({ context, enqueue }) => {
      enqueue.spawnChild('downloadAllDocuments', { id: 'download', input: { applicationId: context.applicationId } });
      enqueue.assign({ downloading: true, downloadFailed: false });
    }),
    endDownload: assign({ downloading: false }),
    flagDownloadFailed: assign({ downloading: false, downloadFailed: true }),
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
    // Each new file's workflow waits in `queued` until its actor exists; this starts it.
    startUploads: enqueueActions(({ context, enqueue }) => {
      for (const upload of context.uploads) {
        if (upload.ref.getSnapshot().matches('queued')) enqueue.sendTo(upload.ref, { type: 'upload.start' });
      }
    }),
    startComments: sendTo('comments', { type: 'comments.load' }),
    stopUpload: stopChild((_, params: { id: string }) => params.id),
    removeUpload: assign(({ context }, params: { id: string }) => ({
      uploads: context.uploads.filter((upload) => upload.id !== params.id),
    })),
    toggleTfn: assign(({ context }, params: { index: number }) => ({
      revealedTfns: context.revealedTfns.includes(params.index)
        ? context.revealedTfns.filter((index) => index !== params.index)
        : [...context.revealedTfns, params.index],
    })),
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
    activityLoading: false,
    activityFailed: false,
    vpn: 'hidden',
    ips: [],
    downloading: false,
    downloadFailed: false,
    uploads: [],
    uploadCount: 0,
    revealedTfns: [],
    liveSince: undefined,
    liveChanges: [],
    liveChangesReadAt: 0,
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
      initial: 'idle',
      entry: ['startActivity', 'startIps', 'startComments'],
      invoke: {
        id: 'comments',
        src: 'comments',
        input: ({ context }) => ({ applicationId: context.applicationId, claims: context.claims }),
      },
      on: {
        'feed.reload': { actions: 'startActivity' },
        'xstate.done.actor.loadActivity': {
          actions: {
            type: 'assignActivity',
            params: ({ event }: { event: DoneActorEvent<ActivityItem[]> }) => ({ activity: event.output }),
          },
        },
        'xstate.error.actor.loadActivity': { actions: 'flagActivityFailed' },
        'vpn.reload': { actions: 'startIps' },
        'xstate.done.actor.loadIps': {
          actions: {
            type: 'assignIps',
            params: ({ event }: { event: DoneActorEvent<ApplicationIp[]> }) => ({ ips: event.output }),
          },
        },
        'xstate.error.actor.loadIps': { actions: 'flagVpnUnavailable' },
        'document.download': {
          guard: 'canDownload',
          actions: {
            type: 'startDownload',
            params: ({ event }) => ({ labDocsId: event.labDocsId, fileName: event.fileName }),
          },
        },
        'documents.downloadAll': { guard: 'canDownload', actions: 'startZipDownload' },
        'xstate.done.actor.download': { actions: 'endDownload' },
        'xstate.error.actor.download': { actions: 'flagDownloadFailed' },
        'documents.add': {
          guard: 'canUpload',
          actions: [{ type: 'spawnUploads', params: ({ event }) => ({ files: event.files }) }, 'startUploads'],
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
        idle: {
          description:
            'The cards in the spec order (Header, Progress while incomplete, Exceptions, Details, Approval Status, Documents, Identification requirements or Electronic Verification summary, Outstanding documents, Tax Information Details, VPN Summary, Comments), the Activity feed beside them; Actions, View, Edit and Refresh',
          on: {
            'detail.refresh': { target: 'reloading' },
            'detail.refetch': { target: 'refetching' },
            // A colleague's change (issue 42): the cards are read again; an open editor keeps its input.
            'live.changed': { target: 'refetching', actions: 'markLiveChange' },
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
          on: {
            'detail.refetch': { target: 'refetching', reenter: true },
            'live.changed': { target: 'refetching', reenter: true, actions: 'markLiveChange' },
          },
          invoke: {
            id: 'refetchDetail',
            src: 'loadDetail',
            input: ({ context }) => ({ applicationId: context.applicationId }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignDetail', params: ({ event }) => ({ detail: event.output }) },
                'startActivity',
                'startIps',
                // One refetch reloads every card: the comments too (a colleague's, or depersonalised).
                'startComments',
              ],
            },
            // The spec's not-found text is for a failed load; a failed refetch keeps what is shown.
            onError: { target: 'refreshFailed' },
          },
        },
        refreshFailed: {
          description:
            "The cards stay; 'The application could not be refreshed.' with Try again (a refetch failed)",
          on: {
            'detail.refresh': { target: 'reloading' },
            'detail.refetch': { target: 'refetching' },
            'live.changed': { target: 'refetching', actions: 'markLiveChange' },
          },
        },
      },
    },
  },
});

export const ApplicationDetailContext = createActorContext(applicationDetailMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'The application detail screen: loads the application, then its activity feed, VPN summary and comments; downloads and uploads documents; Refresh reloads it from the server.',
  spec: ['AM §2', 'AM §4', 'AM §6', 'AM §7', 'AM §8'],
  actors: {
    loadDetail: { does: 'Loads the application', done: 'application loaded', failed: 'application not found or not loaded' },
    loadConfiguration: { does: 'Loads which detail rows to show', done: 'detail rows known', failed: 'detail rows could not be loaded' },
    reloadApplication: {
      does: 'Asks the server to reload the application',
      done: 'server reloaded it',
      failed: 'reload failed',
    },
    loadActivity: { does: 'Loads the activity feed', done: 'activity feed loaded', failed: 'activity feed could not be loaded' },
    loadIps: { does: 'Loads the VPN summary', done: 'VPN summary loaded', failed: 'VPN summary could not be loaded' },
    downloadDocument: { does: 'Downloads one document' },
    downloadAllDocuments: { does: 'Downloads all documents as a zip' },
    comments: { does: 'Runs the Comments card' },
    documentUpload: { does: 'Uploads one document' },
  },
  children: {
    download: { does: 'Downloads a document or the zip', done: 'download finished', failed: 'download failed' },
  },
  guards: {
    canDownload: 'the user may download documents (document.download) and no download is running',
    canUpload: 'the user may upload documents (document.upload)',
  },
  events: {
    'detail.refresh': 'Refresh chosen',
    'detail.refetch': 'a child workflow changed the application',
    'feed.reload': 'the activity feed asked to reload',
    'vpn.reload': 'the VPN summary asked to reload',
    'document.download': 'a document’s download chosen',
    'documents.downloadAll': 'Download all chosen',
    'documents.add': 'documents dropped or picked',
    'upload.dismiss': 'an upload’s result dismissed',
    'tfn.toggle': 'Reveal or hide a TFN chosen',
    'live.changed': 'a colleague changed this application (live event stream)',
  },
} satisfies MachineLabels<typeof applicationDetailMachine>;
