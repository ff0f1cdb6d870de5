import { createActorContext } from '@xstate/react';
import { assign, cancel, emit, fromPromise, raise, setup } from 'xstate';
import {
  defaultListQuery,
  listQueryToApiParams,
  nextSort,
  withQueryChange,
  type ApplicationListQuery,
} from '../domain/application-query.ts';
import {
  canApplyFilters,
  defaultFilterOptions,
  emptyFilterSelection,
  filterSelectionOf,
  hasFilterSelection,
  statusOptions,
  withNoneOption,
  withoutAnyFilter,
  withoutFilter,
  type FilterOptions,
  type FilterSelection,
  type ModalFilterKey,
  type SummaryKey,
} from '../domain/list-filter-summary.ts';
import { listPermissions, newApplicationMode } from '../domain/list-permissions.ts';
import { liveBannerText, noArrivals, rowsUpdatedInPlace, type LiveArrivals } from '../domain/live-changes.ts';
import type { LiveEvent } from '../schemas/live-events.schema.ts';
import { listHref, type ListScope, type ListView } from '../domain/list-view.ts';
import type { Claims } from '../domain/permissions.ts';
import type { ApplicationListResponse, ApplicationListRow, SortColumn } from '../schemas/applications.schema.ts';
import type { NameValue } from '../schemas/applications.schema.ts';
import {
  exportApplications,
  listApplications,
  readViewPreference,
  saveViewPreference,
  visibleColumnNames,
} from '../services/applications.service.ts';
import { assignees, labels, products, subBrands, systemInformation, systemLabels } from '../services/lookups.service.ts';
import {
  cancelApplicationsMachine,
  type CancelApplicationsOutput,
  type CancelTarget,
} from './cancel-applications.machine.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';
import { newApplicationOnBehalfMachine } from './new-application-on-behalf.machine.ts';
import { newApplicationMachine, type NewApplicationOutput } from './new-application.machine.ts';
import { pingMachine } from './ping.machine.ts';

export interface ApplicationListInput {
  scope: ListScope;
  claims: Claims;
  /** The window's width when the list mounts (the view reports later changes). */
  width: number;
}

export interface ApplicationListContext {
  scope: ListScope;
  claims: Claims;
  /** The list as the address describes it: the address is the source of truth (AM §2). */
  query: ApplicationListQuery;
  /** The view the address asks for, else the stored preference (AM §2 viewPreference). */
  viewPreference: ListView;
  storedView: ListView;
  /** The window width the layout follows: changes settle 150 ms after the last resize (AM §9). */
  width: number;
  pendingWidth: number;
  rows: ApplicationListRow[];
  /** Undefined until a page has loaded, and after a failure. */
  totalRows: number | undefined;
  maxPage: number;
  /** When the rows arrived: list dates within the last year show the time (AM §9). */
  loadedAt: number;
  /** ApplicationGuids ticked for cancelling (only with app.cancel). */
  selection: string[];
  /** The row the email view shows on the right. */
  activeGuid: string | undefined;
  /** The tenant's visible columns; undefined until known. */
  columnNames: string[] | undefined;
  filterOptions: FilterOptions;
  /** The Filters modal's selection while it is open. */
  filterDraft: FilterSelection;
  cancelTargets: CancelTarget[];
  exportFailed: boolean;
  /** Why the address could not be read, e.g. 'pageNo: must be a whole number from 1'. */
  addressProblem: string | undefined;
  /** Colleagues' rows that arrived or left since the page was read (the banner counts them until Show). */
  liveArrivals: LiveArrivals;
  /** What the polite live region says: the banner's text, settled a moment after the last event (one announcement, not one per event). */
  liveAnnouncement: string;
}

export type ApplicationListEvent =
  | { type: 'query.changed'; query: ApplicationListQuery; view: ListView | undefined }
  | { type: 'query.invalid'; message: string }
  | { type: 'list.refresh' }
  | { type: 'list.retry' }
  | { type: 'search.submit'; text: string }
  | { type: 'sort.change'; column: SortColumn }
  | { type: 'filter.remove'; key: SummaryKey }
  | { type: 'filters.clearAll' }
  | { type: 'filters.open' }
  | { type: 'filters.change'; key: ModalFilterKey; values: string[] }
  | { type: 'filters.apply' }
  | { type: 'filters.clear' }
  | { type: 'filters.cancel' }
  | { type: 'selection.change'; guids: string[] }
  | { type: 'row.activate'; guid: string }
  | { type: 'cancel.open'; guids: string[] }
  | { type: 'application.new' }
  | { type: 'export.start' }
  | { type: 'export.dismiss' }
  | { type: 'view.select'; view: ListView }
  | { type: 'viewport.resized'; width: number }
  | { type: 'viewport.settle' }
  | { type: 'live.event'; event: LiveEvent }
  | { type: 'live.show' }
  | { type: 'live.announce' };

