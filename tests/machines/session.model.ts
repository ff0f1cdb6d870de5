import { fromCallback, fromPromise } from 'xstate';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../src/schemas/account.schema.ts';
import { defineMachineModel } from './machine-model.ts';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
const token = { issuedAt: 1_700_000_000, expiresAt: 1_700_000_900 };
const tenant = {
  TenantName: 'demo',
  DisplayName: 'Demo Wealth',
  LogoUrl: '',
  PrimaryColor: '#0b5cad',
  SecondaryColor: '#f0a202',
  SupportEmail: 'support@demo.test',
  SupportPhone: '1300 555 010',
  HelpUrl: 'https://help.demo.test/',
};

export default defineMachineModel({
  name: 'session',
  machine: sessionMachine.provide({
    actors: {
      readEntry: never(),
      restoreSession: never(),
      completeSignIn: never(),
      loadAccount: never(),
      loadTenant: never(),
      validateTenant: never(),
      signInRedirect: never(),
      federatedSignIn: never<void, { token: string; hash: string }>(),
      signOut: never(),
      signOutLocally: never(),
      startMonitoring: never(),
      watchToken: fromCallback(() => () => {}),
      watchUnauthorized: fromCallback(() => () => {}),
      // The dialog's own machine, inert too; its paths are in change-password.model.ts.
      changePassword: changePasswordMachine.provide({
        actors: { changePassword: never<ChangePasswordResponse, ChangePasswordRequest>() },
      }),
    },
  }),
  events: [
    { type: 'xstate.done.actor.loadTenant', output: tenant },
    { type: 'xstate.done.actor.readEntry', output: { kind: 'callback' } },
    {
      type: 'xstate.done.actor.readEntry',
      output: { kind: 'federated', token: 'sso-token', hash: 'sso-hash' },
    },
    { type: 'xstate.done.actor.readEntry', output: { kind: 'tenantNotFound' } },
    { type: 'xstate.done.actor.readEntry', output: { kind: 'restore' } },
    { type: 'xstate.error.actor.readEntry', error: new Error('no location') },
    { type: 'xstate.done.actor.restoreSession', output: token },
    { type: 'xstate.done.actor.restoreSession', output: null },
    { type: 'xstate.error.actor.restoreSession', error: new Error('identity provider unreachable') },
    { type: 'xstate.done.actor.completeSignIn', output: { token, returnTo: '/list/all?q=smith' } },
    { type: 'xstate.error.actor.completeSignIn', error: new Error('No matching state found in storage') },
    {
      type: 'xstate.done.actor.loadAccount',
      output: {
        Claims: ['view.myapps', 'Tenant:demo'],
        DisplayName: 'Avery Admin',
        Email: 'admin@demo.test',
      },
    },
    { type: 'xstate.error.actor.loadAccount', error: new Error('account info failed') },
    { type: 'xstate.done.actor.validateTenant', output: { Success: true, TenantName: 'demo' } },
    { type: 'xstate.done.actor.validateTenant', output: { Success: false, TenantName: '' } },
    { type: 'xstate.error.actor.validateTenant', error: new Error('validation failed') },
    { type: 'xstate.error.actor.signInRedirect', error: new Error('metadata unreachable') },
    { type: 'xstate.error.actor.federatedSignIn', error: new Error('metadata unreachable') },
    { type: 'xstate.error.actor.signOut', error: new Error('metadata unreachable') },
    { type: 'xstate.done.actor.signOutLocally' },
    { type: 'xstate.error.actor.signOutLocally', error: new Error('storage failed') },
    { type: 'token.loaded', token: { issuedAt: 1_700_000_780, expiresAt: 1_700_001_680 } },
    {
      type: 'xstate.done.actor.changePassword',
      output: { message: 'Your password has been changed.', signOut: true },
    },
    {
      type: 'xstate.done.actor.changePassword',
      output: { message: 'The current password is incorrect.', signOut: false },
    },
    { type: 'xstate.after.tokenLifetime.session.signedIn.lifetime.counting' },
    { type: 'xstate.after.reloginDelay.session.sessionLost' },
  ],
});
