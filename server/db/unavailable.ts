/**
 * Whether an error means the database cannot be reached right now (issue 40 point 2): PostgreSQL
 * restarting or shut down, a connection refused, reset or not obtained in time. Such a request
 * answers 503 with `retry-after` (errors.ts) — the instance itself is fine and serves again as soon
 * as the pool reconnects — where any other failure is a 500 to look into.
 */

/** SQLSTATE class 08 (connection exception) and the shutdown codes of class 57P. */
const unavailableStates = /^(08\d{3}|57P0[1-3])$/;
const unavailableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres's own words when a connection breaks or none is obtained within connectionTimeoutMillis. */
const unavailableMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

const field = (error: object, name: string): unknown => Reflect.get(error, name);

export function isDatabaseUnavailable(error: unknown): boolean {
  // drizzle wraps the driver's error ('Failed query: …') as its cause; a few levels suffice.
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; current = field(current, 'cause'), depth++) {
    const code = field(current, 'code');
    if (typeof code === 'string' && (unavailableStates.test(code) || unavailableSocketCodes.has(code))) return true;
    const message = field(current, 'message');
    if (typeof message === 'string' && unavailableMessages.some((words) => message.includes(words))) return true;
  }
  return false;
}
