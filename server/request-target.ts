import type { IncomingMessage } from 'node:http';

/*
 * Absolute-form request targets (`GET http://host/api/x`, RFC 9112 §3.2.2) are served as the
 * origin-form path they name, with the target's authority as the Host (the RFC says the Host header
 * is then ignored). Done before routing (Fastify's rewriteUrl), so every check that reads the path
 * (the /api no-store header, the rate-limit buckets, the identity provider's prefix) sees the same
 * normalised path the router does (issue 27 point 8).
 */

const absoluteForm = /^https?:\/\/([^/?#]*)([^#]*)/i;

/** A percent-encoded unreserved character (RFC 3986 §2.3): `%61` is `a`, the same URI either way. */
const encodedUnreserved = /%(2[dDeE]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

/**
 * The path with its encoded unreserved characters decoded (RFC 3986 §6.2.2.2), as the router reads
 * it: `/%61pi/x` is routed as `/api/x`, so every rule that reads the path (the /api no-store header,
 * the rate-limit buckets) must see `/api/x` too (issue 38 point 8). Reserved characters (`%2F`) stay
 * encoded, so nothing names another path than it did; the query is left as sent.
 */
function withUnreservedDecoded(target: string): string {
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (!path.includes('%')) return target;
  const decoded = path.replace(encodedUnreserved, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return queryAt === -1 ? decoded : decoded + target.slice(queryAt);
}

/**
 * The request's path and query in origin form, with encoded unreserved characters decoded; for an
 * absolute-form target, also sets its Host.
 */
export function originFormTarget(request: IncomingMessage): string {
  return withUnreservedDecoded(originForm(request));
}

function originForm(request: IncomingMessage): string {
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
