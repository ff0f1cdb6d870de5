import { describe, expect, it } from 'vitest';
import { tokenTimesOf } from '../../src/services/auth.service.ts';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: object) => `${base64url({ alg: 'RS256' })}.${base64url(payload)}.signature`;

describe('tokenTimesOf', () => {
  it('reads iat and exp from the JWT access token', () => {
    const user = { access_token: jwt({ iat: 1_700_000_000, exp: 1_700_000_900, sub: 'u1' }), expires_at: 1 };
    expect(tokenTimesOf(user)).toEqual({ issuedAt: 1_700_000_000, expiresAt: 1_700_000_900 });
  });

  it('falls back to the announced expiry for an opaque token', () => {
    const times = tokenTimesOf({ access_token: 'opaque-token', expires_at: 4_000_000_000 });
    expect(times.expiresAt).toBe(4_000_000_000);
    expect(Math.abs(times.issuedAt - Date.now() / 1000)).toBeLessThan(5);
  });

  it('falls back when the payload lacks the times', () => {
    expect(tokenTimesOf({ access_token: jwt({ sub: 'u1' }), expires_at: 4_000_000_000 }).expiresAt).toBe(
      4_000_000_000,
    );
  });
});
