import {
  ErrorResponse,
  InMemoryWebStorage,
  UserManager,
  WebStorageStateStore,
  type User,
} from 'oidc-client-ts';
import {
  returnPathFor,
  safeReturnPath,
  sessionEntryFor,
  signInCallbackPath,
  silentSignInCallbackPath,
  type SessionEntry,
  type TokenTimes,
} from '../domain/session.ts';
import { AccessTokenTimesSchema, SignInStateSchema } from '../schemas/session.schema.ts';
import { logout } from './account.service.ts';
import { setAccessTokenSource } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

/**
 * Sign-in through the identity provider with oidc-client-ts (authorisation code + PKCE S256).
 * Tokens live in memory only (ARCHITECTURE §5): a reload restores them with a silent sign-in
 * against the provider's session cookie. The PKCE state survives the redirect in sessionStorage.
 */

let manager: UserManager | undefined;
let currentUser: User | null = null;

function userManager(): UserManager {
  if (manager) return manager;
  const config = runtimeConfig();
  const origin = window.location.origin;
  const created = new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    scope: config.scope,
    response_type: 'code',
    redirect_uri: `${origin}${signInCallbackPath}`,
    silent_redirect_uri: `${origin}${silentSignInCallbackPath}`,
    automaticSilentRenew: true,
    // AM §1/§9: renew 120 s (as configured) before the access token expires.
    accessTokenExpiringNotificationTimeInSeconds: config.tokenRefreshLeadSeconds,
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  created.events.addUserLoaded((user) => {
    currentUser = user;
  });
  created.events.addUserUnloaded(() => {
    currentUser = null;
  });
  setAccessTokenSource(() => currentUser?.access_token);
  manager = created;
  return created;
}

/** `iat`/`exp` of the JWT access token; an opaque token falls back to the token response's lifetime. */
export function tokenTimesOf(user: Pick<User, 'access_token' | 'expires_at'>): TokenTimes {
  const payload = user.access_token.split('.')[1];
  if (payload) {
    try {
      const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
      const json: unknown = JSON.parse(
        atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')),
      );
      const parsed = AccessTokenTimesSchema.safeParse(json);
      if (parsed.success) return { issuedAt: parsed.data.iat, expiresAt: parsed.data.exp };
    } catch {
      // Not a JWT: fall through to the lifetime the token endpoint announced.
    }
  }
  const now = Math.floor(Date.now() / 1000);
  return { issuedAt: now, expiresAt: user.expires_at ?? now };
}

function keep(user: User): TokenTimes {
  currentUser = user;
  return tokenTimesOf(user);
}

/** Errors with which the provider says "not without the person": sign in interactively instead. */
const interactiveSignInErrors = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

/** How this page load entered the portal (callback, federated link, or anything else). */
export function currentSignInEntry(): SessionEntry {
  return sessionEntryFor(window.location.pathname);
}

/** Restores the session on load: the user in memory, else a silent sign-in; null when sign-in is needed. */
export async function restoreSession(): Promise<TokenTimes | null> {
  const users = userManager();
  const existing = await users.getUser();
  if (existing && !existing.expired) return keep(existing);
  try {
    const user = await users.signinSilent();
    return user ? keep(user) : null;
  } catch (error) {
    if (error instanceof ErrorResponse && interactiveSignInErrors.has(error.error ?? '')) return null;
    throw error;
  }
}

/** Sends the browser to the sign-in page; afterwards the portal returns to `returnTo` (default: here). */
export async function signInRedirect(returnTo?: string): Promise<void> {
  const state = { returnTo: returnTo ?? returnPathFor(window.location) };
  await userManager().signinRedirect({ state });
}

export interface CompletedSignIn {
  token: TokenTimes;
  returnTo: string;
}

let completing: Promise<CompletedSignIn> | undefined;

/**
 * Finishes the sign-in at /authentication/callback: exchanges the code, and says where to go back.
 * The code can be exchanged once only, so a second caller (React's development double mount)
 * shares the first exchange.
 */
export function completeSignIn(): Promise<CompletedSignIn> {
  completing ??= userManager()
    .signinRedirectCallback()
    .then((user) => {
      const state = SignInStateSchema.safeParse(user.state);
      return { token: keep(user), returnTo: safeReturnPath(state.success ? state.data.returnTo : '/') };
    });
  return completing;
}

/**
 * SUV §2 federated sign-in with a token and hash: an ordinary authorisation request (PKCE, as
 * every sign-in) that carries the link to the identity provider, which checks it and signs the
 * person in without a password, or shows why it cannot. `prompt=login`: the link's person, never
 * a session this browser already had.
 */
export async function federatedSignIn(federation: { token: string; hash: string }): Promise<void> {
  await userManager().signinRedirect({
    state: { returnTo: '/' },
    prompt: 'login',
    extraQueryParams: { federation_token: federation.token, federation_hash: federation.hash },
  });
}

/** Log Out: ends the server session, forgets the tokens, and starts a fresh sign-in at `/`. */
export async function signOut(): Promise<void> {
  try {
    await logout();
  } catch {
    // Already reported by the HTTP wrapper; the local sign-out and the new sign-in still happen.
  }
  await userManager().removeUser();
  await signInRedirect('/');
}

/** Forgets the tokens in this tab only (the session timer ran out); stops the silent renewal too. */
export async function signOutLocally(): Promise<void> {
  await userManager().removeUser();
}

/**
 * Calls `listener` when the identity provider refuses a token renewal (an OAuth error answer, e.g.
 * invalid_grant for a deactivated account or an ended session): that session cannot go on. A renewal
 * that never got an answer (network, time-out) is not a refusal: the next one may still succeed.
 */
export function onRenewalRefused(listener: () => void): () => void {
  const events = userManager().events;
  const handler = (error: Error) => {
    if (error instanceof ErrorResponse) listener();
  };
  events.addSilentRenewError(handler);
  return () => events.removeSilentRenewError(handler);
}

/** Calls `listener` with the new token times whenever a token is loaded (sign-in or renewal). */
export function onTokenLoaded(listener: (token: TokenTimes) => void): () => void {
  const events = userManager().events;
  const handler = (user: User) => listener(tokenTimesOf(user));
  events.addUserLoaded(handler);
  return () => events.removeUserLoaded(handler);
}
