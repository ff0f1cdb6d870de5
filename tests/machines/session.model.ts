import { expect } from 'vitest';
import { fromCallback, fromPromise, type AnyMachineSnapshot } from 'xstate';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import type { ChangePasswordRequest, ChangePasswordResponse } from '../../src/schemas/account.schema.ts';
import { defineMachineModel, type ViewQueries } from './machine-model.ts';

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

/** A field of a sample's `output`, read without trusting its shape. */
function outputField(output: unknown, name: string): unknown {
  return typeof output === 'object' && output !== null && name in output ? Object.entries(output).find(([key]) => key === name)?.[1] : undefined;
}

/** The loader screen shows exactly this text, and nothing of the shell. */
function loaderSays(screen: ViewQueries, text: string) {
  expect(screen.getByRole('status').textContent).toBe(text);
  expect(screen.queryByText('Shell routes')).toBeNull();
}

/** The person sees the loading screen (the `loading` tag) in exactly these states. */
const loading = (expected: boolean) => (snapshot: AnyMachineSnapshot) => expect(snapshot.hasTag('loading')).toBe(expected);

const inState = (value: Parameters<AnyMachineSnapshot['matches']>[0]) => ({ after }: { after: AnyMachineSnapshot }) =>
  expect(after.matches(value), `expected ${JSON.stringify(value)}, got ${JSON.stringify(after.value)}`).toBe(true);

