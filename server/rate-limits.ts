import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import type { ServerConfig } from './config.ts';
import type { WindowCounters } from './counters.ts';

/** Sign-in failures per address: consulted by the login interaction before it checks a password. */
export interface SignInFailureThrottle {
  /** Seconds this request's address must wait before its next attempt; 0 when it may try now. */
  waitSeconds(request: FastifyRequest): Promise<number>;
  /** Counts a failed attempt against this request's address. */
  recordFailure(request: FastifyRequest): Promise<void>;
}

/**
 * Counts an authenticated request against its account's write allowance and, when that is spent,
 * answers 429 itself. True when it answered (the caller stops there).
 */
export type AccountWriteLimit = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyInstance {
    signInFailures: SignInFailureThrottle;
    accountWriteLimit: AccountWriteLimit;
  }
}

/** What a request is limited as; `undefined` for reads, which are not limited. */
type Bucket = 'signIn' | 'identityProvider' | 'monitoring' | 'write';

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function bucketOf(request: FastifyRequest): Bucket | undefined {
  if (readMethods.has(request.method)) return undefined;
  const path = request.url.split('?', 1)[0] ?? '';
  // The same prefix test as mount.ts's hook, so whatever oidc-provider serves is counted here:
  // the token exchange and refresh, revocation, and any other form it accepts.
  if (path === '/oidc' || path.startsWith('/oidc/')) return 'identityProvider';
  if (path.startsWith('/interaction/')) return 'signIn';
  if (path === '/api/monitoring') return 'monitoring';
  // Every other state-changing request (API, identity service, and routes added later).
  return 'write';
}

/** "3 minutes", "40 seconds": for the people reading the answer. */
export function describeWait(seconds: number): string {
  if (seconds <= 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function sendTooManyRequests(reply: FastifyReply, retryAfterSeconds: number) {
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .send({
      statusCode: 429,
      error: 'Too Many Requests',
      message: `Too many requests. Please try again in ${describeWait(retryAfterSeconds)}.`,
    });
}

/**
 * Abuse limits (docs/decisions/003-abuse-limits.md): requests per address for sign-in, the identity
 * provider's POSTs, the monitoring tunnel and every write; writes per account too; and failed
 * sign-ins per address. Counted in `counters` (server/counters.ts): in memory on PGlite, in
 * PostgreSQL, shared by every instance, with DATABASE_URL.
 *
 * Register after the tenant hook and before mountIdentityProvider: oidc-provider answers from an
 * onRequest hook that hijacks the reply, so a check that runs any later never sees /oidc/token.
 */
export function registerRateLimits(app: FastifyInstance, config: ServerConfig, counters: WindowCounters) {
  const window = config.RATE_LIMIT_WINDOW * 1000;
  // @fastify/rate-limit's normalisation: IPv4 as is, IPv6 by /64 (one host usually holds a whole /64).
  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  /** Counts one hit for `key`; the seconds to wait when that hit is past `max`, else 0. */
  const over = async (key: string, max: number, windowMs = window) => {
    const count = await counters.hit(key, windowMs);
    return count.hits > max ? count.resetInSeconds : 0;
  };

  const maxOf: Record<Bucket, number> = {
    signIn: config.RATE_LIMIT_SIGN_IN,
    identityProvider: config.RATE_LIMIT_TOKEN,
    monitoring: config.RATE_LIMIT_MONITORING,
    write: config.RATE_LIMIT_WRITES_PER_ADDRESS,
  };
  const failureWindow = config.RATE_LIMIT_SIGN_IN_FAILURE_WINDOW * 1000;
  const failureKey = (request: FastifyRequest) => `signInFailures ${address(request)}`;

  app.decorate('signInFailures', {
    async waitSeconds(request) {
      const count = await counters.hit(failureKey(request), failureWindow, { peek: true });
      return count.hits >= config.RATE_LIMIT_SIGN_IN_FAILURES ? count.resetInSeconds : 0;
    },
    async recordFailure(request) {
      await counters.hit(failureKey(request), failureWindow);
    },
  } satisfies SignInFailureThrottle);

  // Per address, before anything else is done for the request (authentication included).
  app.addHook('onRequest', async (request, reply) => {
    const bucket = bucketOf(request);
    if (!bucket) return;
    const wait = await over(`${bucket} ${address(request)}`, maxOf[bucket]);
    if (wait > 0) return sendTooManyRequests(reply, wait);
  });

  // Per account: called by requireAccess (server/api/auth.ts) the moment it has established who is
  // calling, whichever hook the route put it in. A global hook cannot do this: global hooks of a
  // stage run before the route's own, so the principal is not known yet for a route that
  // authenticates in preValidation (issue 27 point 7).
  app.decorate('accountWriteLimit', (async (request, reply) => {
    if (!request.principal || bucketOf(request) !== 'write') return false;
    const wait = await over(`account ${request.principal.userId}`, config.RATE_LIMIT_WRITES_PER_ACCOUNT);
    if (wait === 0) return false;
    sendTooManyRequests(reply, wait);
    return true;
  }) satisfies AccountWriteLimit);
}
