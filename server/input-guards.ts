import type { FastifyInstance } from 'fastify';
import { HttpError, badRequest } from './http-error.ts';

/**
 * Input rules at the edge, for every route (and the identity provider's endpoints, which read the
 * raw request themselves): nothing with a NUL byte gets in (PostgreSQL refuses it in text, so it
 * could only ever become a database error), strings and nesting are bounded, and the Host header
 * must be a host name with a valid port before any cache is keyed by it.
 */

/** Longest string a JSON or form field may hold; bodies as a whole are bounded by Fastify's bodyLimit. */
export const maxFieldLength = 20_000;
const maxDepth = 32;
const maxUrlLength = 8_192;

/** `name`, `name:port`, `[v6]` or `[v6]:port`; port 1-65535. */
const hostPattern = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

export function isValidHost(host: string | undefined): boolean {
  if (!host || host.length > 255) return false;
  const match = hostPattern.exec(host);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/** The first problem with a parsed value (`where` names the field), or undefined when it is acceptable. */
export function findBadValue(value: unknown, where: string, depth = 0): string | undefined {
  if (depth > maxDepth) return `${where}: nested too deeply`;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return `${where}: must not contain a NUL character`;
    if (value.length > maxFieldLength) return `${where}: must be at most ${maxFieldLength} characters`;
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = findBadValue(item, `${where}[${index}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      const problem = key.includes('\u0000') ? `${where}: a field name contains a NUL character` : findBadValue(item, `${where}.${key}`, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}

const hasEncodedNul = (url: string) => /%00/i.test(url) || url.includes('\u0000');

export function registerInputGuards(app: FastifyInstance) {
  // Registered before the identity provider's hook, so its endpoints are guarded too.
  app.addHook('onRequest', async (request) => {
    // trustProxy makes a proxy's X-Forwarded-Host the host oidc-provider serves; the tenant and every
    // origin are then read from the same host, and it is held to the same rules as Host.
    const forwardedHost = request.headers['x-forwarded-host'];
    if (forwardedHost !== undefined) {
      const first = String(forwardedHost).split(',')[0]?.trim();
      if (!isValidHost(first)) throw badRequest('x-forwarded-host: not a valid host name');
      request.headers.host = first;
      request.headers['x-forwarded-host'] = first;
    }
    if (!isValidHost(request.headers.host)) throw badRequest('host: not a valid host name');
    // trustProxy makes this the request's protocol, and so part of the identity provider's issuer.
    const forwardedProto = request.headers['x-forwarded-proto'];
    if (forwardedProto !== undefined && !/^https?(\s*,\s*https?)*$/i.test(String(forwardedProto))) {
      throw badRequest('x-forwarded-proto: must be http or https');
    }
    if (request.url.length > maxUrlLength) throw new HttpError(414, `url: must be at most ${maxUrlLength} characters`);
    if (hasEncodedNul(request.url)) throw badRequest('url: must not contain a NUL character');
    for (const [name, value] of Object.entries(request.headers)) {
      const values = Array.isArray(value) ? value : [value ?? ''];
      if (values.some((item) => item.includes('\u0000'))) throw badRequest(`${name}: must not contain a NUL character`);
    }
  });
  app.addHook('preValidation', async (request) => {
    const problem =
      findBadValue(request.params, 'params') ??
      findBadValue(request.query, 'query') ??
      (typeof request.body === 'string' ? (request.body.includes('\u0000') ? 'body: must not contain a NUL character' : undefined) : findBadValue(request.body, 'body'));
    if (problem) throw badRequest(problem);
  });
}
