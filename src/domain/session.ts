/**
 * Session rules shared by the session machine, its services and its views (AM §2, §4, §8; SUV §2, §4).
 * Pure functions and texts only: no browser APIs here.
 */

/** The loader and session screens, letter for letter from the spec. */
export const sessionTexts = {
  checking: 'Getting user status...',
  redirecting: 'Redirecting to Authentication',
  sessionLost: 'The session has timed out. Redirecting to Authentication',
  federated: 'Redirecting to SSO Authentication',
  expired: 'Your session has expired.',
} as const;

/** When an access token was issued and when it expires, in seconds since the epoch (JWT `iat`/`exp`). */
export interface TokenTimes {
  issuedAt: number;
  expiresAt: number;
}

/** SUV §4/§9: the session timer runs for the token lifetime plus 2 seconds. */
export const sessionTimerGraceMs = 2000;

/**
 * How long after a token is (re)loaded the session counts as expired: its lifetime (`exp - iat`)
 * plus the grace. Without a token, or with a nonsensical one, the session is already expired.
 */
export function sessionTimeoutMs(token: TokenTimes | undefined): number {
  if (!token) return 0;
  const lifetimeSeconds = token.expiresAt - token.issuedAt;
  if (!Number.isFinite(lifetimeSeconds) || lifetimeSeconds <= 0) return 0;
  return lifetimeSeconds * 1000 + sessionTimerGraceMs;
}

/** How the portal was entered, which decides how the session starts. */
export type SessionEntry =
  | { kind: 'callback' }
  | { kind: 'federated'; token: string; hash: string }
  | { kind: 'tenantNotFound' }
  | { kind: 'restore' };

export const signInCallbackPath = '/authentication/callback';
export const silentSignInCallbackPath = '/authentication/silent-callback';
export const tenantNotFoundPath = '/tenantnotfound';

/** Reads the entry from the address: the sign-in callback, the federated route, tenant-not-found, or anything else. */
export function sessionEntryFor(pathname: string): SessionEntry {
  if (pathname === signInCallbackPath) return { kind: 'callback' };
  if (pathname === tenantNotFoundPath) return { kind: 'tenantNotFound' };
  const federated = /^\/federated\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
  if (federated?.[1] && federated[2]) {
    return {
      kind: 'federated',
      token: decodeURIComponent(federated[1]),
      hash: decodeURIComponent(federated[2]),
    };
  }
  return { kind: 'restore' };
}

/**
 * Where to come back to after signing in: the address the person was at, except the entry routes
 * themselves (coming back to a used callback would fail; tenant-not-found leads home), which go home.
 */
export function returnPathFor(location: { pathname: string; search: string; hash: string }): string {
  const { pathname } = location;
  if (
    pathname.startsWith('/authentication/') ||
    pathname.startsWith('/federated/') ||
    pathname === tenantNotFoundPath
  ) {
    return '/';
  }
  return safeReturnPath(`${location.pathname}${location.search}${location.hash}`);
}

/**
 * Only same-origin paths are followed after sign-in: the value round-trips through the identity
 * provider, so anything else (`//evil.test`, `https://…`, `/\evil`) falls back to home.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/';
  if (value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}