const signedInAs = {
  claims: ['view.myapps', 'Tenant:demo'],
  displayName: 'Avery Admin',
  email: 'admin@demo.test',
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
      watchRenewal: fromCallback(() => () => {}),
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
    { type: 'session.renewalRefused' },
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
  view: {
    // AM §2 loader screens, one text each; the routes (the shell) only once signed in.
    checking: (screen) => loaderSays(screen, 'Getting user status...'),
    redirecting: (screen) => loaderSays(screen, 'Redirecting to Authentication'),
    signingOut: (screen) => loaderSays(screen, 'Redirecting to Authentication'),
    federated: (screen) => loaderSays(screen, 'Redirecting to SSO Authentication'),
    sessionLost: (screen) => loaderSays(screen, 'The session has timed out. Redirecting to Authentication'),
    tenantNotFound: (screen) => {
      expect(screen.getByRole('heading', { name: 'LAB Portal unavailable' })).toBeTruthy();
      expect(screen.getByText('Please check that the address is correct, or try again in 5-10 minutes.')).toBeTruthy();
      expect(screen.queryByText('Shell routes')).toBeNull();
    },
    unavailable: (screen, snapshot) => {
      expect(screen.getByText('The portal is unavailable at the moment. Please try again in 5-10 minutes.')).toBeTruthy();
      // The support contacts come from the tenant, once it has loaded.
      expect(screen.queryByRole('link', { name: tenant.SupportEmail }) !== null).toBe(snapshot.context.tenant !== undefined);
    },
    signedIn: (screen) => {
      expect(screen.getByText('Shell routes')).toBeTruthy();
      expect(screen.queryByRole('status')).toBeNull();
    },
    'expired.timedOut': (screen) => expect(screen.getByText('Timeout page')).toBeTruthy(),
  },
  expectations: {
    states: {
      'checking.readingEntry': (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.children.readEntry).toBeDefined();
      },
      'checking.restoring': (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.children.restoreSession).toBeDefined();
      },
      'checking.completingSignIn': (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.children.completeSignIn).toBeDefined();
      },
      'checking.loadingAccount': (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.context.token).toEqual(token);
      },
      redirecting: (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.children.signInRedirect).toBeDefined();
      },
      federated: (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.context.federation).toEqual({ token: 'sso-token', hash: 'sso-hash' });
      },
      'tenantNotFound.validating': (snapshot) => {
        loading(false)(snapshot);
        expect(snapshot.children.validateTenant).toBeDefined();
      },
      'tenantNotFound.notFound': (snapshot) => {
        loading(false)(snapshot);
        expect(snapshot.children.startMonitoring).toBeDefined();
      },
      // Signed in: the shell shows who it is, with the account's claims.
      'signedIn.lifetime.counting': (snapshot) => {
        loading(false)(snapshot);
        expect(snapshot.context).toMatchObject(signedInAs);
        expect(snapshot.context.token).toBeDefined();
      },
      'signedIn.passwordDialog.closed': ({ children }) => expect(children.changePassword).toBeUndefined(),
      'signedIn.passwordDialog.open': ({ children, context }) => {
        expect(children.changePassword).toBeDefined();
        expect(context.notice).toBeUndefined();
      },
      sessionLost: loading(true),
      'expired.signingOutLocally': (snapshot) => expect(snapshot.children.signOutLocally).toBeDefined(),
      'expired.timedOut': loading(false),
      signingOut: (snapshot) => {
        loading(true)(snapshot);
        expect(snapshot.children.signOut).toBeDefined();
      },
      unavailable: (snapshot) => {
        loading(false)(snapshot);
        expect(snapshot.children.startMonitoring).toBeDefined();
      },
    },
    transitions: {
      '(machine) + xstate.done.actor.loadTenant': ({ after }) => expect(after.context.tenant).toEqual(tenant),
      'checking.readingEntry + xstate.done.actor.readEntry': ({ event, after }) => {
        const expected = {
          callback: { checking: 'completingSignIn' },
          federated: 'federated',
          tenantNotFound: { tenantNotFound: 'validating' },
          restore: { checking: 'restoring' },
        }[String(outputField(event.output, 'kind'))];
        expect(expected).toBeDefined();
        if (expected) inState(expected)({ after });
      },
      // No readable address: try the session in memory.
      'checking.readingEntry + xstate.error.actor.readEntry': inState({ checking: 'restoring' }),
      'checking.restoring + xstate.done.actor.restoreSession': ({ event, after }) => {
        if (event.output) {
          inState({ checking: 'loadingAccount' })({ after });
          expect(after.context.token).toEqual(token);
        } else inState('redirecting')({ after });
      },
      'checking.restoring + xstate.error.actor.restoreSession': inState('unavailable'),
      'checking.completingSignIn + xstate.done.actor.completeSignIn': ({ after }) => {
        inState({ checking: 'loadingAccount' })({ after });
        expect(after.context.token).toEqual(token);
        expect(after.context.returnTo).toBe('/list/all?q=smith');
      },
      'checking.completingSignIn + xstate.error.actor.completeSignIn': inState('unavailable'),
      'checking.loadingAccount + xstate.done.actor.loadAccount': ({ after, started }) => {
        inState('signedIn')({ after });
        expect(after.context).toMatchObject(signedInAs);
        expect(Object.keys(started)).toEqual(expect.arrayContaining(['watchToken', 'watchUnauthorized', 'watchRenewal', 'startMonitoring']));
      },
      'checking.loadingAccount + xstate.error.actor.loadAccount': inState('unavailable'),
      'redirecting + xstate.error.actor.signInRedirect': inState('unavailable'),
      'federated + xstate.error.actor.federatedSignIn': inState('unavailable'),
      'tenantNotFound.validating + xstate.done.actor.validateTenant': ({ event, after }) =>
        inState(outputField(event.output, 'Success') === true ? { checking: 'restoring' } : { tenantNotFound: 'notFound' })({
          after,
        }),
      'tenantNotFound.validating + xstate.error.actor.validateTenant': inState({ tenantNotFound: 'notFound' }),
      'signedIn + session.signOut': inState('signingOut'),
      'signedIn + session.unauthorized': inState('sessionLost'),
      // SUV §8: a refused renewal ends the session at once, as expiry does (issue 39 point 15).
      'signedIn + session.renewalRefused': inState({ expired: 'signingOutLocally' }),
      // A new token restarts the lifetime timer.
      'signedIn.lifetime.counting + token.loaded': ({ event, after }) => {
        inState({ signedIn: { lifetime: 'counting' } })({ after });
        expect(after.context.token).toEqual(event.token);
      },
      'signedIn.lifetime.counting + after tokenLifetime': inState({ expired: 'signingOutLocally' }),
      'signedIn.passwordDialog.closed + passwordChange.open': ({ after, started }) => {
        inState({ signedIn: { passwordDialog: 'open' } })({ after });
        expect(Object.keys(started)).toEqual(['changePassword']);
      },
      'signedIn.passwordDialog.closed + notice.dismiss': ({ after }) => expect(after.context.notice).toBeUndefined(),
      'signedIn.passwordDialog.open + xstate.done.actor.changePassword': ({ event, after }) => {
        if (outputField(event.output, 'signOut') === true) inState('signingOut')({ after });
        else {
          inState({ signedIn: { passwordDialog: 'closed' } })({ after });
          expect(after.context.notice).toBe(outputField(event.output, 'message'));
        }
      },
      'sessionLost + after reloginDelay': inState('redirecting'),
      'expired.signingOutLocally + xstate.done.actor.signOutLocally': inState({ expired: 'timedOut' }),
      'expired.signingOutLocally + xstate.error.actor.signOutLocally': inState({ expired: 'timedOut' }),
      'signingOut + xstate.error.actor.signOut': inState('unavailable'),
    },
  },
});
