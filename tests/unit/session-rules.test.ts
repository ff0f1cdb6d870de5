import { describe, expect, it } from 'vitest';
import {
  returnPathFor,
  safeReturnPath,
  sessionEntryFor,
  sessionTimeoutMs,
  sessionTimerGraceMs,
} from '../../src/domain/session.ts';

describe('sessionTimeoutMs (SUV §4: token lifetime plus 2 seconds)', () => {
  it('is exp - iat in milliseconds plus the 2 s grace', () => {
    expect(sessionTimeoutMs({ issuedAt: 1_700_000_000, expiresAt: 1_700_000_900 })).toBe(902_000);
    expect(sessionTimerGraceMs).toBe(2000);
  });

  it('does not depend on the wall clock, only on the token', () => {
    expect(sessionTimeoutMs({ issuedAt: 10, expiresAt: 40 })).toBe(32_000);
  });

  it('treats a missing or nonsensical token as already expired', () => {
    expect(sessionTimeoutMs(undefined)).toBe(0);
    expect(sessionTimeoutMs({ issuedAt: 100, expiresAt: 100 })).toBe(0);
    expect(sessionTimeoutMs({ issuedAt: 100, expiresAt: 50 })).toBe(0);
    expect(sessionTimeoutMs({ issuedAt: Number.NaN, expiresAt: 50 })).toBe(0);
  });
});

describe('sessionEntryFor', () => {
  it('recognises the sign-in callback', () => {
    expect(sessionEntryFor('/authentication/callback')).toEqual({ kind: 'callback' });
  });

  it('reads the token and hash of the federated route, decoded', () => {
    expect(sessionEntryFor('/federated/abc%2B1/h%3D')).toEqual({
      kind: 'federated',
      token: 'abc+1',
      hash: 'h=',
    });
  });

  it('recognises the tenant-not-found page', () => {
    expect(sessionEntryFor('/tenantnotfound')).toEqual({ kind: 'tenantNotFound' });
  });

  it('restores the session everywhere else', () => {
    for (const path of ['/', '/list/all/2/50', '/federated/only-token', '/authentication/callbackx']) {
      expect(sessionEntryFor(path), path).toEqual({ kind: 'restore' });
    }
  });
});

describe('returnPathFor', () => {
  it('returns to the same address, query and hash included', () => {
    expect(returnPathFor({ pathname: '/list/all/3', search: '?q=smith&status=%5B%5D', hash: '#top' })).toBe(
      '/list/all/3?q=smith&status=%5B%5D#top',
    );
  });

  it('goes home from the identity and entry routes', () => {
    for (const pathname of [
      '/authentication/callback',
      '/authentication/silent-callback',
      '/federated/a/b',
      '/tenantnotfound',
    ]) {
      expect(returnPathFor({ pathname, search: '?code=x', hash: '' }), pathname).toBe('/');
    }
  });
});

describe('safeReturnPath', () => {
  it('keeps same-origin paths', () => {
    expect(safeReturnPath('/application/12?from=all')).toBe('/application/12?from=all');
  });

  it('refuses anything that could leave the portal', () => {
    for (const value of [
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test',
      'list',
      '',
      42,
      undefined,
      null,
    ]) {
      expect(safeReturnPath(value), String(value)).toBe('/');
    }
  });
});
