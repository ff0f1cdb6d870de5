import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hosts, startTestServer, type TestServer } from './harness.ts';
import { monitoringEnvelopes } from '../../server/db/schema.ts';

/**
 * server/api/monitoring.routes.ts, the Sentry tunnel: what it stores, what it refuses, and how much
 * it keeps (three envelopes here). Its per-address limit is in abuse-limits.test.ts with the others.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MONITORING_MAX_ENVELOPES: '3' });
});
afterAll(() => server.close());

const header = JSON.stringify({ dsn: 'https://public@monitoring.invalid/1' });
const envelope = (message: string) => `${header}\n{"type":"event"}\n${JSON.stringify({ message })}`;

const send = (payload: string, { host = hosts.demo as string, type = 'application/x-sentry-envelope' } = {}) =>
  server.app.inject({ method: 'POST', url: '/api/monitoring', headers: { host, 'content-type': type }, payload });

const storedMessages = async () =>
  (await server.db.select({ envelope: monitoringEnvelopes.envelope }).from(monitoringEnvelopes).orderBy(monitoringEnvelopes.id)).map(
    (row) => row.envelope,
  );

describe('POST /api/monitoring', () => {
  it('stores an envelope as sent, as the SDK sends it or as plain text, and answers an empty object', async () => {
    const sdk = await send(envelope('from the SDK'));
    expect(sdk.statusCode).toBe(200);
    expect(sdk.json()).toEqual({});
    expect((await send(envelope('as text'), { type: 'text/plain;charset=UTF-8' })).statusCode).toBe(200);
    expect((await storedMessages()).slice(-2)).toEqual([envelope('from the SDK'), envelope('as text')]);
  });

  it('takes an envelope of its header line alone', async () => {
    expect((await send(header)).statusCode).toBe(200);
    expect((await storedMessages()).at(-1)).toBe(header);
  });

  it('refuses an empty body, and one whose first line is not JSON, storing nothing', async () => {
    const before = await storedMessages();
    const empty = await send('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('An envelope is required.');
    for (const garbage of ['not an envelope', 'not a header\n{"type":"event"}']) {
      const refused = await send(garbage, { type: 'text/plain' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'body: not a Sentry envelope' });
    }
    expect(await storedMessages()).toEqual(before);
  });

  it('refuses hosts that are no tenant before reading the body', async () => {
    const before = await storedMessages();
    const refused = await send(envelope('x'), { host: hosts.unknown });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Unknown tenant.');
    expect(await storedMessages()).toEqual(before);
  });

  it('refuses envelopes over 64 KiB, in either content type', async () => {
    expect((await send(envelope('x'.repeat(64 * 1024)))).statusCode).toBe(413);
    expect((await send(envelope('x'.repeat(64 * 1024)), { type: 'text/plain' })).statusCode).toBe(413);
    expect((await send(envelope('x'.repeat(60 * 1024)))).statusCode).toBe(200);
  });

  it('keeps only the newest envelopes', async () => {
    for (let index = 0; index < 6; index++) expect((await send(envelope(`report ${index}`))).statusCode).toBe(200);
    expect(await storedMessages()).toEqual([envelope('report 3'), envelope('report 4'), envelope('report 5')]);
  });
});
