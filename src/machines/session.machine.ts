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
  onRenewalRefused,
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
import type { MachineLabels } from './machine-labels.ts';
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
  | { type: 'session.renewalRefused' }
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
    watchToken: fromCallback(({ sendBack }) => onTokenLoaded((token) => sendBack({ type: 'token.loaded', token }))),
    // A renewal the provider refuses ends the session at once on /timeout (SUV §8, issue 39 point 15:
    // a deactivated person kept the page until the next ping); one that went unanswered sends nothing,
    // and the lifetime timer ends the session if no later renewal succeeds.
    watchRenewal: fromCallback(({ sendBack }) => onRenewalRefused(() => sendBack({ type: 'session.renewalRefused' }))),
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
      description: `${sessionTexts.federated}: the link goes to the identity provider, which checks it and signs in without a password`,
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
        { id: 'watchRenewal', src: 'watchRenewal' },
        { id: 'startMonitoring', src: 'startMonitoring' },
      ],
      on: {
        'session.signOut': { target: 'signingOut' },
        'session.unauthorized': { target: 'sessionLost' },
        'session.renewalRefused': { target: 'expired' },
      },
      states: {
        lifetime: {
          description: 'Session lifetime',
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
          description: 'Change Password dialog',
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

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose:
    'Signs a person in (restoring a session, completing sign-in or SSO), loads their account, keeps the session to its token lifetime and ends it on sign-out, expiry, a refused renewal or a 401.',
  spec: ['AM §1', 'AM §2', 'AM §4', 'AM §8', 'SUV §2', 'SUV §4', 'SUV §8'],
  actors: {
    readEntry: {
      does: 'Reads how the portal was opened (sign-in callback, SSO link, unknown tenant or plain)',
      done: 'entry read',
      failed: 'entry could not be read',
    },
    restoreSession: {
      does: 'Checks the stored token, else signs in silently',
      done: 'session check done',
      failed: 'session could not be checked',
    },
    completeSignIn: {
      does: 'Exchanges the sign-in code for tokens',
      done: 'sign-in completed',
      failed: 'sign-in could not be completed',
    },
    loadAccount: {
      does: 'Loads the claims, display name and e-mail',
      done: 'account loaded',
      failed: 'account could not be loaded',
    },
    loadTenant: {
      does: 'Loads the tenant’s branding and support contacts',
      done: 'branding loaded',
      failed: 'branding could not be loaded',
    },
    validateTenant: {
      does: 'Checks that the address names a known tenant',
      done: 'address checked',
      failed: 'address could not be checked',
    },
    signInRedirect: {
      does: 'Sends the browser to the sign-in page',
      done: 'sent to sign-in',
      failed: 'sign-in page could not be reached',
    },
    federatedSignIn: {
      does: 'Signs in with the SSO token from the link',
      done: 'SSO sign-in started',
      failed: 'SSO sign-in failed',
    },
    signOut: { does: 'Ends the session at the identity provider', done: 'signed out', failed: 'sign-out failed' },
    signOutLocally: {
      does: 'Forgets the tokens in this browser',
      done: 'tokens forgotten',
      failed: 'tokens could not be cleared',
    },
    watchToken: { does: 'Listens for renewed tokens' },
    watchUnauthorized: { does: 'Listens for a 401 answer from any API call' },
    watchRenewal: { does: 'Listens for a token renewal the identity provider refuses' },
    startMonitoring: { does: 'Starts error monitoring (once per page load)' },
    changePassword: {
      does: 'Runs the Change Password dialog',
      done: 'dialog closed',
      failed: 'dialog failed',
    },
  },
  guards: {
    isCallbackEntry: 'back from the sign-in page',
    isFederatedEntry: 'opened from an SSO link',
    isTenantNotFoundEntry: 'the address names no known tenant',
    isValidTenant: 'the tenant is valid',
    hasToken: 'a session exists',
    shouldSignOut: 'the password was changed (sign out)',
  },
  delays: {
    tokenLifetime: 'the token lifetime + 2 s',
    reloginDelay: 'the pause before signing in again',
  },
  events: {
    'token.loaded': 'a new token arrived',
    'session.unauthorized': 'an API call answered 401',
    'session.renewalRefused': 'the token renewal was refused',
    'session.signOut': 'Log Out chosen',
    'passwordChange.open': 'Change Password chosen',
    'notice.dismiss': 'notice dismissed',
  },
} satisfies MachineLabels<typeof sessionMachine>;

/** Provided once around the authenticated part of the router. */
export const SessionContext = createActorContext(sessionMachine);
