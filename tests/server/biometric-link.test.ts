import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import { outbox, verifications } from '../../server/db/schema.ts';
import { biometricVerifyRequest } from '../../src/domain/verifications.ts';
import { VerifyResponseSchema } from '../../src/schemas/verifications.schema.ts';
import { biometricCompleteLabel, biometricDoneText, biometricUsedText } from '../../server/api/biometric-sandbox.routes.ts';

/**
 * Issue 38 point 11: the biometric hand-off link (the SMS's link to the capture page) had no expiry
 * and completed on another tenant's host. It works on its own tenant's hosts only, for 48 hours
 * (SUV §9: the portal advises checking back "in the next 48 hours").
 */
let server: TestServer;
const tokens: Record<'demo' | 'acme', string> = { demo: '', acme: '' };
beforeAll(async () => {
  server = await startTestServer();
  tokens.demo = await accessTokenFor(server, 'admin@demo.test');
  tokens.acme = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
});
afterAll(() => server.close());

const hour = 3_600_000;

/** Sends an invite as the tenant's admin: the record's id and the path of the SMS's link. */
async function invite(tenant: 'demo' | 'acme', lastName: string) {
  const host = hosts[tenant];
  const response = await api(server, 'POST', '/entity-verification/api/v1/individual/verify', {
    token: tokens[tenant],
    host,
    body: biometricVerifyRequest({ IndividualDetails: { FirstName: 'Hana', LastName: lastName, MobileNumber: { PhoneNumber: '0412345678' } } }),
  });
  expect(response.statusCode).toBe(200);
  const id = Number(VerifyResponseSchema.parse(response.json()).requestId.slice(1));
  const [sms] = await server.db.select().from(outbox).where(and(eq(outbox.tenantId, tenant), eq(outbox.channel, 'sms'))).orderBy(desc(outbox.id)).limit(1);
  const path = new URL(/(https?:\/\/\S+)/.exec(sms!.body)![1]!).pathname;
  return { id, path };
}

const sentAgo = (id: number, ms: number) => server.db.update(verifications).set({ createdAt: new Date(Date.now() - ms) }).where(eq(verifications.id, id));
const statusOf = async (id: number) => (await server.db.select().from(verifications).where(eq(verifications.id, id)))[0]!.status;

describe('the biometric hand-off link', () => {
  it('works just before 48 hours have passed', async () => {
    const { id, path } = await invite('demo', 'Early');
    await sentAgo(id, 48 * hour - 60_000);
    const page = await api(server, 'GET', path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(biometricCompleteLabel);
    const done = await api(server, 'POST', path);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(biometricDoneText);
    expect(await statusOf(id)).not.toBe('Pending');
  });

  it('is refused just after 48 hours, on GET and POST, and completes nothing', async () => {
    const { id, path } = await invite('demo', 'Late');
    await sentAgo(id, 48 * hour + 60_000);
    for (const method of ['GET', 'POST'] as const) {
      const answer = await api(server, method, path);
      expect(answer.statusCode, method).toBe(404);
      expect(answer.body, method).toContain(biometricUsedText);
    }
    expect(await statusOf(id)).toBe('Pending');
  });

  it("is refused on another tenant's host, and still works on its own", async () => {
    const { id, path } = await invite('acme', 'Crossing');
    for (const method of ['GET', 'POST'] as const) {
      const answer = await api(server, method, path, { host: hosts.demo });
      expect(answer.statusCode, method).toBe(404);
      expect(answer.body, method).toContain(biometricUsedText);
    }
    expect(await statusOf(id)).toBe('Pending');
    expect((await api(server, 'GET', path, { host: hosts.acme })).statusCode).toBe(200);
    expect((await api(server, 'POST', path, { host: hosts.acme })).statusCode).toBe(200);
    expect(await statusOf(id)).not.toBe('Pending');
  });
});
