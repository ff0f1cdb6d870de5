import { expect } from 'vitest';
import { fromPromise, type EventObject } from 'xstate';
import { defaultListQuery } from '../../src/domain/application-query.ts';
import { hasFilterSelection } from '../../src/domain/list-filter-summary.ts';
import { applicationListMachine } from '../../src/machines/application-list.machine.ts';
import { cancelApplicationsMachine } from '../../src/machines/cancel-applications.machine.ts';
import { newApplicationOnBehalfMachine } from '../../src/machines/new-application-on-behalf.machine.ts';
import { newApplicationMachine } from '../../src/machines/new-application.machine.ts';
import { pingMachine } from '../../src/machines/ping.machine.ts';
import { allClaims } from '../../src/domain/claims.ts';
import type { ApplicationListRow } from '../../src/schemas/applications.schema.ts';
import { defineMachineModel, type TransitionEffects } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

export const sampleRow: ApplicationListRow = {
  ApplicationID: 1042,
  ApplicationGuid: '0b8f3f52-5d0e-4d7e-9a43-6f1f5d1c0a42',
  AccountName: 'Smith Family Trust',
  PrimaryEmail: 'jo.smith@example.com',
  SubBrandName: 'Premium',
  ProductDisplayNameList: ['Cash Account', 'Managed Fund'],
  ProductDictionary: [
    { Name: 'Cash Account', Value: 'CASH' },
    { Name: 'Managed Fund', Value: 'MF' },
  ],
  ExternalID: 'EXT-1042',
  AccountNumber: '',
  DateCreatedTimestamp: 1_760_000_000,
  DateCompletedTimestamp: -1,
  LastDocumentUploadTimestamp: null,
  ApplicationType: 'Trust',
  ShortApplicationType: 'TR',
  PromoCode: '',
  InvestmentAmount: 250000,
  Language: 'English',
  AdviserName: 'Olivia Owner',
  ClientName: 'Jo Smith',
  LowDocStatus: '',
  DocumentCount: 2,
  UserUploadCount: 0,
  ApplicationModeCode: 'Pin',
  Status: 'Primary edit',
  PercentageComplete: 40,
  AssigneeDisplayName: '',
  Label: '',
  SystemLabel: '',
  AssigneeUserId: null,
};

const filtered = { ...defaultListQuery, status: ['Complete'] };

/** The kind of a sample live event. */
const kindOf = (value: unknown): string =>
  typeof value === 'object' && value !== null && 'kind' in value && typeof value.kind === 'string' ? value.kind : '';

/**
 * Issue 42: a change to a row on the page reads the page again; rows that arrive or leave are
 * counted for the banner (an arrival already on the page, a departure not on it, are not).
 */
function expectLiveEvent({ event, before, after, started }: TransitionEffects): void {
  const shown = before.context.rows.some((row: ApplicationListRow) => row.ApplicationID === 1042);
  const reread = { rereadList: { scope: 'my', query: before.context.query } };
  const kind = kindOf(event.event);
  if (kind === 'changed') {
    expect(started).toEqual(shown ? reread : {});
    expect(after.context.liveArrivals).toEqual(before.context.liveArrivals);
  } else if (kind === 'added') {
    expect(started).toEqual({});
    expect(after.context.liveArrivals.added).toContain(2001);
  } else if (kind === 'removed') {
    expect(started).toEqual(shown ? reread : {});
    expect(after.context.liveArrivals.removed).toEqual(shown ? expect.arrayContaining([1042]) : before.context.liveArrivals.removed);
  } else {
    // A reset names nothing: the shown rows, if any, are read again.
    expect(started).toEqual(before.context.rows.length > 0 ? reread : {});
    expect(after.context.liveArrivals.stale).toBe(true);
  }
  // Nothing moves: the rows and the ticks stay until the page is read again.
  expect(after.context.rows).toEqual(before.context.rows);
  expect(after.context.selection).toEqual(before.context.selection);
  expect(after.matches({ live: 'rereading' })).toBe(Object.keys(started).length > 0 || before.matches({ live: 'rereading' }));
  // The other regions are where they were: a live event never reloads nor closes anything.
  expect(after.value.list).toEqual(before.value.list);
  expect(after.value.activity).toEqual(before.value.activity);
}

