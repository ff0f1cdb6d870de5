import { createActorContext } from '@xstate/react';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { Claims } from '../domain/permissions.ts';
import { sessionTexts, sessionTimeoutMs, type SessionEntry, type TokenTimes } from '../domain/session.ts';
import type { AccountInfo } from '../schemas/account.schema.ts';
import type { TenantConfiguration, TenantValidation } from '../schemas/configuration.schema.ts';
import { accountInfo } from '../services/account.service.ts';
import {
  completeSignIn,
  currentSignInEntry,
  federatedSignIn,
  onTokenLoaded,
  restoreSession,
  signInRedirect,
  signOut,
  signOutLocally,
} from '../services/auth.service.ts';
import { tenantConfiguration, validateTenant } from '../services/configuration.service.ts';
import { onUnauthorized } from '../services/http.ts';
import { startMonitoringOnce } from '../services/monitoring-start.ts';
import { changePasswordMachine, type ChangePasswordOutput } from './change-password.machine.ts';
import { typesOf } from './machine-types.ts';

export interface SessionContext {
  /** Times of the current access token: the expiry timer runs from them. */
  token: TokenTimes | undefined;
  /** Where the sign-in callback sends the person on (the address they had asked for). */
  returnTo: string;
  federation: { token: string; hash: string } | undefined;
  claims: Claims;
  displayName: string;
  email: string;
  /** Branding and support contacts; undefined until loaded (or if it cannot be). */
  tenant: TenantConfiguration | undefined;
  /** A message for the shell, e.g. the server's answer after the Change Password dialog closed. */
  notice: string | undefined;
}

export type SessionEvent =
  | { type: 'token.loaded'; token: TokenTimes }
  | { type: 'session.unauthorized' }
  | { type: 'session.signOut' }
  | { type: 'passwordChange.open' }
  | { type: 'notice.dismiss' };

/**
 * The signed-in session (AM §1, §2 loader screens, §4, §8; SUV §2, §4): restoring or completing
 * sign-in, loading the account, the token-lifetime timer, session loss on a 401, sign-out, and the
 * Change Password dialog, which can end the session.
 */
