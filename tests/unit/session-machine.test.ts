import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { SessionEntry, TokenTimes } from '../../src/domain/session.ts';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import { sessionMachine, type SessionEvent } from '../../src/machines/session.machine.ts';
import type {
  AccountInfo,
  ChangePasswordRequest,
  ChangePasswordResponse,
} from '../../src/schemas/account.schema.ts';
import type { TenantConfiguration, TenantValidation } from '../../src/schemas/configuration.schema.ts';

const token: TokenTimes = { issuedAt: 1_700_000_000, expiresAt: 1_700_000_900 };
const account: AccountInfo = {
  Claims: ['view.myapps'],
  DisplayName: 'Avery Admin',
  Email: 'admin@demo.test',
};

interface Fakes {
  entry?: SessionEntry;
  restore?: () => Promise<TokenTimes | null>;
  validation?: TenantValidation;
  changePassword?: () => Promise<ChangePasswordResponse>;
}

/** The session with every actor replaced: records what it was asked to do and lets tests push events. */
function startSession({
  entry = { kind: 'restore' },
  restore = async () => token,
  validation,
  changePassword,
}: Fakes = {}) {
  const calls: string[] = [];
  let monitoringStarts = 0;
  let pushToken: ((event: SessionEvent) => void) | undefined;
  let pushUnauthorized: (() => void) | undefined;
  let pushRenewalRefused: (() => void) | undefined;
  const never = new Promise<never>(() => {});
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        readEntry: fromPromise<SessionEntry>(async () => entry),
        restoreSession: fromPromise(() => restore()),
        completeSignIn: fromPromise(async () => ({ token, returnTo: '/list/all?q=smith' })),
        loadAccount: fromPromise(async () => account),
        loadTenant: fromPromise<TenantConfiguration>(() => never),
        validateTenant: fromPromise<TenantValidation>(
          async () => validation ?? { Success: false, TenantName: '' },
        ),
        signInRedirect: fromPromise<void>(() => {
          calls.push('signInRedirect');
          return never;
        }),
        federatedSignIn: fromPromise<void, { token: string; hash: string }>(({ input }) => {
          calls.push(`federatedSignIn ${input.token} ${input.hash}`);
          return never;
        }),
        signOut: fromPromise<void>(() => {
          calls.push('signOut');
          return never;
        }),
        signOutLocally: fromPromise(async () => {
          calls.push('signOutLocally');
        }),
        watchToken: fromCallback(({ sendBack }) => {
          pushToken = sendBack;
          return () => (pushToken = undefined);
        }),
        startMonitoring: fromPromise(async () => {
          monitoringStarts += 1;
        }),
        watchUnauthorized: fromCallback(({ sendBack }) => {
          pushUnauthorized = () => sendBack({ type: 'session.unauthorized' });
          return () => (pushUnauthorized = undefined);
        }),
        watchRenewal: fromCallback(({ sendBack }) => {
          pushRenewalRefused = () => sendBack({ type: 'session.renewalRefused' });
          return () => (pushRenewalRefused = undefined);
        }),
        changePassword: changePasswordMachine.provide({
          actors: {
            changePassword: fromPromise<ChangePasswordResponse, ChangePasswordRequest>(
              () => changePassword?.() ?? never,
            ),
          },
        }),
      },
    }),
  ).start();
  return {
    actor,
    calls,
    monitoringStarts: () => monitoringStarts,
    loadToken: (times: TokenTimes) => pushToken?.({ type: 'token.loaded', token: times }),
    answer401: () => pushUnauthorized?.(),
    refuseRenewal: () => pushRenewalRefused?.(),
  };
}