/** sampleRow as a colleague left it, and a row that arrived on the page meanwhile (issue 42). */
const freshRow: ApplicationListRow = { ...sampleRow, Status: 'Complete', AssigneeDisplayName: 'Sam Lee' };
const arrivedRow: ApplicationListRow = { ...sampleRow, ApplicationID: 2001, ApplicationGuid: '5c1d2e3f-0000-4000-8000-000000002001', AccountName: 'Arrived Pty Ltd' };

/** The claims a person needs for each list behaviour (AM §6), written out rather than read from the rules. */
const createOnly = ['view.myapps', 'app.create'];
const viewOnly = ['view.myapps'];

const guidsOf = (rows: readonly ApplicationListRow[]) => rows.map((row) => row.ApplicationGuid);

/** The machine asked the page to follow exactly one address containing `fragment`. */
function expectNavigation(emitted: EventObject[], fragment: string): void {
  expect(emitted).toEqual([{ type: 'navigate', to: expect.stringContaining(fragment) }]);
  expect(emitted[0]).toMatchObject({ to: expect.stringMatching(/^\/list(\?|$)/) });
}

/** The form's address in a `newApplication*` output, if the server gave one. */
const outputUrl = (output: unknown): string | undefined =>
  output && typeof output === 'object' && 'url' in output && typeof output.url === 'string' ? output.url : undefined;

/** The load started with this step, and what it was asked for. */
function expectLoadStarted(started: Record<string, unknown>, query: unknown): void {
  expect(started.loadList).toEqual({ scope: 'my', query });
}

/**
 * The list with inert actors (the child dialogs are their own models: cancel-applications and
 * new-application). Context that guards read through several steps is part of the vertex: whether
 * the Filters modal has a selection, whether rows have loaded, whether some are ticked (so a path
 * fails a load, or leaves a bad address, with rows and a selection in hand).
 */
