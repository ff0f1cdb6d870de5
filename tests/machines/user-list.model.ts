import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { userListMachine } from '../../src/machines/user-list.machine.ts';
import type { SystemConfiguration } from '../../src/schemas/configuration.schema.ts';
import type { UserListResponse } from '../../src/schemas/users.schema.ts';
import type { UsersRequest } from '../../src/domain/users-address.ts';
import { defineMachineModel } from './machine-model.ts';

const page: UserListResponse = {
  Users: [
    {
      GlobalUserId: '6f1f5d1c-0a42-4d7e-9a43-0b8f3f525d0e',
      FirstName: 'Riley',
      LastName: 'Reader',
      Email: 'readonly@demo.test',
      RoleName: 'Admin Staff (Read Only)',
      Status: 'Active',
      HasApplicationAccess: false,
      LastSuccessfulLoginTimestamp: null,
      LockedTimestamp: null,
    },
  ],
  TotalRows: 41,
  MaxPage: 3,
};
const configuration: SystemConfiguration = {
  UISystemConfiguration: { ShowDocumentListBeforeCompletion: false, ShowEVSummaryResult: false },
  UserManagementConfiguration: { AustralianMobileNumberOnly: true, DisplayUserInviteAlert: false, UserInviteAlertText: '', EditPermissionsDisclaimerText: '', NewUserAppAccessToggleDefaultON: false },
};

/**
 * SUV §2/§9, written here: /users, then /{page} past page 1, then q and rowsPerPage, each only when
 * not the default (no query, 20 rows). The model's queries are plain words, so no escaping is needed.
 */
function address(pageNo: number, rowsPerPage: number, query: string): string {
  const params = [query ? `q=${query}` : '', rowsPerPage === 20 ? '' : `rowsPerPage=${rowsPerPage}`].filter(Boolean);
  return `/users${pageNo > 1 ? `/${pageNo}` : ''}${params.length > 0 ? `?${params.join('&')}` : ''}`;
}
const navigated = (to: string) => [{ type: 'navigate', address: to }];

