import * as z from 'zod';
import { monitoringEnvelopes } from '../db/schema.ts';
import type { RouteContext } from './context.ts';

const maxEnvelopeBytes = 256 * 1024;

/** Sentry's tunnel: the portal's error reports land here when no external DSN is configured. */
export function registerMonitoringRoutes({ app, db }: RouteContext) {
  app.addContentTypeParser(
    'application/x-sentry-envelope',
    { parseAs: 'string', bodyLimit: maxEnvelopeBytes },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/api/monitoring',
    { bodyLimit: maxEnvelopeBytes, schema: { body: z.string().min(1, 'An envelope is required.') } },
    async (request, reply) => {
      const envelope = request.body;
      if (!isEnvelope(envelope)) {
        return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'body: not a Sentry envelope' });
      }
      await db.insert(monitoringEnvelopes).values({ envelope });
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
