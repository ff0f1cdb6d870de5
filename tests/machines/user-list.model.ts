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

export default defineMachineModel({
  name: 'user-list',
  machine: userListMachine.provide({
    actors: {
      loadUsers: fromPromise<UserListResponse, UsersRequest>(() => new Promise(() => {})),
      exportUsers: fromPromise<void, { query: string }>(() => new Promise(() => {})),
      loadSettings: fromPromise<SystemConfiguration>(() => new Promise(() => {})),
    },
  }),
  input: { request: { pageNo: 2, rowsPerPage: 20, query: 'smith' } },
  preconditions: '/users/2?q=smith opened by an administrator',
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
});
