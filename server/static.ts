import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * No inline script anywhere; react-aria positions popovers with inline styles, hence style-src
 * 'unsafe-inline'. frame-src 'self' lets oidc-client-ts renew silently in a hidden iframe.
 */
export const portalContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const apiPrefixes = ['/api/', '/oidc/', '/interaction/', '/identity/', '/entity-verification/'];

/** Serves the built portal with history-API fallback; API paths keep their JSON 404s. */
export async function registerPortalStatic(app: FastifyInstance, distDir: string) {
  if (!existsSync(join(distDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: false,
    // Source maps stay in dist for error monitoring uploads, never served: they are the source.
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    setHeaders: (res, path) => {
      res.header('content-security-policy', portalContentSecurityPolicy);
      if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply
      .header('content-security-policy', portalContentSecurityPolicy)
      .header('cache-control', 'no-cache')
      // @fastify/static would write its own 'public, max-age=0' over ours.
      .sendFile('index.html', { cacheControl: false });

  app.get('/', async (request, reply) => {
    if (!request.tenant) return reply.redirect('/tenantnotfound');
    return sendIndex(reply);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const isPage = request.method === 'GET' && !apiPrefixes.some((prefix) => request.url.startsWith(prefix));
    if (!isPage || /\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '')) {
      return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `${request.method} ${request.url} not found.` });
    }
    if (!request.tenant && !request.url.startsWith('/tenantnotfound')) return reply.redirect('/tenantnotfound');
    return sendIndex(reply);
  });
  return true;
}
