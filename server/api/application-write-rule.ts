import type { FastifyInstance, FastifyRequest, RouteOptions, preHandlerAsyncHookHandler } from 'fastify';
import { applicationLinkProblem, applicationWriteProblem, cancelledStatus } from '../../src/domain/application-write-rule.ts';
import { findActionApplication, type ApplicationKey } from '../db/application-actions-store.ts';
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

/** The application's status as the request may see it, undefined when it may not see it at all. */
async function statusOf(db: Database, request: FastifyRequest, key: ApplicationKey): Promise<string | undefined> {
  if (request.principal) return (await findActionApplication(db, request.principal, key))?.status;
  // A link's holder: the host's tenant's application (links name it by its guid).
  if (!request.tenant || !('guid' in key) || !uuidPattern.test(key.guid)) return undefined;
  return (await findApplicationByGuid(db, request.tenant.id, key.guid))?.status;
}

/**
 * 409 when the request would write only applications the rule closes. A request naming several
 * (bulk cancel) goes on when some are open: its store applies the same rule to each
 * (`closedStatuses`), and its answer says which failed, as it does for any it cannot write.
 */
function stateRule(db: Database, locate: ApplicationLocator, cancels: boolean): preHandlerAsyncHookHandler {
  return async (request) => {
    const keys = locate(request);
    if (keys.length === 0) return;
    // Together, so that the reads share one statement (findActionApplication batches them).
    const statuses = (await Promise.all(keys.map((key) => statusOf(db, request, key)))).map((status) =>
      cancels && status === cancelledStatus ? undefined : status,
    );
    const problems = statuses.map((status) =>
      status === undefined ? undefined : request.principal ? applicationWriteProblem(status) : applicationLinkProblem(status),
    );
    const first = problems[0];
    if (first !== undefined && problems.every((problem) => problem !== undefined)) throw new HttpError(409, first);
  };
}

const methodsOf = (route: RouteOptions) => [route.method].flat().map(String);

/**
 * Registers the rule on `app`: every write route registered after this (in any plugin) declares
 * its applications and gets their state rule. Call before any route is registered.
 */
export function registerApplicationWriteRule(app: FastifyInstance, db: Database) {
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
    // First among the route's preHandlers: nothing of the route's own runs on a refused application.
    route.preHandler = [stateRule(db, declared, route.config?.cancelsApplications === true), ...[route.preHandler ?? []].flat()];
  });
}
