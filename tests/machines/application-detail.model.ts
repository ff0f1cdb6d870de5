import { expect } from 'vitest';
import { fromCallback, fromPromise, type AnyMachineSnapshot } from 'xstate';
import { allClaims } from '../../src/domain/claims.ts';
import { applicationCommentsMachine } from '../../src/machines/application-comments.machine.ts';
import {
  applicationDetailMachine,
  type DetailConfiguration,
} from '../../src/machines/application-detail.machine.ts';
import { documentUploadMachine } from '../../src/machines/document-upload.machine.ts';
import { HttpError, NetworkError } from '../../src/services/http.ts';
import { refetchedDetail, sampleDetail } from './fixtures/application-detail.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

const configuration: DetailConfiguration = {
  settings: { showDocumentListBeforeCompletion: true, showEVSummaryResult: false },
  rowNames: ['TimeToComplete', 'Products'],
  acceptedExtensions: ['pdf', 'jpg', 'png'],
};

const activity = [
  { Activity: 'Application created', TimeStamp: 1_760_000_000 },
  { Activity: 'Comment added', TimeStamp: 1_760_000_500 },
];
const ips = [{ ApplicantName: 'Jo Smith', Ip: '203.0.113.9', IspName: 'Example ISP', IsVpn: true, EventDateTime: 1_760_000_050 }];

/** The claims a person without any of the detail's card claims holds (AM §6): the readonly seed user's. */
const noCardClaims = ['view.allapps.instance'];

const pdf = new File(['%PDF-1.4'], 'statement.pdf', { type: 'application/pdf' });

const hasVpnClaim = (snapshot: AnyMachineSnapshot) => snapshot.context.claims.includes('vpnsummary.view');

