import type { IncomingMessage } from 'node:http';

/*
 * Absolute-form request targets (`GET http://host/api/x`, RFC 9112 §3.2.2) are served as the
 * origin-form path they name, with the target's authority as the Host (the RFC says the Host header
 * is then ignored). Done before routing (Fastify's rewriteUrl), so every check that reads the path
 * (the /api no-store header, the rate-limit buckets, the identity provider's prefix) sees the same
 * normalised path the router does (issue 27 point 8).
 */

const absoluteForm = /^https?:\/\/([^/?#]*)([^#]*)/i;

/** The request's path and query in origin form; for an absolute-form target, also sets its Host. */
export function originFormTarget(request: IncomingMessage): string {
  const url = request.url ?? '/';
  if (url.startsWith('/')) return url;
  const match = absoluteForm.exec(url);
  // Anything else ('*', garbage) is left for the router to answer 404.
  if (!match) return url;
  const [, authority = '', rest = ''] = match;
  // userinfo is not part of a host (RFC 9110 §4.2.4): `http://localhost@acme.localhost/` names acme.localhost.
  request.headers.host = authority.slice(authority.lastIndexOf('@') + 1);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}
