import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../db/client.ts';
import type { ServerConfig } from '../config.ts';
import type { createAccessControl, Principal } from './auth.ts';
import { unauthorized } from '../http-error.ts';

export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every route module receives: the typed Fastify instance and the shared services. */
export interface RouteContext {
  app: TypedApp;
  db: Database;
  config: ServerConfig;
  access: ReturnType<typeof createAccessControl>;
}

/** The caller of a route guarded by `requireAccess`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/** The tenant of a request whose host resolved (the tenant hook refuses the others). */
export function tenantOf(request: FastifyRequest) {
  if (!request.tenant) throw unauthorized('Unknown tenant.');
  return request.tenant;
}