export default defineMachineModel({
  name: 'application-detail',
  machine: applicationDetailMachine.provide({
    actors: {
      loadDetail: never(),
      loadConfiguration: never(),
      reloadApplication: never(),
      loadActivity: never(),
      loadIps: never(),
      downloadDocument: never(),
      downloadAllDocuments: never(),
      comments: applicationCommentsMachine.provide({ actors: { loadComments: never(), saveComment: never() } }),
      documentUpload: documentUploadMachine.provide({ actors: { uploadDocument: fromCallback(() => {}) } }),
    },
  }),
  input: { applicationId: '1042', claims: allClaims },
  preconditions: 'Application 1042 opened by a user holding every claim',
  events: [
    { type: 'xstate.done.actor.loadDetail', output: sampleDetail },
    { type: 'xstate.error.actor.loadDetail', error: new HttpError(404, '/api/application/get/1042') },
    { type: 'xstate.error.actor.loadDetail', error: new NetworkError('/api/application/get/1042', { cause: 'offline' }) },
    { type: 'xstate.done.actor.loadConfiguration', output: configuration },
    { type: 'xstate.done.actor.reloadApplication', output: { Success: true } },
    { type: 'xstate.error.actor.reloadApplication', error: new HttpError(500, '/api/application/reload/1042') },
    { type: 'xstate.done.actor.refetchDetail', output: refetchedDetail },
    { type: 'xstate.error.actor.refetchDetail', error: new HttpError(503, '/api/application/get/1042') },
    { type: 'xstate.done.actor.loadActivity', output: activity },
    { type: 'xstate.error.actor.loadActivity', error: new HttpError(500, '/api/application/activityfeed/1042') },
    { type: 'xstate.done.actor.loadIps', output: ips },
    { type: 'xstate.error.actor.loadIps', error: new HttpError(500, '/api/application/get/ips/1042') },
    { type: 'document.download', labDocsId: sampleDetail.Documents[0]?.LabDocsId ?? '', fileName: 'statement.pdf' },
    { type: 'xstate.done.actor.download', output: undefined },
    { type: 'xstate.error.actor.download', error: new HttpError(404, '/api/document') },
    { type: 'documents.add', files: [pdf] },
    { type: 'upload.dismiss', id: 'upload-1' },
    { type: 'tfn.toggle', index: 0 },
    { type: 'live.changed' },
  ],
  variants: [
    {
      name: 'no card claims',
      input: { applicationId: '1042', claims: noCardClaims },
      events: ['vpn.reload', 'document.download', 'documents.downloadAll', 'documents.add'],
    },
  ],
  view: {
    loading: (screen) => {
      expect(screen.getByRole('status').textContent).toContain('Loading application...');
      expect(screen.queryByRole('heading', { level: 2 })).toBeNull();
    },
    notFound: (screen) => {
      expect(screen.getByRole('alert').textContent).toContain(
        'This application cannot be found. The application may no longer exist or you might not have permission to view it.',
      );
      expect(screen.queryByRole('heading', { name: 'Details' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
    },
    loaded: (screen, snapshot) => {
      const shown = (name: string) => screen.queryByRole('heading', { level: 2, name }) !== null;
      const { detail, configuration } = snapshot.context;
      // AM §2: the cards in the spec's order (all claims held), the activity feed beside them.
      const order = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
      const expected = [
        detail.AccountName,
        ...(detail.IsComplete ? [] : ['Progress']),
        'Exceptions',
        'Details',
        'Approval Status',
        // Before completion only with ShowDocumentListBeforeCompletion.
        ...(detail.IsComplete || configuration.settings.showDocumentListBeforeCompletion ? ['Documents'] : []),
        'Identification requirements',
        'Outstanding documents',
        'Tax Information Details',
        'VPN Summary',
        'Comments',
        'Activity feed',
      ];
      expect(order).toEqual(expected);
      expect(shown('Electronic Verification summary')).toBe(false);
      // AM §8 exception names.
      expect(screen.getByText('California Resident')).toBeTruthy();
      // AM §6: the TFN is blurred (hidden from screen readers) until revealed.
      expect(screen.getByRole('button', { name: 'Reveal TFN of Jo Smith' })).toBeTruthy();
      expect(screen.getByText('TFN hidden')).toBeTruthy();
      // AM §2/§6 with every claim: View, Edit and the Actions menu button (its items are the rules' table, actions-menu-rules.test.ts).
      for (const name of ['View', 'Edit', 'Actions']) {
        expect(screen.getByRole('button', { name }).hasAttribute('disabled')).toBe(false);
      }
      expect(screen.getByRole('button', { name: 'Actions' }).getAttribute('aria-haspopup')).toBe('menu');
      if (snapshot.context.vpn === 'unavailable') {
        expect(screen.getByText('VPN detection results are not available for this application.')).toBeTruthy();
      }
    },
    'loaded.idle': (screen) => expect(screen.queryByText('Refreshing the application')).toBeNull(),
    'loaded.reloading': (screen) => expect(screen.getByText('Refreshing the application')).toBeTruthy(),
    'loaded.refetching': (screen) => expect(screen.getByText('Refreshing the application')).toBeTruthy(),
    // Issue 32: a failed refetch keeps the cards and says so, with a retry.
    'loaded.refreshFailed': (screen) => {
      expect(screen.getByRole('alert').textContent).toContain('The application could not be refreshed.');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Details' })).toBeTruthy();
      expect(screen.queryByText(/This application cannot be found/)).toBeNull();
    },
  },
  expectations: {
    states: {
      loading: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.detail).toBeUndefined();
        expect(snapshot.children.loadDetail).toBeDefined();
      },
      notFound: (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.children.comments).toBeUndefined();
      },
      loaded: (snapshot) => {
        expect(snapshot.context.detail).toBeDefined();
        // The comments child lives exactly as long as the loaded application.
        expect(snapshot.children.comments).toBeDefined();
        // AM §6: without vpnsummary.view nothing about VPNs loads or shows.
        if (!hasVpnClaim(snapshot)) {
          expect(snapshot.context.vpn).toBe('hidden');
          expect(snapshot.children.loadIps).toBeUndefined();
        } else {
          expect(snapshot.context.vpn).not.toBe('hidden');
        }
        if (!snapshot.context.claims.includes('document.upload')) expect(snapshot.context.uploads).toEqual([]);
        if (!snapshot.context.claims.includes('document.download')) expect(snapshot.context.downloading).toBe(false);
      },
      'loaded.idle': (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      'loaded.reloading': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.children.reloadApplication).toBeDefined();
      },
      'loaded.refreshFailed': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.detail).toBeDefined();
      },
      'loaded.refetching': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        // The cards stay while the application is read again.
        expect(snapshot.context.detail).toBeDefined();
      },
    },
    transitions: {
      'loading + xstate.done.actor.loadDetail': ({ after, started }) => {
        expect(after.matches({ loaded: 'idle' })).toBe(true);
        expect(after.context.detail).toEqual(sampleDetail);
        // The feed, the VPN summary (with the claim) and the comments start alongside.
        expect(started.loadActivity).toEqual({ applicationId: '1042' });
        expect(started.comments).toEqual({ applicationId: '1042', claims: after.context.claims });
        if (hasVpnClaim(after)) expect(started.loadIps).toEqual({ applicationId: '1042' });
        else expect(started.loadIps).toBeUndefined();
        expect(after.context.activityLoading).toBe(true);
        // The detail starts its comments: with comments.view they load.
        const comments = after.children.comments?.getSnapshot();
        expect(comments?.value).toEqual(after.context.claims.includes('comments.view') ? 'loading' : { editing: 'validated' });
      },
      // AM §2: a 404 and any other failure read the same.
      'loading + xstate.error.actor.loadDetail': ({ after }) => expect(after.matches('notFound')).toBe(true),
      '(machine) + xstate.done.actor.loadConfiguration': ({ after }) =>
        expect(after.context.configuration).toEqual(configuration),
      'loaded + feed.reload': ({ after, started }) => {
        expect(started.loadActivity).toEqual({ applicationId: '1042' });
        expect(after.context.activityLoading).toBe(true);
      },
      'loaded + xstate.done.actor.loadActivity': ({ before, after }) => {
        // Issue 42: after a colleague's change, the entries newer than the mark are what they did.
        expect(after.context.liveSince).toBeUndefined();
        if (before.context.liveSince === undefined) expect(after.context.liveChanges).toEqual(before.context.liveChanges);
        else if (before.context.liveSince < 1_760_000_500)
          expect(after.context.liveChanges.map((item: { Activity: string }) => item.Activity)).toContain('Comment added');
        else expect(after.context.liveChanges).toEqual(before.context.liveChanges);
        // AM §2: newest first.
        expect(after.context.activity.map((item: { Activity: string }) => item.Activity)).toEqual([
          'Comment added',
          'Application created',
        ]);
        expect(after.context.activityLoading).toBe(false);
        expect(after.context.activityFailed).toBe(false);
      },
      'loaded + xstate.error.actor.loadActivity': ({ after }) => {
        expect(after.context.activityFailed).toBe(true);
        expect(after.context.activityLoading).toBe(false);
      },
      'loaded + vpn.reload': ({ after, started }) => {
        if (hasVpnClaim(after)) {
          expect(started.loadIps).toEqual({ applicationId: '1042' });
          expect(after.context.vpn).toBe('loading');
        } else {
          expect(started).toEqual({});
        }
      },
      'loaded + xstate.done.actor.loadIps': ({ after }) => {
        expect(after.context.vpn).toBe('ready');
        expect(after.context.ips).toEqual(ips);
      },
      // AM §8: 'VPN detection results are not available for this application.'
      'loaded + xstate.error.actor.loadIps': ({ after }) => expect(after.context.vpn).toBe('unavailable'),
      'loaded + document.download': ({ before, after, started }) => {
        expect(before.context.downloading).toBe(false);
        expect(after.context.downloading).toBe(true);
        expect(started.download).toEqual({
          query: { ApplicationGuid: sampleDetail.ApplicationGuid, LabDocsId: sampleDetail.Documents[0]?.LabDocsId },
          fileName: 'statement.pdf',
        });
      },
      'loaded + documents.downloadAll': ({ before, after, started }) => {
        expect(before.context.downloading).toBe(false);
        expect(after.context.downloading).toBe(true);
        expect(started.download).toEqual({ applicationId: '1042' });
      },
      'loaded + xstate.done.actor.download': ({ after }) => {
        expect(after.context.downloading).toBe(false);
        expect(after.context.downloadFailed).toBe(false);
      },
      'loaded + xstate.error.actor.download': ({ after }) => {
        expect(after.context.downloading).toBe(false);
        expect(after.context.downloadFailed).toBe(true);
      },
      'loaded + documents.add': ({ before, after, started }) => {
        expect(after.context.uploads).toHaveLength(before.context.uploads.length + 1);
        const id = `upload-${before.context.uploadCount + 1}`;
        expect(started[id]).toEqual({
          applicationId: '1042',
          file: pdf,
          acceptedExtensions: before.context.configuration.acceptedExtensions,
        });
        // Started at once: a PDF goes straight to uploading.
        expect(after.children[id]?.getSnapshot().value).toBe('uploading');
      },
      'loaded + upload.dismiss': ({ after }) => {
        expect(after.context.uploads.some((upload: { id: string }) => upload.id === 'upload-1')).toBe(false);
        expect(after.children['upload-1']).toBeUndefined();
      },
      'loaded + tfn.toggle': ({ before, after }) =>
        expect(after.context.revealedTfns.includes(0)).toBe(!before.context.revealedTfns.includes(0)),
      'loaded.idle + detail.refresh': ({ after, started }) => {
        expect(after.matches({ loaded: 'reloading' })).toBe(true);
        expect(started.reloadApplication).toEqual({ applicationId: '1042' });
      },
      'loaded.idle + detail.refetch': ({ after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
      },
      // A failed reload still refetches what the server holds.
      'loaded.reloading + xstate.done.actor.reloadApplication': ({ after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
      },
      'loaded.reloading + xstate.error.actor.reloadApplication': ({ after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
      },
      'loaded.refetching + detail.refetch': ({ after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
      },
      // AM §4: after reload the detail is refetched, and the feed and VPN summary with it.
      'loaded.refetching + xstate.done.actor.refetchDetail': ({ after, started }) => {
        expect(after.matches({ loaded: 'idle' })).toBe(true);
        expect(after.context.detail).toEqual(refetchedDetail);
        expect(started.loadActivity).toEqual({ applicationId: '1042' });
        expect(started.loadIps).toEqual({ applicationId: '1042' });
        // Issue 32: one refetch reloads every card, the comments too (the same child reads again).
        expect(started.comments).toBeUndefined();
        if (after.context.claims.includes('comments.view')) expect(after.children.comments?.getSnapshot().value).toEqual('loading');
      },
      // Issue 32: the not-found text is for a failed load; a failed refetch keeps the screen.
      'loaded.refetching + xstate.error.actor.refetchDetail': ({ after }) => {
        expect(after.matches({ loaded: 'refreshFailed' })).toBe(true);
        expect(after.context.detail).toBeDefined();
      },
      'loaded.refreshFailed + detail.refresh': ({ after, started }) => {
        expect(after.matches({ loaded: 'reloading' })).toBe(true);
        expect(started.reloadApplication).toEqual({ applicationId: '1042' });
      },
      'loaded.refreshFailed + detail.refetch': ({ after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
      },
      // Issue 42: a colleague's change reads the cards again and marks the newest activity seen.
      'loaded.idle + live.changed': ({ before, after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
        expect(after.context.liveSince).toBe(before.context.activity[0]?.TimeStamp ?? 0);
      },
      'loaded.refetching + live.changed': ({ before, after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
        expect(after.context.liveSince).toBe(before.context.liveSince ?? before.context.activity[0]?.TimeStamp ?? 0);
      },
      'loaded.refreshFailed + live.changed': ({ after, started }) => {
        expect(after.matches({ loaded: 'refetching' })).toBe(true);
        expect(started.refetchDetail).toEqual({ applicationId: '1042' });
        expect(after.context.liveSince).toEqual(expect.any(Number));
      },
    },
  },
});
