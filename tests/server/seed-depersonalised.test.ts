import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { applicationApplicants, applicationComments, applicationDocuments, applicationIps, applications, outbox } from '../../server/db/schema.ts';
import { depersonalisedApplicationColumns, removedComment } from '../../server/db/depersonalise-store.ts';
import { ApplicationDetailSchema } from '../../src/schemas/application-detail.schema.ts';

/**
 * Issue 27 point 5: the seeded depersonalised applications hold what the product's depersonalise
 * leaves (its own columns object, depersonalise-store.ts): no Account Number, External ID, e-mail,
 * documents, addresses or comment text.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the seed depersonalises the way the product does', { timeout: 60_000 }, () => {
  it('every seeded depersonalised application holds only what depersonalising leaves', async () => {
    const rows = await server.db.select().from(applications).where(eq(applications.status, 'Depersonalised'));
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row, `application ${row.id}`).toMatchObject(depersonalisedApplicationColumns);
    const ids = rows.map((row) => row.id);
    const applicants = await server.db.select().from(applicationApplicants).where(inArray(applicationApplicants.applicationId, ids));
    expect(applicants.length).toBeGreaterThan(0);
    for (const applicant of applicants) {
      expect(applicant).toMatchObject({ firstName: 'Depersonalised', lastName: '', email: '', phone: '', dateOfBirth: '', address: '', tfn: '', isMfaLocked: false });
    }
    const ips = await server.db.select().from(applicationIps).where(inArray(applicationIps.applicationId, ids));
    expect(ips.every((visit) => visit.ip === '' && visit.applicantName === 'Depersonalised')).toBe(true);
    const comments = await server.db.select().from(applicationComments).where(inArray(applicationComments.applicationId, ids));
    expect(comments.every((comment) => comment.comment === removedComment)).toBe(true);
    expect(await server.db.select().from(applicationDocuments).where(inArray(applicationDocuments.applicationId, ids))).toEqual([]);
    expect(await server.db.select().from(outbox).where(inArray(outbox.applicationId, ids))).toEqual([]);
  });

  it('the detail of a seeded depersonalised application shows no Account Number or External ID', async () => {
    const admin = await accessTokenFor(server, 'admin@demo.test');
    const [row] = await server.db
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), eq(applications.status, 'Depersonalised')))
      .limit(1);
    const detail = ApplicationDetailSchema.parse((await api(server, 'GET', `/api/application/get/${row!.id}`, { token: admin })).json());
    expect(detail).toMatchObject({ Status: 'Depersonalised', AccountNumber: '', ExternalID: '', Email: '', Documents: [] });
  });
});
