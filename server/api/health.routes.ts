import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { RouteContext } from './context.ts';

const HealthSchema = z.object({
  status: z.literal('ok'),
  /** How often the database thread died and was started again since the server started (PGlite). */
  databaseRestarts: z.number().int(),
});

const ReadinessSchema = z.object({
  status: z.enum(['ready', 'unavailable', 'draining']),
  /** Whether the database answered `select 1` within two seconds. */
  database: z.boolean(),
});

const databaseTimeoutMs = 2_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** From now on the readiness probe answers 503 draining, so a load balancer sends nothing new (main.ts, on SIGTERM). */
    startDraining(): void;
  }
}

/**
 * The two probes of an instance behind a load balancer (issue 40 point 3). Liveness,
 * `GET /api/health`: the process answers (a supervisor restarts it only when it does not; an
 * unreachable database is no reason to, and restarting every instance would not bring it back).
 * Readiness, `GET /api/health/ready`: 200 while the database answers within two seconds and the
 * instance is not stopping; 503 otherwise, so the balancer routes around it. An instance listens
 * only once migrated and seeded (client.ts), so it is never ready before its migrations are done.
 */
export function registerHealthRoutes({ app, db }: RouteContext, databaseRestarts: () => number) {
  let draining = false;
  app.decorate('startDraining', () => void (draining = true));

  app.get('/api/health', { schema: { response: { 200: HealthSchema } } }, async () => ({ status: 'ok' as const, databaseRestarts: databaseRestarts() }));

  app.get('/api/health/ready', { schema: { response: { 200: ReadinessSchema, 503: ReadinessSchema } } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const database = await Promise.race([
      db.execute(sql`select 1`).then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), databaseTimeoutMs))),
    ]);
    clearTimeout(timer);
    const status = draining ? 'draining' : database ? 'ready' : 'unavailable';
    return reply.code(status === 'ready' ? 200 : 503).send({ status, database });
  });
}
