import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { RouteContext } from './context.ts';

const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** How often the database thread died and was started again since the server started (PGlite). */
  databaseRestarts: z.number().int(),
});

const databaseTimeoutMs = 2_000;

/** Readiness for a load balancer or a supervisor: 200 while the database answers, 503 otherwise. */
export function registerHealthRoutes({ app, db }: RouteContext, databaseRestarts: () => number) {
  app.get('/api/health', { schema: { response: { 200: HealthSchema, 503: HealthSchema } } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const answered = await Promise.race([
      db.execute(sql`select 1`).then(() => true, () => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), databaseTimeoutMs))),
    ]);
    clearTimeout(timer);
    return reply.code(answered ? 200 : 503).send({ status: answered ? 'ok' : 'unavailable', databaseRestarts: databaseRestarts() });
  });
}
