import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { monitoringEnvelopes } from '../db/schema.ts';
import { notFound } from '../http-error.ts';
import type { RouteContext } from './context.ts';

/**
 * The portal's Sentry SDK sends one event per envelope with its default limits (100 breadcrumbs,
 * strings cut at 250 characters, no attachments or replays): a few KiB, tens at most. 64 KiB
 * leaves room for that and keeps what one anonymous request can store small.
 */
export const maxEnvelopeBytes = 64 * 1024;

/** Dead rows are made reusable this often (PGlite runs no autovacuum), so the table's files stay bounded too. */
const vacuumEvery = 100;

/**
 * Sentry's tunnel: the portal's error reports land here when no external DSN is configured.
 * Anyone may post (errors happen before sign-in), so it answers only on a tenant's host, per
 * address within RATE_LIMIT_MONITORING (server/rate-limits.ts), and keeps only the newest
 * MONITORING_MAX_ENVELOPES envelopes.
 */
export function registerMonitoringRoutes({ app, db, config }: RouteContext) {
  app.addContentTypeParser(
    'application/x-sentry-envelope',
    { parseAs: 'string', bodyLimit: maxEnvelopeBytes },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/monitoring',
    {
      config: { application: 'none' },
      bodyLimit: maxEnvelopeBytes,
      // Before the body is read: a host that is no tenant gets nothing stored.
      onRequest: async (request) => {
        if (!request.tenant) throw notFound('Unknown tenant.');
      },
      schema: { body: z.string().min(1, 'An envelope is required.') },
    },
    async (request, reply) => {
      const envelope = request.body;
      if (!isEnvelope(envelope)) {
        return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'body: not a Sentry envelope' });
      }
      const [stored] = await db.insert(monitoringEnvelopes).values({ envelope }).returning({ id: monitoringEnvelopes.id });
      if (stored) {
        // Ids only grow, so the newest N are those above the newest id minus N.
        await db.delete(monitoringEnvelopes).where(sql`${monitoringEnvelopes.id} <= ${stored.id - config.MONITORING_MAX_ENVELOPES}`);
        if (stored.id % vacuumEvery === 0) await db.execute(sql`vacuum monitoring_envelopes`);
      }
      return reply.code(200).send({});
    },
  );
}

/** An envelope starts with a JSON header line. */
function isEnvelope(body: string): boolean {
  const newline = body.indexOf('\n');
  try {
    JSON.parse(newline === -1 ? body : body.slice(0, newline));
    return true;
  } catch {
    return false;
  }
}
