import { assign, emit, fromPromise, setup } from 'xstate';
import type { UserListResponse, UserListRow } from '../schemas/users.schema.ts';
import { exportUsers, listUsers } from '../services/users.service.ts';
import { systemConfiguration } from '../services/configuration.service.ts';
import type { SystemConfiguration } from '../schemas/configuration.schema.ts';
import { defaultUsersRowsPerPage, usersAddressOf, type UsersRequest } from '../domain/users-address.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface UserListContext {
  /** What the address asks for (SUV §2 /users/{pageNo}?q=&rowsPerPage=). */
  request: UsersRequest;
  /** The search box as typed; only submit puts it in the address. */
  searchText: string;
  users: UserListRow[];
  /** Undefined until a page has loaded: the title then shows no count. */
  totalRows: number | undefined;
  maxPage: number;
  /** SUV §3 UserManagementConfiguration: the modals' flags and texts; undefined until loaded. */
  settings: SystemConfiguration['UserManagementConfiguration'] | undefined;
}

export type UserListEvent =
  | { type: 'list.load'; request: UsersRequest }
  | { type: 'list.reload' }
  | { type: 'search.change'; value: string }
  | { type: 'search.submit' }
  | { type: 'search.clear' }
  | { type: 'filter.clear' }
  | { type: 'page.go'; pageNo: number }
  | { type: 'export.start' };

/** The view follows the address it is told; the address change comes back as `list.load`. */
export type UserListEmitted = { type: 'navigate'; address: string };

/**
 * SUV §2 the Users page: loads a page of users for the address, searches (submit and clear both go
 * back to page 1), pages, reloads after each action (§4), and exports the rows the search shows.
 * A failed load shows an empty list with the failed status (§8).
 */
export const userListMachine = setup({
  types: typesOf<{
    context: UserListContext;
    events: UserListEvent;
    input: { request: UsersRequest };
    emitted: UserListEmitted;
    tags: 'busy';
  }>(),
  actors: {
    loadUsers: fromPromise<UserListResponse, UsersRequest>(({ input }) => listUsers(input)),
    exportUsers: fromPromise<void>(() => exportUsers()),
    loadSettings: fromPromise<SystemConfiguration>(() => systemConfiguration()),
  },
  actions: {
    assignRequest: assign((_, params: { request: UsersRequest }) => ({
      request: params.request,
      searchText: params.request.query,
    })),
    assignSearchText: assign((_, params: { value: string }) => ({ searchText: params.value })),
    assignPage: assign((_, params: { page: UserListResponse }) => ({
      users: params.page.Users,
      totalRows: params.page.TotalRows,
      maxPage: params.page.MaxPage,
    })),
    assignSettings: assign((_, params: { configuration: SystemConfiguration }) => ({
      settings: params.configuration.UserManagementConfiguration,
    })),
    clearRows: assign({ users: [], totalRows: undefined, maxPage: 0 }),
    navigateToSearch: emit(({ context }) => ({
      type: 'navigate' as const,
      address: usersAddressOf({ ...context.request, query: context.searchText, pageNo: 1 }),
    })),
    navigateToCleared: emit(({ context }) => ({
      type: 'navigate' as const,
      address: usersAddressOf({ ...context.request, query: '', pageNo: 1 }),
    })),
    navigateToDefaults: emit({
      type: 'navigate' as const,
      address: usersAddressOf({ pageNo: 1, rowsPerPage: defaultUsersRowsPerPage, query: '' }),
    }),
    navigateToPage: emit(({ context }, params: { pageNo: number }) => ({
      type: 'navigate' as const,
      address: usersAddressOf({ ...context.request, pageNo: params.pageNo }),
    })),
  },
}).createMachine({
  id: 'userList',
  type: 'parallel',
  context: ({ input }) => ({
    request: input.request,
    searchText: input.request.query,
    users: [],
    totalRows: undefined,
    maxPage: 0,
    settings: undefined,
  }),
  on: {
    'search.change': {
      actions: { type: 'assignSearchText', params: ({ event }) => ({ value: event.value }) },
    },
    'search.submit': { actions: 'navigateToSearch' },
    'search.clear': { actions: [{ type: 'assignSearchText', params: { value: '' } }, 'navigateToCleared'] },
    'filter.clear': { actions: [{ type: 'assignSearchText', params: { value: '' } }, 'navigateToDefaults'] },
    'page.go': { actions: { type: 'navigateToPage', params: ({ event }) => ({ pageNo: event.pageNo }) } },
  },
  states: {
    list: {
      description: 'The page of users',
      initial: 'loading',
      // Handled by this region, not the machine: a machine-level transition into the list would
      // re-enter every region, reloading the settings and dropping an export under way.
      on: {
        'list.load': {
          target: '.loading',
          actions: { type: 'assignRequest', params: ({ event }) => ({ request: event.request }) },
        },
        'list.reload': { target: '.loading' },
      },
      states: {
        loading: {
          description: "'Loading user list...'",
          tags: ['busy'],
          invoke: {
            id: 'loadUsers',
            src: 'loadUsers',
            input: ({ context }) => context.request,
            onDone: {
              target: 'ready',
              actions: { type: 'assignPage', params: ({ event }) => ({ page: event.output }) },
            },
            onError: { target: 'failed', actions: 'clearRows' },
          },
        },
        ready: { description: "The rows, or 'No Results.' with a query and 'No Users.' without; pagination" },
        failed: { description: 'An empty list with the failed status' },
      },
    },
    settings: {
      description: 'The user-management settings the modals need',
      initial: 'loading',
      states: {
        loading: {
          description: 'The settings are loading; New waits for them',
          invoke: {
            id: 'loadSettings',
            src: 'loadSettings',
            onDone: {
              target: 'loaded',
              actions: { type: 'assignSettings', params: ({ event }) => ({ configuration: event.output }) },
            },
            onError: { target: 'failed' },
          },
        },
        loaded: { description: 'The modals can open' },
        failed: { description: 'The settings could not be loaded; the modals use the defaults' },
      },
    },
    export: {
      description: 'Export All to CSV',
      initial: 'idle',
      states: {
        idle: { description: 'Nothing is being exported', on: { 'export.start': { target: 'exporting' } } },
        exporting: {
          description: 'userlist.csv is being downloaded',
          invoke: {
            id: 'exportUsers',
            src: 'exportUsers',
            onDone: 'idle',
            onError: 'failed',
          },
        },
        failed: {
          description: 'The export failed; it can be tried again',
          on: { 'export.start': { target: 'exporting' } },
        },
      },
    },
  },
});

export const statechartLabels = {
  purpose: 'Lists, searches and pages the tenant’s users, reloads after each action, and exports them',
  spec: ['SUV §2', 'SUV §4', 'SUV §7', 'SUV §8', 'SUV §9'],
  actors: {
    loadUsers: { does: 'Loads a page of users', done: 'users loaded', failed: 'users could not be loaded' },
    exportUsers: { does: 'Downloads userlist.csv', done: 'export downloaded', failed: 'export failed' },
    loadSettings: {
      does: 'Loads the user-management settings',
      done: 'settings loaded',
      failed: 'settings could not be loaded',
    },
  },
  guards: {},
  delays: {},
  events: {
    'list.load': 'the address changed (page, search, rows per page)',
    'list.reload': 'a user action finished',
    'search.change': 'the search text typed',
    'search.submit': 'search submitted',
    'search.clear': 'search cleared',
    'filter.clear': 'Clear filter chosen',
    'page.go': 'a page chosen',
    'export.start': "'Export All to CSV' chosen",
  },
} satisfies MachineLabels<typeof userListMachine>;