type LiveListEvent = Extract<ApplicationListEvent, { type: 'live.event' }>;

/** What the page does for the machine: follow an address (the history keeps it), open a new window. */
export type ApplicationListEmitted = { type: 'navigate'; to: string } | { type: 'window.open'; url: string };

const sameQuery = (a: ApplicationListQuery, b: ApplicationListQuery): boolean =>
  listQueryToApiParams(a).toString() === listQueryToApiParams(b).toString();

const options = (list: readonly NameValue[]): NameValue[] => list.map(({ Name, Value }) => ({ Name, Value }));

/** Every filter's options at once; any list that cannot load keeps its default (AM §2 '(None)' included). */
async function loadFilterOptions(): Promise<FilterOptions> {
  const [information, subBrandList, assigneeList, labelList, tagList, productList] = await Promise.allSettled([
    systemInformation(),
    subBrands(),
    assignees(),
    labels(),
    systemLabels(),
    products(),
  ]);
  const orNone = (result: PromiseSettledResult<readonly NameValue[]>, fallback: NameValue[]) =>
    result.status === 'fulfilled' ? withNoneOption(options(result.value)) : fallback;
  return {
    status:
      information.status === 'fulfilled'
        ? statusOptions(information.value.ApplicationStatuses)
        : defaultFilterOptions.status,
    subBrand: orNone(subBrandList, defaultFilterOptions.subBrand),
    assignee: orNone(assigneeList, defaultFilterOptions.assignee),
    label: orNone(labelList, defaultFilterOptions.label),
    sysLabel: orNone(tagList, defaultFilterOptions.sysLabel),
    products: orNone(productList, defaultFilterOptions.products),
  };
}

/**
 * A live event in either state of the live region: a change to a shown row (re)starts the page's
 * re-read; every event is counted for the banner, announced once the burst settles. On the child
 * states, not the region: re-entering a region of a parallel state would re-enter its siblings too.
 */
const liveEventTransitions = (rereading: 'rereading') => [
  {
    guard: { type: 'touchesShownRows', params: ({ event }: { event: LiveListEvent }) => ({ event: event.event }) },
    target: rereading,
    reenter: true,
    actions: [
      { type: 'countArrivals', params: ({ event }: { event: LiveListEvent }) => ({ event: event.event }) },
      'cancelAnnouncement',
      'scheduleAnnouncement',
    ],
  },
  {
    actions: [
      { type: 'countArrivals', params: ({ event }: { event: LiveListEvent }) => ({ event: event.event }) },
      'cancelAnnouncement',
      'scheduleAnnouncement',
    ],
  },
] as const;

const changedHref = (context: ApplicationListContext, change: Partial<ApplicationListQuery>): string =>
  listHref(context.scope, withQueryChange(context.query, change), context.viewPreference);

/**
 * The application list (AM §2, §4, §7, §8, §9). The address is the source of truth: the page reads
 * it and sends `query.changed`; filters, search and sort never change the list directly but ask the
 * page to navigate (emitted `navigate`), which the history keeps, so reload and back/forward restore
 * the exact list. Every new query reloads (a newer load stops the older one, so a stale answer can
 * never overwrite a newer one) and clears the selection. The session ping runs while it lives.
 */
