import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { ServerConfig } from './config.ts';

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
 * sign-ins per address. Counters live in this instance's memory (@fastify/rate-limit's local store).
 *
 * Register after the tenant hook and before mountIdentityProvider: oidc-provider answers from an
 * onRequest hook that hijacks the reply, so a check that runs any later never sees /oidc/token.
 */
export async function registerRateLimits(app: FastifyInstance, config: ServerConfig) {
  await app.register(rateLimit, { global: false });

  const window = config.RATE_LIMIT_WINDOW * 1000;
  // The plugin's own normalisation: IPv4 as is, IPv6 by /64 (one host usually holds a whole /64).
  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  const perAddress = (name: string, max: number, timeWindow = window) =>
    app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `${name} ${address(request)}` });

  const limits: Record<Bucket, ReturnType<typeof perAddress>> = {
    signIn: perAddress('signIn', config.RATE_LIMIT_SIGN_IN),
    identityProvider: perAddress('identityProvider', config.RATE_LIMIT_TOKEN),
    monitoring: perAddress('monitoring', config.RATE_LIMIT_MONITORING),
    write: perAddress('write', config.RATE_LIMIT_WRITES_PER_ADDRESS),
  };
  const writesPerAccount = app.createRateLimit({
    max: config.RATE_LIMIT_WRITES_PER_ACCOUNT,
    timeWindow: window,
    keyGenerator: (request) => `account ${request.principal?.userId ?? ''}`,
  });
  const failures = perAddress(
    'signInFailures',
    config.RATE_LIMIT_SIGN_IN_FAILURES,
    config.RATE_LIMIT_SIGN_IN_FAILURE_WINDOW * 1000,
  );

  app.decorate('signInFailures', {
    async waitSeconds(request) {
      const state = await failures(request, { increment: false });
      return !state.isAllowed && state.remaining === 0 ? Math.max(1, state.ttlInSeconds) : 0;
    },
    async recordFailure(request) {
      await failures(request);
    },
  } satisfies SignInFailureThrottle);

  // Per address, before anything else is done for the request (authentication included).
  app.addHook('onRequest', async (request, reply) => {
    const bucket = bucketOf(request);
    if (!bucket) return;
    const state = await limits[bucket](request);
    if (!state.isAllowed && state.isExceeded) return sendTooManyRequests(reply, state.ttlInSeconds);
  });

  // Per account: called by requireAccess (server/api/auth.ts) the moment it has established who is
  // calling, whichever hook the route put it in. A global hook cannot do this: global hooks of a
  // stage run before the route's own, so the principal is not known yet for a route that
  // authenticates in preValidation (issue 27 point 7).
  app.decorate('accountWriteLimit', (async (request, reply) => {
    if (!request.principal || bucketOf(request) !== 'write') return false;
    const state = await writesPerAccount(request);
    if (state.isAllowed || !state.isExceeded) return false;
    sendTooManyRequests(reply, state.ttlInSeconds);
    return true;
  }) satisfies AccountWriteLimit);
}
