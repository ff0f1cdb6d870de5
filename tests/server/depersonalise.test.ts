import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationDocuments,
  applicationIps,
  applicationOutstandingDocuments,
  applicationRequirements,
  applications,
  outbox,
  storedFileChunks,
} from '../../server/db/schema.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { databaseStorage } from '../../server/storage/database-storage.ts';
import { sampleDocuments, samplePdf } from '../../server/storage/sample-documents.ts';
import { pgArray, sqlRunner } from '../../server/db/sql-runner.ts';
import { DepersonaliseResponseSchema } from '../../src/schemas/application-actions.schema.ts';
import { ApplicationDetailSchema, UploadDocumentsResponseSchema } from '../../src/schemas/application-detail.schema.ts';

/**
 * Depersonalise (AM §4, ARCHITECTURE §5): after it, no personal value of the application is left
 * anywhere in the database (every column of every table, the search words, stored document bytes)
 * or in file storage; the audit trail is kept; a second call is refused; a failure changes nothing.
 *
 * The application is first given personal data no other record holds (made-up names, a phone
 * number and addresses in formats the seed never writes), so a search of the whole database for
 * them finds this application's data and nothing else.
 */

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

type Inject = TestServer['app']['inject'];

function upload(inject: Inject, token: string, id: number, name: string, bytes: Buffer) {
  const boundary = '----depersonalise';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return inject({
    method: 'POST',
    url: `/api/document/upload/${id}`,
    headers: { host: hosts.demo, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const depersonalise = (inject: Inject, guid: string, token = admin) =>
  inject({ method: 'PUT', url: `/api/application/depersonalise/${guid}`, headers: { host: hosts.demo, authorization: `Bearer ${token}` } });

/** The personal data given to the application, `n` making each test's values its own. */
function personOf(n: string) {
  return {
    first: `Ferdwyn${n}`,
    last: `Quastorius${n}`,
    second: `Ysolde${n}`,
    secondLast: `Brannigast${n}`,
    email: `ferdwyn.quastorius${n}@privacy-test.example`,
    secondEmail: `ysolde${n}@privacy-test.example`,
    phone: `(07) 3999 88${n.length}7`,
    dateOfBirth: '1911-11-11',
    address: `77 Quillmore${n} Lane, Zedford QLD 4999`,
    tfn: '987654329',
    accountNumber: `ACC-99887766-${n}`,
    ip: '198.51.100.77',
    fileName: `quastorius${n}-passport.pdf`,
  };
}
type Person = ReturnType<typeof personOf>;

/** Each value as it may be stored, and as the search table keeps words (lower case, split). */
const needles = (person: Person) => [
  person.first,
  person.last,
  person.second,
  person.secondLast,
  person.email,
  person.secondEmail,
  person.phone,
  person.dateOfBirth,
  person.address,
  `Quillmore`,
  person.tfn,
  person.accountNumber,
  person.ip,
  person.fileName,
  'privacy-test',
];

async function personalise(inject: Inject, person: Person) {
  const [app] = await server.db
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised', 'Complete')`,
        sql`(select count(*) from application_applicants i where i.application_id = ${applications.id}) = 2`,
        sql`not exists (select 1 from application_activity f where f.application_id = ${applications.id} and f.activity like '%depersonalised%')`,
        sql`${applications.accountName} not like 'Quastorius%'`,
      ),
    )
    .orderBy(asc(applications.id))
    .limit(1);
  const application = app!;
  const full = `${person.first} ${person.last}`;
  await server.db
    .update(applications)
    .set({ accountName: `${person.last} Family Trust`, clientName: full, primaryEmail: person.email, accountNumber: person.accountNumber })
    .where(eq(applications.id, application.id));
  const applicants = await server.db
    .select()
    .from(applicationApplicants)
    .where(eq(applicationApplicants.applicationId, application.id))
    .orderBy(asc(applicationApplicants.position));
  const people = [
    { firstName: person.first, lastName: person.last, email: person.email },
    { firstName: person.second, lastName: person.secondLast, email: person.secondEmail },
  ];
  for (const [index, applicant] of applicants.entries()) {
    await server.db
      .update(applicationApplicants)
      .set({ ...people[index], phone: person.phone, dateOfBirth: person.dateOfBirth, address: person.address, tfn: person.tfn, approvalStatus: 'Approved' })
      .where(eq(applicationApplicants.id, applicant.id));
    await server.db
      .update(applicationRequirements)
      .set({ name: `${people[index]!.firstName} ${people[index]!.lastName} - Identification`, actionRequired: `<p>Ask ${people[index]!.firstName} for a passport.</p>` })
      .where(eq(applicationRequirements.entityGuid, applicant.id));
  }
  await server.db.insert(applicationOutstandingDocuments).values({ applicationId: application.id, name: `Proof of address (${full})`, actionRequired: `<p>${person.address}</p>` });
  await server.db.insert(applicationIps).values({ applicationId: application.id, applicantName: full, ip: person.ip, ispName: 'Telstra', isVpn: true, eventAt: new Date() });
  await server.db.insert(applicationActivity).values({ tenantId: 'demo', applicationId: application.id, activity: `Applicant ${full} approved from ${person.ip}` });
  await server.db.insert(outbox).values({
    tenantId: 'demo',
    channel: 'email',
    recipient: person.email,
    subject: `Your application, ${person.first}`,
    body: `Dear ${full}, resume your application. Call us on ${person.phone}.`,
    html: `<p>Dear ${full}</p>`,
    transport: 'sandbox',
    applicationId: application.id,
  });
  const comment = await api(server, 'POST', `/api/comment/${application.id}`, { token: admin, body: { Comment: `Spoke with ${full} on ${person.phone}` } });
  expect(comment.statusCode).toBe(200);
  const uploaded = await upload(inject, admin, application.id, person.fileName, samplePdf(`Passport of ${full} TFN ${person.tfn}`));
  expect(UploadDocumentsResponseSchema.parse(uploaded.json()).UploadedDocuments[0]?.Success).toBe(true);
  return application;
}

/** Every table of the schema: the rows whose text (every column, tsvectors included) holds a needle; bytea columns searched as bytes. */
async function findEverywhere(values: readonly string[]): Promise<string[]> {
  const runner = sqlRunner(server.db);
  const columns = await runner.textRows(
    `select table_name::text, column_name::text, data_type::text from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
    [],
  );
  const tables = new Map<string, { bytea: string[] }>();
  for (const [table, column, type] of columns) {
    const entry = tables.get(table!) ?? { bytea: [] };
    if (type === 'bytea') entry.bytea.push(column!);
    tables.set(table!, entry);
  }
  expect([...tables.keys()]).toEqual(expect.arrayContaining(['applications', 'application_search', 'application_activity', 'stored_file_chunks', 'application_applicants', 'outbox']));
  const found: string[] = [];
  // One pass over each table for all the values: its rows as text once, each value looked for in it.
  const lowered = pgArray(values.map((value) => value.toLowerCase()));
  const original = pgArray(values);
  for (const [table, { bytea }] of tables) {
    const byBytes = bytea.map((column) => ` or position(convert_to(u.original, 'UTF8') in x.${column}) > 0`).join('');
    const rows = await runner.textRows(
      `select u.original, count(*)::text from (select lower(t::text) as text${bytea.map((column) => `, t.${column}`).join('')} from ${table} t) x
         cross join unnest($1::text[], $2::text[]) as u(lowered, original)
        where position(u.lowered in x.text) > 0${byBytes}
        group by u.original`,
      [lowered, original],
    );
    for (const [value, count] of rows) found.push(`${table}: ${value} (${count} rows)`);
  }
  return found;
}

/** The words of each needle as the search table stores them. */
async function searchWords(id: number) {
  const [row] = await sqlRunner(server.db).textRows('select document::text from application_search where id = $1', [id]);
  return row?.[0] ?? '';
}

async function filesHolding(dir: string, text: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const hits: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(text)) hits.push(path);
  }
  return hits;
}

describe('PUT /api/application/depersonalise/{guid}', { timeout: 120_000 }, () => {
  it('leaves no personal value anywhere in the database or file storage, keeps the audit trail, and refuses a second call', async () => {
    const person = personOf('Alpha');
    const inject: Inject = server.app.inject.bind(server.app);
    const application = await personalise(inject, person);
    const values = needles(person);
    // The search finds the values before (so that the check after could fail).
    expect((await findEverywhere(values)).length).toBeGreaterThan(5);
    expect(await searchWords(application.id)).toContain('quastoriusalpha');
    expect(await filesHolding(server.filesDir, person.last)).toHaveLength(1);
    const feedBefore = await server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, application.id)).orderBy(asc(applicationActivity.id));

    const response = await depersonalise(inject, application.guid);
    expect(response.statusCode).toBe(200);
    expect(DepersonaliseResponseSchema.parse(response.json())).toEqual({ OverallSuccess: true, ErrorMessage: '' });

    expect(await findEverywhere(values)).toEqual([]);
    expect(await searchWords(application.id)).not.toMatch(/quastorius|ferdwyn|privacy/);
    expect(await filesHolding(server.filesDir, person.last)).toEqual([]);

    // The audit trail is kept, entry for entry, with the personal values taken out, plus its own entry.
    const feedAfter = await server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, application.id)).orderBy(asc(applicationActivity.id));
    expect(feedAfter.slice(0, -1).map((entry) => entry.id)).toEqual(feedBefore.map((entry) => entry.id));
    expect(feedAfter.map((entry) => entry.activity)).toContain('Applicant [removed] approved from [removed]');
    expect(feedAfter.map((entry) => entry.activity)).toContain('Comment added by Avery Admin');
    expect(feedAfter.at(-1)?.activity).toBe('Application depersonalised by Avery Admin');

    const detail = ApplicationDetailSchema.parse((await api(server, 'GET', `/api/application/get/${application.id}`, { token: admin })).json());
    expect(detail).toMatchObject({ Status: 'Depersonalised', LastApplicationStatus: application.status, AccountName: 'Depersonalised', Email: '', PrimaryApplicantName: 'Depersonalised', Documents: [] });
    // Approvals, exceptions and the VPN verdict are not personal: they stay.
    expect(detail.ApplicantApprovals.map((approval) => approval.Status)).toEqual(['Approved', 'Approved']);
    const ips = await server.db.select().from(applicationIps).where(eq(applicationIps.applicationId, application.id));
    expect(ips.some((ip) => ip.isVpn && ip.ispName === 'Telstra' && ip.ip === '')).toBe(true);
    expect(await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.applicationId, application.id))).toEqual([]);
    // The outbox still says that a message went, and when.
    const [message] = await server.db.select().from(outbox).where(eq(outbox.applicationId, application.id));
    expect(message).toMatchObject({ channel: 'email', recipient: '[removed]', subject: 'Your application, [removed]', transport: 'sandbox' });

    const again = await depersonalise(inject, application.guid);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This application has been depersonalised.');
    expect((await server.db.select().from(applicationActivity).where(eq(applicationActivity.applicationId, application.id))).length).toBe(feedAfter.length);
  });

  it('with documents in the database (stored_file_chunks), their bytes go in the same transaction', async () => {
    const storage = databaseStorage(server.db);
    const app = await buildApp({ db: server.db, config: readConfig({ LOG_LEVEL: 'silent' }), storage });
    await app.ready();
    try {
      const inject: Inject = app.inject.bind(app);
      const person = personOf('Beta');
      const application = await personalise(inject, person);
      const [document] = await server.db.select().from(applicationDocuments).where(eq(applicationDocuments.originalFileName, person.fileName));
      expect(await server.db.select().from(storedFileChunks).where(eq(storedFileChunks.key, document!.storageKey))).toHaveLength(1);
      expect((await findEverywhere([person.last])).some((hit) => hit.startsWith('stored_file_chunks'))).toBe(true);

      expect((await depersonalise(inject, application.guid)).statusCode).toBe(200);
      expect(await findEverywhere(needles(person))).toEqual([]);
      expect(await server.db.select().from(storedFileChunks).where(eq(storedFileChunks.key, document!.storageKey))).toEqual([]);
      // The shared sample files other applications' documents point at are still there.
      for (const sample of sampleDocuments) expect(await storage.has(sample.key), sample.key).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('a failure part-way changes nothing: every value, the document and its file are still there', async () => {
    const person = personOf('Gamma');
    const inject: Inject = server.app.inject.bind(server.app);
    const application = await personalise(inject, person);
    const before = await findEverywhere(needles(person));
    // The last write of the transaction (its activity entry) is refused.
    await server.db.execute(
      sql.raw(`alter table application_activity add constraint test_refuse_depersonalise check (application_id <> ${application.id} or activity not like 'Application depersonalised%') not valid`),
    );
    try {
      const response = await depersonalise(inject, application.guid);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('test_refuse_depersonalise');
    } finally {
      await server.db.execute(sql.raw('alter table application_activity drop constraint test_refuse_depersonalise'));
    }
    expect(await findEverywhere(needles(person))).toEqual(before);
    expect(await filesHolding(server.filesDir, person.last)).toHaveLength(1);
    const [row] = await server.db.select().from(applications).where(eq(applications.id, application.id));
    expect(row!.status).toBe(application.status);
  });
});
