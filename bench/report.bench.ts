import { and, asc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, startTestServer } from '../tests/server/harness.ts';
import { applicationApplicants, applicationDocuments, applications } from '../server/db/schema.ts';
import { sqlRunner } from '../server/db/sql-runner.ts';
import { percentile, report } from './support.ts';

/**
 * Issue 13 budget: a report PDF for an application with 20 documents and 4 applicants ≤ 300 ms.
 * In-process on PGlite restored from the test template (run a server test first so
 * .data/test-template.tar exists): `GET /api/report` end to end (token check, the detail read,
 * the PDF, the activity item), draft and final, sequentially after a warm-up.
 */
export const reportBudgetMs = 300;
const samples = Number(process.env.BENCH_REPORT_SAMPLES ?? 50);
const documents = 20;
const applicants = 4;

const server = await startTestServer();
try {
  const token = await accessTokenFor(server, 'admin@demo.test');
  const [app] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
        sql`exists (select 1 from ${applicationDocuments} d where d.application_id = ${applications.id})`,
      ),
    )
    .orderBy(asc(applications.id))
    .limit(1);
  if (!app) throw new Error('No demo application with documents in the template.');

  // Exactly 20 documents and 4 applicants (the seed's vary).
  const [sample] = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, app.id)).limit(1);
  await server.db.delete(applicationDocuments).where(eq(applicationDocuments.applicationId, app.id));
  await server.db.insert(applicationDocuments).values(
    Array.from({ length: documents }, (_, n) => ({
      applicationId: app.id,
      friendlyName: n % 2 === 0 ? 'User upload' : 'Proof of identity',
      originalFileName: `statement-${String(n + 1).padStart(2, '0')}-for-the-bench-application.pdf`,
      contentType: 'application/pdf',
      size: sample!.size,
      storageKey: sample!.storageKey,
    })),
  );
  const existing = await server.db.select({ id: applicationApplicants.id }).from(applicationApplicants).where(eq(applicationApplicants.applicationId, app.id));
  if (existing.length < applicants) {
    await server.db.insert(applicationApplicants).values(
      Array.from({ length: applicants - existing.length }, (_, n) => ({
        applicationId: app.id,
        position: existing.length + n,
        firstName: `Bench${n}`,
        lastName: 'Applicant',
        email: `bench${n}@example.com`,
        approvalStatus: 'Approved',
        approvalUpdatedAt: new Date(),
      })),
    );
  }
  const [counts] = await sqlRunner(server.db).textRows(
    `select (select count(*) from application_documents where application_id = $1)::text, (select count(*) from application_applicants where application_id = $1)::text`,
    [app.id],
  );
  console.log(`report: application ${app.id} with ${counts?.[0]} documents and ${counts?.[1]} applicants; ${samples} requests each`);

  for (const kind of ['Draft', 'Final'] as const) {
    await server.db
      .update(applications)
      .set(kind === 'Final' ? { status: 'Complete', dateCompleted: new Date() } : { status: 'Primary edit', dateCompleted: null })
      .where(eq(applications.id, app.id));
    const get = () =>
      server.app.inject({
        method: 'GET',
        url: `/api/report?ApplicationGuid=${app.guid}&ReportName=${kind}Report`,
        headers: { host: 'localhost', authorization: `Bearer ${token}` },
      });
    for (let i = 0; i < 5; i++) await get();
    const latencies: number[] = [];
    let bytes = 0;
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const response = await get();
      latencies.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`report answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      bytes = response.rawPayload.length;
    }
    console.log(`  ${kind}: ${bytes.toLocaleString('en-AU')} bytes; p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);
    report(`GET /api/report (${kind}, 20 documents, 4 applicants) p95`, percentile(latencies, 95), reportBudgetMs, 'ms');
  }
} finally {
  await server.close();
}