export default defineMachineModel({
  name: 'user-list',
  machine: userListMachine.provide({
    actors: {
      loadUsers: fromPromise<UserListResponse, UsersRequest>(() => new Promise(() => {})),
      exportUsers: fromPromise<void>(() => new Promise(() => {})),
      loadSettings: fromPromise<SystemConfiguration>(() => new Promise(() => {})),
    },
  }),
  input: { request: { pageNo: 2, rowsPerPage: 20, query: 'smith' } },
  preconditions: '/users/2?q=smith opened by an administrator',
  // Typed but not submitted is a different situation: the export and the page still follow the address.
  contextKey: (snapshot) => snapshot.context.searchText !== snapshot.context.request.query,
  events: [
    { type: 'xstate.done.actor.loadUsers', output: page },
    { type: 'xstate.error.actor.loadUsers', error: new Error('503') },
    { type: 'xstate.done.actor.loadSettings', output: configuration },
    { type: 'xstate.error.actor.loadSettings', error: new Error('503') },
    { type: 'xstate.done.actor.exportUsers' },
    { type: 'xstate.error.actor.exportUsers', error: new Error('503') },
    { type: 'list.load', request: { pageNo: 1, rowsPerPage: 50, query: '' } },
    { type: 'list.reload' },
    { type: 'search.change', value: 'jo' },
    { type: 'search.submit' },
    { type: 'search.clear' },
    { type: 'filter.clear' },
    { type: 'page.go', pageNo: 3 },
    { type: 'export.start' },
  ],
  expectations: {
    states: {
      'list.loading': (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      // SUV §2: the rows of the page asked for, with the total for the title.
      'list.ready': (snapshot) => {
        expect(snapshot.context.users).toEqual(page.Users);
        expect(snapshot.context.totalRows).toBe(41);
        expect(snapshot.context.maxPage).toBe(3);
      },
      // SUV §8: a failed load shows an empty list, and the title no count.
      'list.failed': (snapshot) => {
        expect(snapshot.context.users).toEqual([]);
        expect(snapshot.context.totalRows).toBeUndefined();
        expect(snapshot.context.maxPage).toBe(0);
      },
      'settings.loading': (snapshot) => expect(snapshot.context.settings).toBeUndefined(),
      'settings.loaded': (snapshot) => expect(snapshot.context.settings).toEqual(configuration.UserManagementConfiguration),
      // The modals fall back to their defaults.
      'settings.failed': (snapshot) => expect(snapshot.context.settings).toBeUndefined(),
      'export.idle': (snapshot) => expect(snapshot.children.exportUsers).toBeUndefined(),
      'export.exporting': (snapshot) => expect(snapshot.children.exportUsers).toBeDefined(),
      'export.failed': (snapshot) => expect(snapshot.children.exportUsers).toBeUndefined(),
    },
    transitions: {
      // The address changed: that page is loaded, and the search box shows its query; the settings
      // and an export under way are left alone.
      'list + list.load': ({ before, after, started }) => {
        expect(started).toEqual({ loadUsers: { pageNo: 1, rowsPerPage: 50, query: '' } });
        expect(after.context.searchText).toBe('');
        expect(after.value).toMatchObject({ settings: (before.value as { settings: string }).settings, export: (before.value as { export: string }).export });
      },
      // SUV §4: after each action, the same page again, nothing else restarted.
      'list + list.reload': ({ before, after, started }) => {
        expect(started).toEqual({ loadUsers: before.context.request });
        expect(after.value).toMatchObject({ settings: (before.value as { settings: string }).settings, export: (before.value as { export: string }).export });
      },
      // Typing changes neither the address nor the rows.
      '(machine) + search.change': ({ before, after, emitted, started }) => {
        expect(after.context.searchText).toBe('jo');
        expect(after.context.request).toEqual(before.context.request);
        expect(emitted).toEqual([]);
        expect(started).toEqual({});
      },
      // SUV §2: submit and clear both go back to page 1, rows per page kept.
      '(machine) + search.submit': ({ before, emitted, started }) => {
        expect(emitted).toEqual(navigated(address(1, before.context.request.rowsPerPage, before.context.searchText)));
        expect(started).toEqual({});
      },
      '(machine) + search.clear': ({ before, after, emitted }) => {
        expect(after.context.searchText).toBe('');
        expect(emitted).toEqual(navigated(address(1, before.context.request.rowsPerPage, '')));
      },
      // Clear filter: every default, so the bare address.
      '(machine) + filter.clear': ({ after, emitted }) => {
        expect(after.context.searchText).toBe('');
        expect(emitted).toEqual(navigated('/users'));
      },
      '(machine) + page.go': ({ before, emitted, started }) => {
        expect(emitted).toEqual(navigated(address(3, before.context.request.rowsPerPage, before.context.request.query)));
        expect(started).toEqual({});
      },
      'list.loading + xstate.done.actor.loadUsers': ({ after }) => expect(after.matches({ list: 'ready' })).toBe(true),
      'list.loading + xstate.error.actor.loadUsers': ({ after }) => expect(after.matches({ list: 'failed' })).toBe(true),
      'settings.loading + xstate.done.actor.loadSettings': ({ after }) => expect(after.matches({ settings: 'loaded' })).toBe(true),
      'settings.loading + xstate.error.actor.loadSettings': ({ after }) => expect(after.matches({ settings: 'failed' })).toBe(true),
      // SUV §7: the export holds the rows the search shows (the address's query, not what is typed).
      // Export All is every user, whatever the search (SUV §1, §7): the export asks with no query.
      'export.idle + export.start': ({ started }) => expect(started).toEqual({ exportUsers: undefined }),
      'export.failed + export.start': ({ started }) => expect(started).toEqual({ exportUsers: undefined }),
      'export.exporting + xstate.done.actor.exportUsers': ({ before, after }) => {
        expect(after.matches({ export: 'idle' })).toBe(true);
        expect(after.context.users).toBe(before.context.users);
      },
      'export.exporting + xstate.error.actor.exportUsers': ({ before, after }) => {
        expect(after.matches({ export: 'failed' })).toBe(true);
        expect(after.context.users).toBe(before.context.users);
      },
    },
  },
});