export const applicationListMachine = setup({
  types: typesOf<{
    context: ApplicationListContext;
    events: ApplicationListEvent;
    input: ApplicationListInput;
    emitted: ApplicationListEmitted;
    tags: 'loading' | 'exporting';
    children: {
      cancelApplications: 'cancelApplications';
      newApplication: 'newApplication';
      newApplicationOnBehalf: 'newApplicationOnBehalf';
    };
  }>(),
  actors: {
    loadList: fromPromise<ApplicationListResponse, { scope: ListScope; query: ApplicationListQuery }>(({ input }) =>
      listApplications(input.scope, input.query),
    ),
    // The same page read again for colleagues' changes; the query comes back with it, so an answer
    // for a list the address has since left is dropped.
    rereadList: fromPromise<
      { query: ApplicationListQuery; response: ApplicationListResponse },
      { scope: ListScope; query: ApplicationListQuery }
    >(async ({ input }) => ({ query: input.query, response: await listApplications(input.scope, input.query) })),
    loadColumns: fromPromise<string[]>(() => visibleColumnNames()),
    loadFilterOptions: fromPromise<FilterOptions>(() => loadFilterOptions()),
    exportApplications: fromPromise<void, { scope: ListScope; query: ApplicationListQuery }>(({ input }) =>
      exportApplications(input.scope, input.query),
    ),
    ping: pingMachine,
    cancelApplications: cancelApplicationsMachine,
    newApplication: newApplicationMachine,
    newApplicationOnBehalf: newApplicationOnBehalfMachine,
  },
  guards: {
    isNewQuery: ({ context }, params: { query: ApplicationListQuery }) => !sameQuery(context.query, params.query),
    isNewSearch: ({ context }, params: { text: string }) => params.text.trim() !== context.query.q,
    canSelect: ({ context }) => listPermissions(context.claims).cancel,
    canCancelRows: ({ context }, params: { guids: string[] }) =>
      listPermissions(context.claims).cancel && context.rows.some((row) => params.guids.includes(row.ApplicationGuid)),
    createsOnBehalf: ({ context }) => newApplicationMode(context.claims) === 'onBehalf',
    createsDirectly: ({ context }) => newApplicationMode(context.claims) === 'direct',
    canExport: ({ context }) => listPermissions(context.claims).export,
    canApplyFilters: ({ context }) => canApplyFilters(context.filterDraft, context.query),
    hasFilterSelection: ({ context }) => hasFilterSelection(context.filterDraft),
    didCancel: (_, params: { output: CancelApplicationsOutput }) => params.output.cancelledAny,
    hasUrl: (_, params: { output: NewApplicationOutput }) => Boolean(params.output.url),
    touchesShownRows: ({ context }, params: { event: LiveEvent }) =>
      (params.event.kind === 'reset' && context.rows.length > 0) ||
      (params.event.kind !== 'added' && context.rows.some((row) => params.event.ApplicationIDs.includes(row.ApplicationID))),
    isCurrentQuery: ({ context }, params: { query: ApplicationListQuery }) => sameQuery(context.query, params.query),
  },
  actions: {
    restoreViewPreference: assign(() => {
      const stored = readViewPreference();
      return { storedView: stored, viewPreference: stored };
    }),
    storeViewPreference: (_, params: { view: ListView }) => saveViewPreference(params.view),
    assignViewPreference: assign((_, params: { view: ListView }) => ({ storedView: params.view, viewPreference: params.view })),
    assignQuery: assign(({ context }, params: { query: ApplicationListQuery; view: ListView | undefined }) => ({
      query: params.query,
      viewPreference: params.view ?? context.storedView,
      addressProblem: undefined,
    })),
    assignView: assign(({ context }, params: { view: ListView | undefined }) => ({
      viewPreference: params.view ?? context.storedView,
    })),
    assignAddressProblem: assign((_, params: { message: string }) => ({ addressProblem: params.message })),
    clearSelection: assign({ selection: [] }),
    assignResult: assign(({ context }, params: { response: ApplicationListResponse }) => {
      const rows = params.response.Applications;
      const guids = new Set(rows.map((row) => row.ApplicationGuid));
      return {
        rows,
        totalRows: params.response.TotalRows,
        maxPage: params.response.MaxPage,
        loadedAt: Date.now(),
        selection: context.selection.filter((guid) => guids.has(guid)),
        activeGuid: context.activeGuid && guids.has(context.activeGuid) ? context.activeGuid : rows[0]?.ApplicationGuid,
        liveArrivals: noArrivals,
        liveAnnouncement: '',
      };
    }),
    assignRowsInPlace: assign(({ context }, params: { response: ApplicationListResponse }) => ({
      rows: rowsUpdatedInPlace(context.rows, params.response.Applications),
    })),
    // An added row is counted unless it is on the page already; a removed one only while it is.
    countArrivals: assign(({ context }, params: { event: LiveEvent }) => {
      const shown = new Set(context.rows.map((row) => row.ApplicationID));
      const { kind, ApplicationIDs: ids } = params.event;
      const { added, removed, stale } = context.liveArrivals;
      return {
        liveArrivals: {
          added: kind === 'added' ? [...new Set([...added, ...ids.filter((id) => !shown.has(id))])] : added,
          removed: kind === 'removed' ? [...new Set([...removed, ...ids.filter((id) => shown.has(id))])] : removed,
          stale: stale || kind === 'reset',
        },
      };
    }),
    cancelAnnouncement: cancel('liveAnnounce'),
    scheduleAnnouncement: raise({ type: 'live.announce' }, { delay: 'announceDelay', id: 'liveAnnounce' }),
    assignAnnouncement: assign(({ context }) => ({ liveAnnouncement: liveBannerText(context.liveArrivals) ?? '' })),
    // AM §8: a failed list is an empty list.
    assignFailure: assign({ rows: [], totalRows: undefined, maxPage: 0, selection: [] }),
    assignSelection: assign(({ context }, params: { guids: string[] }) => ({
      selection: params.guids.filter((guid) => context.rows.some((row) => row.ApplicationGuid === guid)),
    })),
    assignActiveRow: assign((_, params: { guid: string }) => ({ activeGuid: params.guid })),
    assignColumns: assign((_, params: { names: string[] }) => ({ columnNames: params.names })),
    // Without the configuration the always-visible columns still show.
    assignFallbackColumns: assign({ columnNames: () => [] }),
    assignFilterOptions: assign((_, params: { options: FilterOptions }) => ({ filterOptions: params.options })),
    startFilterDraft: assign(({ context }) => ({ filterDraft: filterSelectionOf(context.query) })),
    assignFilterDraft: assign(({ context }, params: { key: ModalFilterKey; values: string[] }) => ({
      filterDraft: { ...context.filterDraft, [params.key]: [...new Set(params.values)] },
    })),
    clearFilterDraft: assign({ filterDraft: emptyFilterSelection }),
    assignCancelTargets: assign(({ context }, params: { guids: string[] }) => ({
      cancelTargets: context.rows
        .filter((row) => params.guids.includes(row.ApplicationGuid))
        .map((row) => ({ applicationGuid: row.ApplicationGuid, applicationId: row.ApplicationID, accountName: row.AccountName })),
    })),
    refreshList: raise({ type: 'list.refresh' }),
    requestNavigation: emit((_, params: { to: string }) => ({ type: 'navigate' as const, to: params.to })),
    openWindow: emit((_, params: { url: string }) => ({ type: 'window.open' as const, url: params.url })),
    flagExportFailed: assign({ exportFailed: true }),
    clearExportFailed: assign({ exportFailed: false }),
    assignPendingWidth: assign((_, params: { width: number }) => ({ pendingWidth: params.width })),
    applyPendingWidth: assign(({ context }) => ({ width: context.pendingWidth })),
    cancelViewportSettle: cancel('viewportSettle'),
    scheduleViewportSettle: raise({ type: 'viewport.settle' }, { delay: 'viewSwitchDebounce', id: 'viewportSettle' }),
  },
  delays: {
    /** AM §9: the view follows the window width 150 ms after the last resize. */
    viewSwitchDebounce: 150,
    /** Live events that come in a burst are announced once, this long after the last. */
    announceDelay: 1_500,
  },
}).createMachine({
  id: 'applicationList',
  type: 'parallel',
  context: ({ input }) => ({
    scope: input.scope,
    claims: input.claims,
    query: defaultListQuery,
    viewPreference: 'list',
    storedView: 'list',
    width: input.width,
    pendingWidth: input.width,
    rows: [],
    totalRows: undefined,
    maxPage: 0,
    loadedAt: 0,
    selection: [],
    activeGuid: undefined,
    columnNames: undefined,
    filterOptions: defaultFilterOptions,
    filterDraft: emptyFilterSelection,
    cancelTargets: [],
    exportFailed: false,
    addressProblem: undefined,
    liveArrivals: noArrivals,
    liveAnnouncement: '',
  }),
  entry: 'restoreViewPreference',
  // AM §4/§9: the session ping runs exactly while the list is mounted; the columns and the
  // filters' options load alongside the first page.
  invoke: [
    { id: 'ping', src: 'ping' },
    {
      id: 'loadColumns',
      src: 'loadColumns',
      onDone: { actions: { type: 'assignColumns', params: ({ event }) => ({ names: event.output }) } },
      onError: { actions: 'assignFallbackColumns' },
    },
    {
      id: 'loadFilterOptions',
      src: 'loadFilterOptions',
      onDone: { actions: { type: 'assignFilterOptions', params: ({ event }) => ({ options: event.output }) } },
    },
  ],
  on: {
    'search.submit': {
      guard: { type: 'isNewSearch', params: ({ event }) => ({ text: event.text }) },
      actions: {
        type: 'requestNavigation',
        params: ({ context, event }) => ({ to: changedHref(context, { q: event.text.trim() }) }),
      },
    },
    'sort.change': {
      actions: {
        type: 'requestNavigation',
        params: ({ context, event }) => ({ to: changedHref(context, nextSort(context.query, event.column)) }),
      },
    },
    'filter.remove': {
      actions: {
        type: 'requestNavigation',
        params: ({ context, event }) => ({ to: changedHref(context, withoutFilter(event.key)) }),
      },
    },
    'filters.clearAll': {
      actions: {
        type: 'requestNavigation',
        params: ({ context }) => ({ to: changedHref(context, withoutAnyFilter) }),
      },
    },
    'view.select': {
      actions: [
        { type: 'storeViewPreference', params: ({ event }) => ({ view: event.view }) },
        { type: 'assignViewPreference', params: ({ event }) => ({ view: event.view }) },
        {
          type: 'requestNavigation',
          params: ({ context, event }) => ({ to: listHref(context.scope, context.query, event.view) }),
        },
      ],
    },
    'viewport.resized': {
      actions: [
        'cancelViewportSettle',
        { type: 'assignPendingWidth', params: ({ event }) => ({ width: event.width }) },
        'scheduleViewportSettle',
      ],
    },
    'viewport.settle': { actions: 'applyPendingWidth' },
  },
  states: {
    list: {
      description: 'The list the address asks for',
      initial: 'idle',
      on: {
        'query.changed': [
          {
            guard: { type: 'isNewQuery', params: ({ event }) => ({ query: event.query }) },
            target: '.loading',
            actions: [
              { type: 'assignQuery', params: ({ event }) => ({ query: event.query, view: event.view }) },
              'clearSelection',
            ],
          },
          { actions: { type: 'assignView', params: ({ event }) => ({ view: event.view }) } },
        ],
        'query.invalid': {
          target: '.invalidAddress',
          actions: { type: 'assignAddressProblem', params: ({ event }) => ({ message: event.message }) },
        },
        'list.refresh': { target: '.loading' },
      },
      states: {
        idle: {
          description: 'Load status idle: waiting for the address to be read; the table keeps its height',
          on: {
            'query.changed': {
              target: 'loading',
              actions: { type: 'assignQuery', params: ({ event }) => ({ query: event.query, view: event.view }) },
            },
          },
        },
        loading: {
          description:
            'Load status loading: the page of applications the address asks for; the rows shown so far stay, dimmed (skeleton rows on the first load)',
          tags: ['loading'],
          invoke: {
            id: 'loadList',
            src: 'loadList',
            input: ({ context }) => ({ scope: context.scope, query: context.query }),
            onDone: {
              target: 'succeeded',
              actions: { type: 'assignResult', params: ({ event }) => ({ response: event.output }) },
            },
            onError: { target: 'failed', actions: 'assignFailure' },
          },
        },
        succeeded: {
          description:
            "Load status succeeded: the rows with pagination 'x - y of total', or 'No Results.'; rows can be ticked (app.cancel) and opened",
          on: {
            'selection.change': {
              guard: 'canSelect',
              actions: { type: 'assignSelection', params: ({ event }) => ({ guids: event.guids }) },
            },
            'row.activate': { actions: { type: 'assignActiveRow', params: ({ event }) => ({ guid: event.guid }) } },
          },
        },
        failed: {
          description: 'Load status failed: an empty list, the failure and Retry',
          on: { 'list.retry': { target: 'loading' } },
        },
        invalidAddress: {
          description: 'The address holds a parameter the list cannot read: which one, and a link to the unfiltered list',
          on: {
            // Any readable address loads, even the query shown before the bad one (Back, or the
            // link to the unfiltered list when the bad address was the first one opened).
            'query.changed': {
              target: 'loading',
              actions: [
                { type: 'assignQuery', params: ({ event }) => ({ query: event.query, view: event.view }) },
                'clearSelection',
              ],
            },
          },
        },
      },
    },
    live: {
      description:
        "Colleagues' changes from the live event stream: rows on the page are updated in place; rows that arrive or leave are counted in a banner until Show",
      initial: 'watching',
      on: {
        'live.show': { actions: 'refreshList' },
        'live.announce': { actions: 'assignAnnouncement' },
      },
      states: {
        watching: {
          description: 'The rows as last read; a banner counts the rows that arrived or left, with Show',
          on: { 'live.event': liveEventTransitions('rereading') },
        },
        rereading: {
          description:
            'A row on the page changed: the page is read again and its rows take their new values where they stand (scroll, ticks and menus stay)',
          // Another change to a shown row reads the page again from the start: the read under way may predate it.
          on: { 'live.event': liveEventTransitions('rereading') },
          invoke: {
            id: 'rereadList',
            src: 'rereadList',
            input: ({ context }) => ({ scope: context.scope, query: context.query }),
            onDone: [
              {
                guard: { type: 'isCurrentQuery', params: ({ event }) => ({ query: event.output.query }) },
                target: 'watching',
                actions: { type: 'assignRowsInPlace', params: ({ event }) => ({ response: event.output.response }) },
              },
              { target: 'watching' },
            ],
            onError: { target: 'watching' },
          },
        },
      },
    },
    activity: {
      description: 'What the person is doing: filters, cancel, New, export',
      initial: 'idle',
      states: {
        idle: {
          description: 'The action bar, filter bar and list are ready for the next action',
          on: {
            'filters.open': { target: 'filtering' },
            'cancel.open': {
              guard: { type: 'canCancelRows', params: ({ event }) => ({ guids: event.guids }) },
              target: 'cancelling',
              actions: { type: 'assignCancelTargets', params: ({ event }) => ({ guids: event.guids }) },
            },
            'application.new': [
              { guard: 'createsOnBehalf', target: 'creatingOnBehalf' },
              { guard: 'createsDirectly', target: 'creating' },
            ],
            'export.start': { guard: 'canExport', target: 'exporting', actions: 'clearExportFailed' },
            'export.dismiss': { actions: 'clearExportFailed' },
          },
        },
        filtering: {
          description:
            "The 'Filters' modal: STATUS, SUB-BRAND, ASSIGNEE, LABEL and TAG; Apply once the selection differs from the current filters, Clear once something is selected, Cancel",
          entry: 'startFilterDraft',
          on: {
            'filters.change': {
              actions: { type: 'assignFilterDraft', params: ({ event }) => ({ key: event.key, values: event.values }) },
            },
            'filters.clear': { guard: 'hasFilterSelection', actions: 'clearFilterDraft' },
            'filters.apply': {
              guard: 'canApplyFilters',
              target: 'idle',
              actions: [
                {
                  type: 'requestNavigation',
                  params: ({ context }) => ({ to: changedHref(context, context.filterDraft) }),
                },
                'clearFilterDraft',
              ],
            },
            'filters.cancel': { target: 'idle', actions: 'clearFilterDraft' },
          },
        },
        cancelling: {
          description: 'The cancel modal for one application or the ticked ones; the list refreshes after a cancel',
          invoke: {
            id: 'cancelApplications',
            src: 'cancelApplications',
            input: ({ context }) => ({ applications: context.cancelTargets }),
            onDone: [
              {
                guard: { type: 'didCancel', params: ({ event }) => ({ output: event.output }) },
                target: 'idle',
                actions: ['clearSelection', 'refreshList'],
              },
              { target: 'idle' },
            ],
          },
        },
        creating: {
          description: 'New (app.create): the application is being created; a failure shows the server message',
          invoke: {
            id: 'newApplication',
            src: 'newApplication',
            onDone: [
              {
                guard: { type: 'hasUrl', params: ({ event }) => ({ output: event.output }) },
                target: 'idle',
                actions: { type: 'openWindow', params: ({ event }) => ({ url: event.output.url ?? '' }) },
              },
              { target: 'idle' },
            ],
          },
        },
        creatingOnBehalf: {
          description: 'New (app.createonbehalf): the owner picker modal',
          invoke: {
            id: 'newApplicationOnBehalf',
            src: 'newApplicationOnBehalf',
            onDone: [
              {
                guard: { type: 'hasUrl', params: ({ event }) => ({ output: event.output }) },
                target: 'idle',
                actions: { type: 'openWindow', params: ({ event }) => ({ url: event.output.url ?? '' }) },
              },
              { target: 'idle' },
            ],
          },
        },
        exporting: {
          description: 'Export All to CSV: export.csv with the current filters and sort is downloading',
          tags: ['exporting'],
          invoke: {
            id: 'exportApplications',
            src: 'exportApplications',
            input: ({ context }) => ({ scope: context.scope, query: context.query }),
            onDone: { target: 'idle' },
            onError: { target: 'idle', actions: 'flagExportFailed' },
          },
        },
      },
    },
  },
});