export const sessionMachine = setup({
  types: typesOf<{
    context: SessionContext;
    events: SessionEvent;
    tags: 'loading';
    children: { changePassword: 'changePassword' };
  }>(),
  actors: {
    readEntry: fromPromise<SessionEntry>(async () => currentSignInEntry()),
    restoreSession: fromPromise(() => restoreSession()),
    completeSignIn: fromPromise(() => completeSignIn()),
    loadAccount: fromPromise(() => accountInfo()),
    loadTenant: fromPromise(() => tenantConfiguration()),
    validateTenant: fromPromise(() => validateTenant()),
    signInRedirect: fromPromise(() => signInRedirect()),
    federatedSignIn: fromPromise<void, { token: string; hash: string }>(({ input }) =>
      federatedSignIn(input),
    ),
    signOut: fromPromise(() => signOut()),
    signOutLocally: fromPromise(() => signOutLocally()),
    // A renewal that fails (refused or unreachable) sends nothing: the lifetime timer then ends the
    // session on /timeout, as SUV §4 says, rather than the 401 path's immediate re-login.
    watchToken: fromCallback(({ sendBack }) => onTokenLoaded((token) => sendBack({ type: 'token.loaded', token }))),
    watchUnauthorized: fromCallback(({ sendBack }) =>
      onUnauthorized(() => sendBack({ type: 'session.unauthorized' })),
    ),
    startMonitoring: fromPromise(() => startMonitoringOnce()),
    changePassword: changePasswordMachine,
  },
  guards: {
    isCallbackEntry: (_, params: { entry: SessionEntry }) => params.entry.kind === 'callback',
    isFederatedEntry: (_, params: { entry: SessionEntry }) => params.entry.kind === 'federated',
    isTenantNotFoundEntry: (_, params: { entry: SessionEntry }) => params.entry.kind === 'tenantNotFound',
    isValidTenant: (_, params: { validation: TenantValidation }) => params.validation.Success,
    hasToken: (_, params: { token: TokenTimes | null }) => params.token !== null,
    shouldSignOut: (_, params: { output: ChangePasswordOutput }) => params.output.signOut,
  },
  actions: {
    assignFederation: assign((_, params: { entry: SessionEntry }) => ({
      federation:
        params.entry.kind === 'federated'
          ? { token: params.entry.token, hash: params.entry.hash }
          : undefined,
    })),
    assignToken: assign((_, params: { token: TokenTimes | null }) => ({ token: params.token ?? undefined })),
    assignReturnTo: assign((_, params: { returnTo: string }) => ({ returnTo: params.returnTo })),
    assignAccount: assign((_, params: { account: AccountInfo }) => ({
      claims: params.account.Claims,
      displayName: params.account.DisplayName,
      email: params.account.Email,
    })),
    assignTenant: assign((_, params: { tenant: TenantConfiguration }) => ({ tenant: params.tenant })),
    assignNotice: assign((_, params: { output: ChangePasswordOutput }) => ({
      notice: params.output.message,
    })),
    clearNotice: assign({ notice: undefined }),
  },
  delays: {
    /** SUV §4: the token lifetime (exp - iat) plus 2 seconds, from the last time a token was loaded. */
    tokenLifetime: ({ context }) => sessionTimeoutMs(context.token),
    /** AM §8: after a session loss, sign in again after 5 seconds. */
    reloginDelay: 5000,
  },
}).createMachine({
  id: 'session',
  initial: 'checking',
  context: {
    token: undefined,
    returnTo: '/',
    federation: undefined,
    claims: [],
    displayName: '',
    email: '',
    tenant: undefined,
    notice: undefined,
  },
  // Branding and support contacts load alongside everything else; the defaults stay if they cannot.
  invoke: {
    id: 'loadTenant',
    src: 'loadTenant',
    onDone: { actions: { type: 'assignTenant', params: ({ event }) => ({ tenant: event.output }) } },
  },
  states: {
    checking: {
      description: sessionTexts.checking,
      tags: ['loading'],
      initial: 'readingEntry',
      states: {
        readingEntry: {
          invoke: {
            id: 'readEntry',
            src: 'readEntry',
            onDone: [
              {
                guard: { type: 'isCallbackEntry', params: ({ event }) => ({ entry: event.output }) },
                target: 'completingSignIn',
              },
              {
                guard: { type: 'isFederatedEntry', params: ({ event }) => ({ entry: event.output }) },
                target: '#session.federated',
                actions: { type: 'assignFederation', params: ({ event }) => ({ entry: event.output }) },
              },
              {
                guard: { type: 'isTenantNotFoundEntry', params: ({ event }) => ({ entry: event.output }) },
                target: '#session.tenantNotFound',
              },
              { target: 'restoring' },
            ],
            onError: { target: 'restoring' },
          },
        },
        restoring: {
          description: 'Restoring the session: the token in memory, else a silent sign-in',
          invoke: {
            id: 'restoreSession',
            src: 'restoreSession',
            onDone: [
              {
                guard: { type: 'hasToken', params: ({ event }) => ({ token: event.output }) },
                target: 'loadingAccount',
                actions: { type: 'assignToken', params: ({ event }) => ({ token: event.output }) },
              },
              { target: '#session.redirecting' },
            ],
            onError: { target: '#session.unavailable' },
          },
        },
        completingSignIn: {
          description: 'Back from the sign-in page: exchanging the code for tokens',
          invoke: {
            id: 'completeSignIn',
            src: 'completeSignIn',
            onDone: {
              target: 'loadingAccount',
              actions: [
                { type: 'assignToken', params: ({ event }) => ({ token: event.output.token }) },
                { type: 'assignReturnTo', params: ({ event }) => ({ returnTo: event.output.returnTo }) },
              ],
            },
            onError: { target: '#session.unavailable' },
          },
        },
        loadingAccount: {
          description: 'Loading the claims, display name and e-mail of the signed-in user',
          invoke: {
            id: 'loadAccount',
            src: 'loadAccount',
            onDone: {
              target: '#session.signedIn',
              actions: { type: 'assignAccount', params: ({ event }) => ({ account: event.output }) },
            },
            onError: { target: '#session.unavailable' },
          },
        },
      },
    },
    redirecting: {
      description: sessionTexts.redirecting,
      tags: ['loading'],
      invoke: { id: 'signInRedirect', src: 'signInRedirect', onError: { target: 'unavailable' } },
    },
    federated: {
      description: `${sessionTexts.federated} (our identity provider has no SSO-token endpoint: this is the ordinary sign-in)`,
      tags: ['loading'],
      invoke: {
        id: 'federatedSignIn',
        src: 'federatedSignIn',
        input: ({ context }) => context.federation ?? { token: '', hash: '' },
        onError: { target: 'unavailable' },
      },
    },
    tenantNotFound: {
      description:
        "SUV §2 /tenantnotfound: 'LAB Portal unavailable', check the address or retry in 5-10 minutes, with the support e-mail and phone",
      initial: 'validating',
      states: {
        validating: {
          description: 'On load the address is validated; a valid tenant goes on to sign-in and then home',
          invoke: {
            id: 'validateTenant',
            src: 'validateTenant',
            onDone: [
              {
                guard: { type: 'isValidTenant', params: ({ event }) => ({ validation: event.output }) },
                target: '#session.checking.restoring',
              },
              { target: 'notFound' },
            ],
            onError: { target: 'notFound' },
          },
        },
        notFound: { invoke: { id: 'startMonitoring', src: 'startMonitoring' } },
      },
    },
    signedIn: {
      description: 'The portal shell: header, navigation and the page',
      type: 'parallel',
      invoke: [
        { id: 'watchToken', src: 'watchToken' },
        { id: 'watchUnauthorized', src: 'watchUnauthorized' },
        { id: 'startMonitoring', src: 'startMonitoring' },
      ],
      on: {
        'session.signOut': { target: 'signingOut' },
        'session.unauthorized': { target: 'sessionLost' },
      },
      states: {
        lifetime: {
          initial: 'counting',
          states: {
            counting: {
              description: 'Token lifetime + 2 s timer, restarted whenever a token is loaded',
              after: { tokenLifetime: { target: '#session.expired' } },
              on: {
                'token.loaded': {
                  target: 'counting',
                  reenter: true,
                  actions: { type: 'assignToken', params: ({ event }) => ({ token: event.token }) },
                },
              },
            },
          },
        },
        passwordDialog: {
          initial: 'closed',
          states: {
            closed: {
              on: {
                'passwordChange.open': { target: 'open', actions: 'clearNotice' },
                'notice.dismiss': { actions: 'clearNotice' },
              },
            },
            open: {
              description: 'The Change Password dialog',
              invoke: {
                id: 'changePassword',
                src: 'changePassword',
                onDone: [
                  {
                    guard: { type: 'shouldSignOut', params: ({ event }) => ({ output: event.output }) },
                    target: '#session.signingOut',
                  },
                  {
                    target: 'closed',
                    actions: { type: 'assignNotice', params: ({ event }) => ({ output: event.output }) },
                  },
                ],
              },
            },
          },
        },
      },
    },
    sessionLost: {
      description: sessionTexts.sessionLost,
      tags: ['loading'],
      after: { reloginDelay: { target: 'redirecting' } },
    },
    expired: {
      description: `${sessionTexts.expired} (shown at /timeout)`,
      initial: 'signingOutLocally',
      states: {
        signingOutLocally: {
          invoke: {
            id: 'signOutLocally',
            src: 'signOutLocally',
            onDone: { target: 'timedOut' },
            onError: { target: 'timedOut' },
          },
        },
        timedOut: { type: 'final' },
      },
    },
    signingOut: {
      description: 'Log Out: ending the session, then back to the sign-in page',
      tags: ['loading'],
      invoke: { id: 'signOut', src: 'signOut', onError: { target: 'unavailable' } },
    },
    unavailable: {
      description:
        'The portal is unavailable: retry in 5-10 minutes, with the support e-mail and phone (authentication failed)',
      invoke: { id: 'startMonitoring', src: 'startMonitoring' },
    },
  },
});

/** Provided once around the authenticated part of the router. */
export const SessionContext = createActorContext(sessionMachine);