describe('session machine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('restores the session, loads the account and shows the shell, then starts monitoring', async () => {
    const { actor, monitoringStarts } = startSession();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(monitoringStarts()).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(monitoringStarts()).toBe(1);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({
      claims: ['view.myapps'],
      displayName: 'Avery Admin',
      email: 'admin@demo.test',
      token,
    });
  });

  it('redirects to sign-in when no session can be restored', async () => {
    const { actor, calls } = startSession({ restore: async () => null });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(calls).toEqual(['signInRedirect']);
  });

  it('shows the unavailable page when authentication fails', async () => {
    const { actor } = startSession({ restore: () => Promise.reject(new Error('provider down')) });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('unavailable')).toBe(true);
  });

  it('completes the sign-in callback and keeps where to return to', async () => {
    const { actor } = startSession({ entry: { kind: 'callback' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(actor.getSnapshot().context.returnTo).toBe('/list/all?q=smith');
  });

  it('sends the federated link to sign-in with its token and hash', async () => {
    const { actor, calls } = startSession({ entry: { kind: 'federated', token: 'tok', hash: 'hash' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('federated')).toBe(true);
    expect(calls).toEqual(['federatedSignIn tok hash']);
  });

  it('stays on tenant-not-found for an unknown tenant, and signs in for a valid one', async () => {
    const unknown = startSession({ entry: { kind: 'tenantNotFound' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(unknown.actor.getSnapshot().matches({ tenantNotFound: 'notFound' })).toBe(true);

    const valid = startSession({
      entry: { kind: 'tenantNotFound' },
      validation: { Success: true, TenantName: 'demo' },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(valid.actor.getSnapshot().matches('signedIn')).toBe(true);
  });

  it('expires the token lifetime plus 2 s after the token was loaded: local sign-out, then the timeout page', async () => {
    const { actor, calls } = startSession();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(902_000 - 1);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ expired: 'timedOut' })).toBe(true);
    expect(calls).toEqual(['signOutLocally']);
  });

  it('restarts the timer whenever a token is loaded', async () => {
    const { actor, loadToken } = startSession();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(780_000);
    loadToken({ issuedAt: token.issuedAt + 780, expiresAt: token.expiresAt + 780 });
    await vi.advanceTimersByTimeAsync(800_000);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    await vi.advanceTimersByTimeAsync(102_000);
    expect(actor.getSnapshot().matches('expired')).toBe(true);
  });

  it('on a 401 says the session timed out and signs in again after 5 s', async () => {
    const { actor, calls, answer401 } = startSession();
    await vi.advanceTimersByTimeAsync(0);
    answer401();
    expect(actor.getSnapshot().matches('sessionLost')).toBe(true);
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(calls).toEqual(['signInRedirect']);
  });

  it('a refused token renewal ends the session at once: local sign-out, then the timeout page (issue 39 point 15)', async () => {
    const { actor, calls, refuseRenewal } = startSession();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    refuseRenewal();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ expired: 'timedOut' })).toBe(true);
    expect(calls).toEqual(['signOutLocally']);
  });

  it('logs out on Log Out', async () => {
    const { actor, calls } = startSession();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'session.signOut' });
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    expect(calls).toEqual(['signOut']);
  });

  describe('Change Password dialog', () => {
    async function changePasswordWith(answer: ChangePasswordResponse) {
      const session = startSession({ changePassword: async () => answer });
      await vi.advanceTimersByTimeAsync(0);
      session.actor.send({ type: 'passwordChange.open' });
      const dialog = session.actor.getSnapshot().children.changePassword;
      if (!dialog) throw new Error('the dialog did not open');
      dialog.send({ type: 'field.change', field: 'current', value: 'Demo-Passw0rd!' });
      dialog.send({ type: 'field.change', field: 'next', value: 'Better-Passw0rd!' });
      dialog.send({ type: 'field.change', field: 'confirm', value: 'Better-Passw0rd!' });
      dialog.send({ type: 'form.submit' });
      await vi.advanceTimersByTimeAsync(0);
      return session;
    }

    it('signs out 2 s after the server answers result 2', async () => {
      const { actor, calls } = await changePasswordWith({ message: 'Changed.', result: 2 });
      expect(actor.getSnapshot().matches({ signedIn: { passwordDialog: 'open' } })).toBe(true);
      await vi.advanceTimersByTimeAsync(2000);
      expect(actor.getSnapshot().matches('signingOut')).toBe(true);
      expect(calls).toEqual(['signOut']);
    });

    it('closes and leaves the server message as a notice for any other result', async () => {
      const { actor } = await changePasswordWith({
        message: 'The current password is incorrect.',
        result: 1,
      });
      expect(actor.getSnapshot().matches({ signedIn: { passwordDialog: 'closed' } })).toBe(true);
      expect(actor.getSnapshot().context.notice).toBe('The current password is incorrect.');
      actor.send({ type: 'notice.dismiss' });
      expect(actor.getSnapshot().context.notice).toBeUndefined();
    });
  });
});