export const ApplicationListContext = createActorContext(applicationListMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'My/All Applications: loads the list the address describes, and runs search, sort, filters, selection, cancel, New, Export All to CSV and the view that follows the window width.',
  spec: ['AM §2', 'AM §4', 'AM §7', 'AM §8', 'AM §9'],
  actors: {
    loadList: { does: 'Loads one page of applications for the query', done: 'list loaded', failed: 'list could not be loaded' },
    loadColumns: { does: 'Loads the visible column names', done: 'columns loaded', failed: 'columns could not be loaded' },
    rereadList: { does: 'Reads the page again for a colleague’s change', done: 'page read again', failed: 'page could not be read again' },
    loadFilterOptions: { does: 'Loads every filter’s options', done: 'filter options loaded', failed: 'filter options could not be loaded' },
    exportApplications: {
      does: 'Downloads export.csv with the current filters and sort',
      done: 'export downloaded',
      failed: 'export failed',
    },
    ping: { does: 'Keeps the server session alive (every 2 min)' },
    cancelApplications: { does: 'Runs the cancel modal', done: 'cancel modal closed', failed: 'cancel modal failed' },
    newApplication: { does: 'Creates a new application', done: 'creation finished', failed: 'creation failed' },
    newApplicationOnBehalf: {
      does: 'Runs the owner picker for a new application on behalf',
      done: 'owner picker closed',
      failed: 'owner picker failed',
    },
  },
  guards: {
    isNewQuery: 'the address asks for a different list',
    isNewSearch: 'the search text differs from the current one',
    canSelect: 'the user may cancel applications',
    canCancelRows: 'the user may cancel, and the rows are on the page',
    createsOnBehalf: 'the user creates on behalf of an owner',
    createsDirectly: 'the user creates applications directly',
    canExport: 'the user may export',
    canApplyFilters: 'the filters differ from the applied ones',
    hasFilterSelection: 'some filter value is selected',
    didCancel: 'an application was cancelled',
    hasUrl: 'the server gave the new application’s address',
    touchesShownRows: 'the change is to a row on the page (or the list’s scope moved)',
    isCurrentQuery: 'the answer is for the list the address still asks for',
  },
  delays: {
    viewSwitchDebounce: 'the pause after the last window resize before the view follows',
    announceDelay: 'the pause after the last live event before the banner is announced',
  },
  events: {
    'query.changed': 'the address changed',
    'query.invalid': 'the address cannot be read',
    'list.refresh': 'Refresh chosen',
    'list.retry': 'Retry chosen',
    'search.submit': 'search submitted',
    'sort.change': 'a column header clicked to sort',
    'filter.remove': 'one filter removed from the filter bar',
    'filters.clearAll': 'Clear all filters chosen',
    'filters.open': 'Filters opened',
    'filters.change': 'a filter value changed',
    'filters.apply': 'Apply chosen',
    'filters.clear': 'Clear chosen in the Filters modal',
    'filters.cancel': 'Filters modal cancelled',
    'selection.change': 'rows ticked or unticked',
    'row.activate': 'a row opened',
    'cancel.open': 'Cancel chosen for applications',
    'application.new': 'New chosen',
    'export.start': 'Export All to CSV chosen',
    'export.dismiss': 'export failure dismissed',
    'view.select': 'a view (table or cards) chosen',
    'viewport.resized': 'the window was resized',
    'viewport.settle': 'the window stopped resizing',
    'live.event': 'a colleague’s change arrived (live event stream)',
    'live.show': 'Show chosen in the banner',
    'live.announce': 'the burst of live events settled',
  },
} satisfies MachineLabels<typeof applicationListMachine>;
