import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Answers that are data for one signed-in person: never kept by a browser or a shared cache. */
const privatePrefixes = ['/api/', '/identity/', '/entity-verification/', '/interaction/'];

const permissionsPolicy = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()';

/**
 * Security headers on every answer, the identity provider's included: helmet writes them on the raw
 * response before any hook can hijack it. Content-Security-Policy stays with each page (the portal's
 * in static.ts, the login page's with its nonce), since one policy cannot fit both.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: false,
    // The portal loads nothing cross-origin; the embedder policy would only break future embeds.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader('permissions-policy', permissionsPolicy);
    if (privatePrefixes.some((prefix) => request.url.startsWith(prefix))) reply.raw.setHeader('cache-control', 'no-store');
  });
}
