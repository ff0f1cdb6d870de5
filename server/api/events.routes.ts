import { decodeJwt } from 'jose';
import * as z from 'zod';
import { allAppsClaims, myAppsClaim } from '../../src/domain/claims.ts';
import { LastEventIdSchema } from '../../src/schemas/live-events.schema.ts';
import { createLiveChanges, sseMessage, type LiveStream } from '../live/live-changes.ts';
import { liveNotificationsFor } from '../live/notifications.ts';
import { sendTooManyRequests } from '../rate-limits.ts';
import { principalOf, type RouteContext } from './context.ts';

/** A comment line this often keeps proxies from closing a quiet stream, and finds a dead one. */
const heartbeatMs = 20_000;
/** What the client waits before it connects again after a drop (SSE `retry:`); its statechart backs off from there. */
const clientRetryMs = 2_000;
/** A client this far behind in reading is dropped: it resumes with Last-Event-ID, losing nothing. */
const maxBufferedBytes = 1024 * 1024;
/** setTimeout's longest delay. */
const maxTimerMs = 2_147_483_647;

/**
 * `GET /api/events`: one Server-Sent Events stream per signed-in tab (docs/decisions/012-live-changes.md).
 * The same bearer rules as every API route (requireAccess); it ends when the token expires, its
 * grant ends (sign-out, revocation) or the user record no longer passes the check. Only a client
 * that asks for `text/event-stream` gets one (406 otherwise), as EventSource and the portal's reader
 * do: a plain request is answered, not held open.
 */
export async function registerEventRoutes({ app, db, config, access }: RouteContext) {
  const live = createLiveChanges(db, await liveNotificationsFor(db));
  // Streams never end on their own: close them before the server waits for its connections.
  app.addHook('preClose', async () => live.endAll());
  app.addHook('onClose', async () => live.close());

  app.get(
    '/api/events',
    {
      preValidation: access.requireAccess({ scope: 'applicationmanager', anyClaim: [myAppsClaim, ...allAppsClaims] }),
      // Loose: the other headers (the bearer token) stay on the request for the later checks.
      schema: { headers: z.looseObject({ 'last-event-id': LastEventIdSchema.optional() }) },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (!/\btext\/event-stream\b/.test(request.headers.accept ?? '')) {
        return reply.code(406).send({ statusCode: 406, error: 'Not Acceptable', message: 'The event stream is sent as text/event-stream only.' });
      }
      // Counted in the limits: open streams per account and per instance (each holds a connection).
      if (live.count(principal.userId) >= config.LIVE_STREAMS_PER_ACCOUNT || live.count() >= config.LIVE_STREAMS_PER_INSTANCE) {
        return sendTooManyRequests(reply, Math.ceil(clientRetryMs / 1000) * 15);
      }
      const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const { exp = 0, gid } = decodeJwt(token);
      const lastEventId = request.headers['last-event-id'];
      const current = await live.currentVersion(principal.tenantId);
      const resumeFrom = lastEventId === undefined ? undefined : Number(lastEventId);
      const resumable = resumeFrom !== undefined && (await live.canResumeFrom(principal.tenantId, resumeFrom));

      reply.hijack();
      const raw = reply.raw;
      const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined));
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // nginx and others buffer responses unless told not to: an event must not wait in a proxy.
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: ${clientRetryMs}\n`);
      if (resumeFrom !== undefined && !resumable) raw.write(sseMessage(current, { kind: 'reset', ApplicationIDs: [] }));
      // Without an event yet, the id alone tells the client where it stands, for its next Last-Event-ID.
      else if (!resumable) raw.write(`id: ${current}\n\n`);

      let ended = false;
      const timers: NodeJS.Timeout[] = [];
      let remove = () => {};
      const end = () => {
        if (ended) return;
        ended = true;
        timers.forEach(clearTimeout);
        remove();
        raw.end();
      };
      const stream: LiveStream = {
        tenantId: principal.tenantId,
        userId: principal.userId,
        grantId: typeof gid === 'string' ? gid : '',
        lastVersion: resumable ? resumeFrom : current,
        send(text) {
          if (ended) return false;
          const accepted = raw.write(text);
          if (raw.writableLength > maxBufferedBytes) end();
          return accepted;
        },
        recheck() {
          // A lock, a password change or new claims: the ordinary check decides; changed claims
          // change what the person may see, so the client connects again under the new ones.
          access.verifyBearer(request).then(
            (now) => {
              if (now.claims.join(' ') !== principal.claims.join(' ')) end();
            },
            end,
          );
        },
        end,
      };
      timers.push(setTimeout(end, Math.min(Math.max(exp * 1000 - Date.now(), 0), maxTimerMs)));
      const heartbeat = setInterval(() => raw.write(': \n\n'), heartbeatMs);
      timers.push(heartbeat);
      raw.on('close', end);
      remove = live.add(stream, principal);
    },
  );
}
