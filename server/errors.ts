import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import * as z from 'zod';
import { isDatabaseUnavailable } from './db/unavailable.ts';

/** The body of every error answer: Fastify's own shape, plus the id a 5xx is logged under. */
interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errorId?: string;
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};

/** How long a client waits before it tries again while the database cannot be reached. */
export const databaseRetrySeconds = 5;
export const databaseUnavailableMessage = 'The service is briefly unavailable. Please try again in a few seconds.';

/** 'email: Invalid input: expected string, received number' for each issue: the field, never the dump. */
export const describeIssues = (error: z.ZodError): string =>
  error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');

const statusOf = (error: FastifyError): number => {
  const status = error.statusCode ?? 500;
  return Number.isInteger(status) && status >= 400 && status < 600 ? status : 500;
};

/**
 * One error handler for the whole server. A 4xx says what was wrong with the request and names the
 * field; a 5xx says only that something failed and gives an id, under which the log holds the
 * details (SQL, stack, zod issues), which never reach the client.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let body: ErrorBody;
    if (error instanceof z.ZodError) {
      // A handler parsing what the client sent (a form, a header): the client's mistake.
      body = { statusCode: 400, error: reasons[400] ?? '', message: describeIssues(error) };
    } else if (statusOf(error) < 500) {
      const statusCode = statusOf(error);
      body = { statusCode, error: reasons[statusCode] ?? 'Client Error', message: error.message };
    } else if (isDatabaseUnavailable(error)) {
      // The database went away (a restart, a failover): the client tries again shortly, and the
      // load balancer's readiness probe routes around this instance meanwhile (health.routes.ts).
      const errorId = randomUUID();
      request.log.warn({ err: error, errorId, method: request.method, url: request.url }, 'database unavailable');
      void reply.header('retry-after', String(databaseRetrySeconds));
      body = { statusCode: 503, error: 'Service Unavailable', message: databaseUnavailableMessage, errorId };
    } else {
      const errorId = randomUUID();
      request.log.error({ err: error, errorId, method: request.method, url: request.url }, 'request failed');
      body = {
        statusCode: 500,
        error: 'Internal Server Error',
        message: `Something went wrong on our side. Please try again; if it keeps happening, quote reference ${errorId}.`,
        errorId,
      };
    }
    void reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
  });
}