export default defineMachineModel({
  name: 'application-list',
  machine: applicationListMachine.provide({
    actors: {
      loadList: never(),
      rereadList: never(),
      loadColumns: never(),
      loadFilterOptions: never(),
      exportApplications: never(),
      // The children, inert too; their own paths are in their models.
      ping: pingMachine.provide({ actors: { ping: never() } }),
      cancelApplications: cancelApplicationsMachine.provide({ actors: { cancelApplications: never() } }),
      newApplication: newApplicationMachine.provide({ actors: { createApplication: never() } }),
      newApplicationOnBehalf: newApplicationOnBehalfMachine.provide({
        actors: { loadOwners: never(), createOnBehalf: never() },
      }),
    },
    actions: {
      restoreViewPreference: () => {},
      storeViewPreference: () => {},
    },
  }),
  // Every claim: New picks an owner first, rows can be ticked and cancelled, the list exported.
  input: { scope: 'my', claims: allClaims, width: 1440 },
  preconditions: 'My Applications (/list) opened by a user holding every claim, in a 1440 px wide window',
  // The guards are walked with real claim sets: app.create alone creates at once; without
  // app.create, app.cancel or app.export, New, ticking, Cancel and Export do nothing.
  variants: [
    {
      name: 'view.myapps, app.create',
      input: { scope: 'my', claims: createOnly, width: 1440 },
      events: ['application.new', 'xstate.done.actor.newApplication', 'selection.change', 'cancel.open', 'export.start'],
    },
    {
      name: 'view.myapps',
      input: { scope: 'my', claims: viewOnly, width: 1440 },
      events: ['application.new'],
    },
  ],
  contextKey: (snapshot) => ({
    draft: hasFilterSelection(snapshot.context.filterDraft),
    rows: snapshot.context.rows.length > 0,
    ticked: snapshot.context.selection.length > 0,
  }),
  events: [
    { type: 'query.changed', query: defaultListQuery, view: undefined },
    { type: 'query.changed', query: filtered, view: 'email' },
    { type: 'query.invalid', message: 'pageNo: must be a whole number from 1' },
    { type: 'xstate.done.actor.loadList', output: { Applications: [sampleRow], MaxPage: 1, TotalRows: 1 } },
    { type: 'xstate.error.actor.loadList', error: new Error('network down') },
    { type: 'xstate.done.actor.loadColumns', output: ['ID', 'AccountName', 'Status', 'Actions'] },
    { type: 'xstate.error.actor.loadColumns', error: new Error('forbidden') },
    {
      type: 'xstate.done.actor.loadFilterOptions',
      output: { status: [], subBrand: [], assignee: [], label: [], sysLabel: [], products: [] },
    },
    { type: 'search.submit', text: ' smith ' },
    { type: 'sort.change', column: 'Status' },
    { type: 'filter.remove', key: 'status' },
    { type: 'filters.change', key: 'status', values: ['Complete'] },
    { type: 'selection.change', guids: [sampleRow.ApplicationGuid] },
    { type: 'row.activate', guid: sampleRow.ApplicationGuid },
    { type: 'cancel.open', guids: [sampleRow.ApplicationGuid] },
    { type: 'xstate.done.actor.cancelApplications', output: { cancelledAny: true } },
    { type: 'xstate.done.actor.cancelApplications', output: { cancelledAny: false } },
    { type: 'xstate.done.actor.newApplication', output: { url: 'https://forms.demo.test/application/77' } },
    { type: 'xstate.done.actor.newApplication', output: { url: undefined } },
    { type: 'xstate.done.actor.newApplicationOnBehalf', output: { url: 'https://forms.demo.test/application/78' } },
    { type: 'xstate.done.actor.newApplicationOnBehalf', output: { url: undefined } },
    { type: 'xstate.done.actor.exportApplications' },
    { type: 'xstate.error.actor.exportApplications', error: new Error('network down') },
    { type: 'view.select', view: 'email' },
    { type: 'viewport.resized', width: 1024 },
    // Colleagues' changes (issue 42): application 1042 is sampleRow, 2001 is on no page read here.
    { type: 'live.event', event: { kind: 'changed', ApplicationIDs: [1042] } },
    { type: 'live.event', event: { kind: 'added', ApplicationIDs: [2001] } },
    { type: 'live.event', event: { kind: 'removed', ApplicationIDs: [1042] } },
    { type: 'live.event', event: { kind: 'reset', ApplicationIDs: [] } },
    { type: 'live.show' },
    { type: 'live.announce' },
    {
      type: 'xstate.done.actor.rereadList',
      output: { query: defaultListQuery, response: { Applications: [freshRow, arrivedRow], MaxPage: 1, TotalRows: 2 } },
    },
    { type: 'xstate.error.actor.rereadList', error: new Error('network down') },
  ],
  // What the list page shows (tests/machines/application-list.view.test.tsx). With a dialog open
  // the page behind it is inert (hidden from the accessibility tree) but still on screen.
  view: {
    'list.loading': (screen, snapshot) => {
      const hidden = !snapshot.matches({ activity: 'idle' });
      expect(screen.getByRole('heading', { level: 1, hidden })).toBeTruthy();
      expect(screen.queryByText('The applications could not be loaded.')).toBeNull();
    },
    'list.succeeded': (screen, snapshot) => {
      const hidden = !snapshot.matches({ activity: 'idle' });
      expect(screen.getByRole('grid', { name: 'Applications', hidden })).toBeTruthy();
      expect(screen.getAllByText('Smith Family Trust').length).toBeGreaterThan(0);
      expect(screen.queryByRole('button', { name: 'Retry', hidden: true })).toBeNull();
    },
    // AM §8: an empty list, the failure and Retry.
    'list.failed': (screen, snapshot) => {
      // Open question (reported with issue 18): a load that fails behind the cancel dialog shows no
      // failure text in jsdom; checked again once the dialog closes.
      if (snapshot.matches({ activity: 'cancelling' })) return;
      // The split (email) view loads lazily, and these steps are synchronous: it is still its
      // placeholder here. Paths through the live region reach a failure in it (issue 42).
      if (snapshot.context.viewPreference === 'email') return;
      const hidden = !snapshot.matches({ activity: 'idle' });
      expect(screen.getByText('The applications could not be loaded.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry', hidden })).toBeTruthy();
      expect(screen.queryByText('Smith Family Trust')).toBeNull();
    },
    'list.invalidAddress': (screen, snapshot) => {
      const hidden = !snapshot.matches({ activity: 'idle' });
      expect(screen.getByText(/This list address cannot be read \(pageNo: must be a whole number from 1\)\./)).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Show all applications', hidden })).toBeTruthy();
    },
  },
  expectations: {
    states: {
      'list.idle': (snapshot) => {
        const { context } = snapshot;
        expect(context.rows).toEqual([]);
        expect(context.totalRows).toBeUndefined();
        expect(snapshot.hasTag('loading')).toBe(false);
      },
      'list.loading': (snapshot) => {
        const { children } = snapshot;
        expect(snapshot.hasTag('loading')).toBe(true);
        expect(children.loadList).toBeDefined();
      },
      'list.succeeded': (snapshot) => {
        const { context } = snapshot;
        expect(snapshot.hasTag('loading')).toBe(false);
        expect(context.totalRows).toEqual(expect.any(Number));
        // Only rows on the page can be ticked.
        for (const guid of context.selection) expect(guidsOf(context.rows)).toContain(guid);
      },
      // AM §8: a failed list is an empty list, nothing ticked, no total.
      'list.failed': (snapshot) => {
        const { context } = snapshot;
        expect(context.rows).toEqual([]);
        expect(context.selection).toEqual([]);
        expect(context.totalRows).toBeUndefined();
        expect(context.maxPage).toBe(0);
        expect(snapshot.hasTag('loading')).toBe(false);
      },
      'list.invalidAddress': (snapshot) => {
        const { context } = snapshot;
        expect(context.addressProblem).toEqual(expect.stringContaining('pageNo'));
        expect(snapshot.hasTag('loading')).toBe(false);
      },
      'activity.idle': (snapshot) => {
        const { children } = snapshot;
        expect(children.cancelApplications).toBeUndefined();
        expect(children.newApplication).toBeUndefined();
        expect(children.newApplicationOnBehalf).toBeUndefined();
        expect(snapshot.hasTag('exporting')).toBe(false);
      },
      'activity.filtering': (snapshot) => expect(snapshot.hasTag('exporting')).toBe(false),
      'live.watching': ({ children }) => expect(children.rereadList).toBeUndefined(),
      'live.rereading': ({ children }) => expect(children.rereadList).toBeDefined(),
      'activity.cancelling': ({ context, children }) => {
        expect(context.claims).toContain('app.cancel');
        expect(context.cancelTargets.length).toBeGreaterThan(0);
        expect(children.cancelApplications).toBeDefined();
      },
      'activity.creating': ({ context, children }) => {
        expect(context.claims).toContain('app.create');
        expect(context.claims).not.toContain('app.createonbehalf');
        expect(children.newApplication).toBeDefined();
      },
      'activity.creatingOnBehalf': ({ context, children }) => {
        expect(context.claims).toContain('app.createonbehalf');
        expect(children.newApplicationOnBehalf).toBeDefined();
      },
      'activity.exporting': (snapshot) => {
        const { context, children } = snapshot;
        expect(context.claims).toContain('app.export');
        expect(snapshot.hasTag('exporting')).toBe(true);
        expect(context.exportFailed).toBe(false);
        expect(children.exportApplications).toBeDefined();
      },
    },
    transitions: {
      '(machine) + search.submit': ({ event, before, emitted }) => {
        // The same search again changes nothing; a new one is a new address.
        const text = String(event.text).trim();
        if (text === before.context.query.q) expect(emitted).toEqual([]);
        else expectNavigation(emitted, `q=${text}`);
      },
      '(machine) + sort.change': ({ emitted }) => expectNavigation(emitted, 'sortBy=Status'),
      '(machine) + filter.remove': ({ before, emitted }) => {
        expectNavigation(emitted, '/list');
        expect(emitted[0]).not.toMatchObject({ to: expect.stringContaining('status=') });
        expect(before.context.query).toBeDefined();
      },
      '(machine) + filters.clearAll': ({ emitted }) => {
        expectNavigation(emitted, '/list');
        expect(emitted[0]).not.toMatchObject({ to: expect.stringMatching(/status=|subBrand=|assignee=|label=/) });
      },
      '(machine) + view.select': ({ after, emitted }) => {
        expectNavigation(emitted, 'view=email');
        expect(after.context.viewPreference).toBe('email');
        expect(after.context.storedView).toBe('email');
      },
      '(machine) + viewport.resized': ({ before, after, emitted }) => {
        expect(after.context.pendingWidth).toBe(1024);
        // The layout waits for the resizing to settle.
        expect(after.context.width).toBe(before.context.width);
        expect(emitted).toEqual([]);
      },
      '(machine) + viewport.settle': ({ before, after }) => expect(after.context.width).toBe(before.context.pendingWidth),
      '(machine) + xstate.done.actor.loadColumns': ({ after }) =>
        expect(after.context.columnNames).toEqual(['ID', 'AccountName', 'Status', 'Actions']),
      // Without the configuration the always-visible columns still show.
      '(machine) + xstate.error.actor.loadColumns': ({ after }) => expect(after.context.columnNames).toEqual([]),
      '(machine) + xstate.done.actor.loadFilterOptions': ({ event, after }) =>
        expect(after.context.filterOptions).toEqual(event.output),
      'list + query.changed': ({ event, before, after, started, emitted }) => {
        expect(emitted).toEqual([]);
        if (JSON.stringify(event.query) === JSON.stringify(before.context.query)) {
          // The same list in another view: no reload, the selection stays.
          expect(after.context.query).toEqual(before.context.query);
          expect(after.context.selection).toEqual(before.context.selection);
          expect(started).toEqual({});
          expect(after.context.viewPreference).toBe(event.view ?? before.context.storedView);
        } else {
          expect(after.matches({ list: 'loading' })).toBe(true);
          expect(after.context.query).toEqual(event.query);
          expect(after.context.selection).toEqual([]);
          expectLoadStarted(started, event.query);
        }
      },
      'list + query.invalid': ({ after, started }) => {
        expect(after.matches({ list: 'invalidAddress' })).toBe(true);
        expect(after.context.addressProblem).toBe('pageNo: must be a whole number from 1');
        expect(started).toEqual({});
      },
      'list + list.refresh': ({ before, after, started }) => {
        expect(after.matches({ list: 'loading' })).toBe(true);
        expectLoadStarted(started, before.context.query);
      },
      'list.idle + query.changed': ({ event, after, started }) => {
        expect(after.matches({ list: 'loading' })).toBe(true);
        expect(after.context.query).toEqual(event.query);
        expectLoadStarted(started, event.query);
      },
      'list.loading + xstate.done.actor.loadList': ({ after }) => {
        expect(after.matches({ list: 'succeeded' })).toBe(true);
        expect(after.context.rows).toEqual([sampleRow]);
        expect(after.context.totalRows).toBe(1);
        expect(after.context.maxPage).toBe(1);
        expect(after.context.activeGuid).toBe(sampleRow.ApplicationGuid);
      },
      'list.loading + xstate.error.actor.loadList': ({ after, started }) => {
        expect(after.matches({ list: 'failed' })).toBe(true);
        expect(after.context.rows).toEqual([]);
        expect(after.context.selection).toEqual([]);
        expect(after.context.totalRows).toBeUndefined();
        expect(started).toEqual({});
      },
      'list.succeeded + selection.change': ({ before, after }) => {
        // Ticking needs app.cancel (AM §6).
        if (before.context.claims.includes('app.cancel')) expect(after.context.selection).toEqual([sampleRow.ApplicationGuid]);
        else expect(after.context.selection).toEqual(before.context.selection);
      },
      'list.succeeded + row.activate': ({ after }) => expect(after.context.activeGuid).toBe(sampleRow.ApplicationGuid),
      // Retry loads the same list again.
      'list.failed + list.retry': ({ before, after, started }) => {
        expect(after.matches({ list: 'loading' })).toBe(true);
        expectLoadStarted(started, before.context.query);
      },
      'list.invalidAddress + query.changed': ({ event, after, started }) => {
        expect(after.matches({ list: 'loading' })).toBe(true);
        expect(after.context.query).toEqual(event.query);
        expect(after.context.selection).toEqual([]);
        expect(after.context.addressProblem).toBeUndefined();
        expectLoadStarted(started, event.query);
      },
      'activity.idle + filters.open': ({ before, after }) => {
        expect(after.matches({ activity: 'filtering' })).toBe(true);
        expect(after.context.filterDraft.status).toEqual(before.context.query.status);
      },
      'activity.idle + cancel.open': ({ before, after, started }) => {
        const onPage = before.context.rows.some((row: ApplicationListRow) => row.ApplicationGuid === sampleRow.ApplicationGuid);
        if (before.context.claims.includes('app.cancel') && onPage) {
          const targets = [
            { applicationGuid: sampleRow.ApplicationGuid, applicationId: sampleRow.ApplicationID, accountName: sampleRow.AccountName },
          ];
          expect(after.context.cancelTargets).toEqual(targets);
          expect(started.cancelApplications).toEqual({ applications: targets });
        } else {
          expect(after.matches({ activity: 'idle' })).toBe(true);
          expect(started).toEqual({});
        }
      },
      'activity.idle + application.new': ({ before, after, started }) => {
        const { claims } = before.context;
        if (claims.includes('app.createonbehalf')) {
          expect(after.matches({ activity: 'creatingOnBehalf' })).toBe(true);
          expect(Object.keys(started)).toEqual(['newApplicationOnBehalf']);
        } else if (claims.includes('app.create')) {
          expect(after.matches({ activity: 'creating' })).toBe(true);
          expect(Object.keys(started)).toEqual(['newApplication']);
        } else {
          expect(after.matches({ activity: 'idle' })).toBe(true);
          expect(started).toEqual({});
        }
      },
      'activity.idle + export.start': ({ before, after, started }) => {
        if (before.context.claims.includes('app.export')) {
          expect(after.matches({ activity: 'exporting' })).toBe(true);
          expect(started.exportApplications).toEqual({ scope: 'my', query: before.context.query });
        } else {
          expect(after.matches({ activity: 'idle' })).toBe(true);
          expect(started).toEqual({});
        }
      },
      'activity.idle + export.dismiss': ({ after }) => expect(after.context.exportFailed).toBe(false),
      'activity.filtering + filters.change': ({ after }) => expect(after.context.filterDraft.status).toEqual(['Complete']),
      'activity.filtering + filters.clear': ({ after }) => expect(hasFilterSelection(after.context.filterDraft)).toBe(false),
      'activity.filtering + filters.apply': ({ before, after, emitted }) => {
        if (JSON.stringify(before.context.filterDraft.status) === JSON.stringify(before.context.query.status)) {
          // Nothing differs from the current filters: Apply does nothing.
          expect(after.matches({ activity: 'filtering' })).toBe(true);
          expect(emitted).toEqual([]);
        } else {
          expect(after.matches({ activity: 'idle' })).toBe(true);
          expectNavigation(emitted, '/list');
          const filters = before.context.filterDraft.status.length ? 'toMatchObject' : 'not';
          if (filters === 'not') expect(emitted[0]).not.toMatchObject({ to: expect.stringContaining('status=') });
          else expect(emitted[0]).toMatchObject({ to: expect.stringContaining('status=%5B%22Complete%22%5D') });
          expect(hasFilterSelection(after.context.filterDraft)).toBe(false);
        }
      },
      'activity.filtering + filters.cancel': ({ after, emitted }) => {
        expect(after.matches({ activity: 'idle' })).toBe(true);
        expect(emitted).toEqual([]);
        expect(hasFilterSelection(after.context.filterDraft)).toBe(false);
      },
      'activity.cancelling + xstate.done.actor.cancelApplications': ({ event, before, after, started }) => {
        expect(after.matches({ activity: 'idle' })).toBe(true);
        if (event.output && typeof event.output === 'object' && 'cancelledAny' in event.output && event.output.cancelledAny) {
          // Something was cancelled: the ticks go and the list reloads.
          expect(after.context.selection).toEqual([]);
          expectLoadStarted(started, before.context.query);
        } else {
          expect(after.context.selection).toEqual(before.context.selection);
          expect(started).toEqual({});
        }
      },
      'activity.creating + xstate.done.actor.newApplication': ({ event, after, emitted }) => {
        expect(after.matches({ activity: 'idle' })).toBe(true);
        const url = outputUrl(event.output);
        expect(emitted).toEqual(url ? [{ type: 'window.open', url }] : []);
      },
      'activity.creatingOnBehalf + xstate.done.actor.newApplicationOnBehalf': ({ event, after, emitted }) => {
        expect(after.matches({ activity: 'idle' })).toBe(true);
        const url = outputUrl(event.output);
        expect(emitted).toEqual(url ? [{ type: 'window.open', url }] : []);
      },
      // Issue 42: a change to a row on the page reads the page again; rows that arrive or leave are
      // counted for the banner (an arrival already on the page, a departure not on it, are not).
      'live.watching + live.event': expectLiveEvent,
      'live.rereading + live.event': expectLiveEvent,
      'live + live.show': ({ before, after, started }) => {
        expect(after.matches({ list: 'loading' })).toBe(true);
        expectLoadStarted(started, before.context.query);
      },
      'live + live.announce': ({ after }) => {
        const { added, removed, stale } = after.context.liveArrivals;
        if (added.length === 0 && removed.length === 0 && !stale) expect(after.context.liveAnnouncement).toBe('');
        else expect(after.context.liveAnnouncement).toMatch(/^(\d+ new applications?|\d+ applications? removed|\d+ new applications?, \d+ removed|This list has changed)$/);
      },
      // In place: the shown row takes its new values, the arrived row is not placed, the ticks stay.
      'live.rereading + xstate.done.actor.rereadList': ({ before, after }) => {
        expect(after.matches({ live: 'watching' })).toBe(true);
        const current = JSON.stringify(before.context.query) === JSON.stringify(defaultListQuery);
        expect(after.context.rows).toEqual(
          before.context.rows.map((row: ApplicationListRow) => (current && row.ApplicationID === 1042 ? freshRow : row)),
        );
        expect(after.context.rows.map((row: ApplicationListRow) => row.ApplicationID)).not.toContain(2001);
        expect(after.context.selection).toEqual(before.context.selection);
        expect(after.context.totalRows).toBe(before.context.totalRows);
      },
      'live.rereading + xstate.error.actor.rereadList': ({ before, after }) => {
        expect(after.matches({ live: 'watching' })).toBe(true);
        expect(after.context.rows).toEqual(before.context.rows);
      },
      'activity.exporting + xstate.done.actor.exportApplications': ({ after }) => {
        expect(after.matches({ activity: 'idle' })).toBe(true);
        expect(after.context.exportFailed).toBe(false);
      },
      'activity.exporting + xstate.error.actor.exportApplications': ({ after }) => {
        expect(after.matches({ activity: 'idle' })).toBe(true);
        expect(after.context.exportFailed).toBe(true);
      },
    },
  },
});
