import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest, RouteOptions, preHandlerAsyncHookHandler } from 'fastify';
import { applicationLinkProblem, applicationWriteProblem, cancelledStatus } from '../../src/domain/application-write-rule.ts';
import { findActionApplication, lockApplicationsForWrite, type ApplicationKey } from '../db/application-actions-store.ts';
import { findApplicationByGuid } from '../db/applications-store.ts';
import type { Database } from '../db/client.ts';
import { HttpError } from '../http-error.ts';

/**
 * The one state rule for application writes, applied by route registration (ARCHITECTURE §3,
 * issue 27): every POST/PUT/PATCH/DELETE route must say, in its `config.application`, which
 * applications its request writes (a locator) or that it writes none ('none'). A write route that
 * says neither is refused at registration, so the server does not start with it; a locator gets a
 * preHandler that runs after the route's authentication and validation and before its handler,
 * and answers 409 with the rule's message (src/domain/application-write-rule.ts) for a
 * depersonalised application, before anything is stored, sent or verified.
 *
 * The rule reads the application as the caller may see it (a cancelled one still opens at its
 * address, so it is refused here; an invisible or another tenant's one is left to the route's own 404, so this answer tells nobody more than the route
 * would). Without a caller (the application form's e-mailed links) it reads the host's tenant's
 * application, and answers in the link holder's words.
 *
 * A check before the handler alone loses a race (issue 38 point 2): a depersonalise committed
 * between it and the write's transaction left a saved name, a comment or an upload behind. So the
 * rule holds again inside the write's own transaction, by one mechanism every write route goes
 * through: while a route's handler runs, every transaction it begins on the database starts by
 * locking the applications the preHandler found (`SELECT … FOR UPDATE`, in id order) and applying
 * the rule to their status as it is now, with the same 409. Depersonalise locks the same row
 * (its own transaction goes through here too), so a write and an erasure run one after the other:
 * the write committed first is scrubbed, the one after it is refused. Writes of one statement that
 * need no transaction are conditional on the status they were judged on (writeAction in
 * application-actions-store.ts), which is the same rule in one statement.
 */

/** Which applications a request writes, read from its validated params and body. */
export type ApplicationLocator = (request: FastifyRequest) => readonly ApplicationKey[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The applications a write route writes (their state rule applies), or 'none'. */
    application?: ApplicationLocator | 'none';
    /**
     * The cancel route only: a cancelled application goes on to its store, where cancelling again
     * what the caller cancelled is success (a retry must not fail); depersonalised is still refused.
     */
    cancelsApplications?: true;
    /**
     * The depersonalise route only: a cancelled application is closed for work, not for erasure
     * (issue 38 point 6); depersonalised is still refused.
     */
    erasesApplications?: true;
  }
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const field = (source: unknown, name: string): unknown => (typeof source === 'object' && source !== null ? Reflect.get(source, name) : undefined);

/** The ApplicationID in the params (`/…/:id`). */
export const applicationIdParam =
  (name = 'id'): ApplicationLocator =>
  (request) => {
    const value = field(request.params, name);
    return typeof value === 'number' ? [{ id: value }] : [];
  };

/** An ApplicationGuid in the params or the body. */
export const applicationGuidIn =
  (where: 'params' | 'body', name: string): ApplicationLocator =>
  (request) => {
    const value = field(where === 'params' ? request.params : request.body, name);
    return typeof value === 'string' ? [{ guid: value }] : [];
  };

/** ApplicationGuids of a list in the body (`{ [list]: [{ ApplicationGuid }] }`). */
export const applicationGuidsIn =
  (list: string, name = 'ApplicationGuid'): ApplicationLocator =>
  (request) => {
    const items = field(request.body, list);
    if (!Array.isArray(items)) return [];
    return items.flatMap((item: unknown) => {
      const value = field(item, name);
      return typeof value === 'string' ? [{ guid: value }] : [];
    });
  };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The application (its id and status) as the request may see it, undefined when it may not see it at all. */
async function applicationOf(db: Database, request: FastifyRequest, key: ApplicationKey): Promise<{ id: number; status: string } | undefined> {
  if (request.principal) return findActionApplication(db, request.principal, key);
  // A link's holder: the host's tenant's application (links name it by its guid).
  if (!request.tenant || !('guid' in key) || !uuidPattern.test(key.guid)) return undefined;
  return findApplicationByGuid(db, request.tenant.id, key.guid);
}

/** What a write request may write: the applications it names that its caller may see, and how the rule reads them. */
interface WriteScope {
  ids: number[];
  /** A link's holder (no caller): told in their words. */
  link: boolean;
  /** Cancelled goes on (the cancel and depersonalise routes). */
  passesCancelled: boolean;
  /** Some application it names is not the caller's to see: the route answers for it (404, or a failed item). */
  unseen: boolean;
  /** Only while the handler runs: work it leaves behind (a scrub after the answer) is no write of the request's. */
  open: boolean;
}

/**
 * The rule's answer for applications in `statuses`: the first one's problem when every one is
 * closed, undefined when some are open. A request naming several (bulk cancel) goes on when some
 * are open: its store applies the same rule to each (`closedStatuses`), and its answer says which
 * failed, as it does for any it cannot write.
 */
function refusal(statuses: readonly string[], scope: Omit<WriteScope, 'ids' | 'open'>): string | undefined {
  const problems = statuses.map((status) =>
    scope.passesCancelled && status === cancelledStatus ? undefined : scope.link ? applicationLinkProblem(status) : applicationWriteProblem(status),
  );
  if (scope.unseen) problems.push(undefined);
  const first = problems[0];
  return first !== undefined && problems.every((problem) => problem !== undefined) ? first : undefined;
}

const scopes = new WeakMap<FastifyRequest, WriteScope>();
/** The write scope of the handler running in this async context. */
const running = new AsyncLocalStorage<WriteScope>();

/** 409 when the request would write only applications the rule closes; otherwise their ids are kept for the handler's transactions. */
function stateRule(db: Database, locate: ApplicationLocator, passesCancelled: boolean): preHandlerAsyncHookHandler {
  return async (request) => {
    const keys = locate(request);
    if (keys.length === 0) return;
    // Together, so that the reads share one statement (findActionApplication batches them).
    const named = await Promise.all(keys.map((key) => applicationOf(db, request, key)));
    const found = named.filter((application) => application !== undefined);
    const scope: WriteScope = {
      ids: [...new Set(found.map((application) => application.id))],
      link: !request.principal,
      passesCancelled,
      unseen: found.length < named.length,
      open: true,
    };
    const problem = refusal(
      found.map((application) => application.status),
      scope,
    );
    if (problem !== undefined) throw new HttpError(409, problem);
    scopes.set(request, scope);
  };
}

const guarded = new WeakSet<Database>();

/**
 * Makes every transaction begun on `db` while a write route's handler runs take its applications'
 * rows first and apply the rule to them as they are now. Outside a handler (start-up, the scrub
 * after an answer, tests reading the database) transactions are left as they are.
 */
function guardTransactions(db: Database) {
  if (guarded.has(db)) return;
  guarded.add(db);
  const begin = db.transaction.bind(db);
  db.transaction = (work, config) => {
    const scope = running.getStore();
    if (!scope?.open || scope.ids.length === 0) return begin(work, config);
    return begin(async (tx) => {
      const problem = refusal(await lockApplicationsForWrite(tx, scope.ids), scope);
      if (problem !== undefined) throw new HttpError(409, problem);
      return work(tx);
    }, config);
  };
}

const methodsOf = (route: RouteOptions) => [route.method].flat().map(String);

/**
 * Registers the rule on `app`: every write route registered after this (in any plugin) declares
 * its applications and gets their state rule. Call before any route is registered.
 */
export function registerApplicationWriteRule(app: FastifyInstance, db: Database) {
  guardTransactions(db);
  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route);
    if (!methods.some((method) => writeMethods.has(method))) return;
    const declared = route.config?.application;
    if (declared === undefined) {
      throw new Error(
        `${methods.join('|')} ${route.url}: a write route must declare config.application: the applications it writes (a locator from server/api/application-write-rule.ts), or 'none'.`,
      );
    }
    if (declared === 'none') return;
    const passesCancelled = route.config?.cancelsApplications === true || route.config?.erasesApplications === true;
    // First among the route's preHandlers: nothing of the route's own runs on a refused application.
    route.preHandler = [stateRule(db, declared, passesCancelled), ...[route.preHandler ?? []].flat()];
    // The handler runs in its write scope, so that its transactions hold the rule (guardTransactions).
    const handler = route.handler;
    route.handler = async function (this: FastifyInstance, request, reply) {
      const scope = scopes.get(request);
      if (!scope) return handler.call(this, request, reply);
      try {
        return await running.run(scope, () => handler.call(this, request, reply));
      } finally {
        scope.open = false;
      }
    };
  });
}
