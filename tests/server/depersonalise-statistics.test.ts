import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { accessTokenFor, api, startTestServer, type TestServer } from './harness.ts';
import { applicationApplicants, applications, pendingScrubs } from '../../server/db/schema.ts';
import { depersonalisedTables, freedSpaceScrubberFor, scrubPending } from '../../server/db/freed-space.ts';
import { onPostgres, testDatabaseUrl } from './template.ts';
import { sqlRunner } from '../../server/db/sql-runner.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';

/**
 * Issue 38 point 5: the planner's statistics (pg_statistic, read through pg_stats) keep samples of
 * the columns: most common values and histogram bounds. After a depersonalise and its scrub, none
 * of them is a value the application held. On PGlite and on PostgreSQL alike (the scrub's
 * statistics refresh runs on both).
 */

/**
 * An External ID and an account number above every seeded one (EXT- and 8 digits, 9 digits): a
 * column's highest value is always its histogram's last bound. The e-mail and phone go on many
 * applicants of the application, so that each is one of their columns' most common values.
 */
const values = {
  externalId: 'EXT-999999997',
  accountNumber: '9999999999',
  email: 'marisol.quenby@stats-scrub.example',
  phone: '0491 570 313',
};
const repeatedApplicants = 40;

/** The scrub on; DATABASE_URL tells the server it is on PostgreSQL (the harness hands it the database itself). */
const scrubOn = { DEPERSONALISE_SCRUB: 'on', ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl } : {}) };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(scrubOn);
}, 120_000);
afterAll(() => server.close());

/** The values (by kind) that some statistic of a depersonalised table holds, with the table.column. */
async function valuesInStatistics(): Promise<Record<string, string[]>> {
  const rows = await sqlRunner(server.db).textRows(
    `select tablename::text, attname::text,
       lower(concat_ws(' ', most_common_vals::text, histogram_bounds::text, most_common_elems::text))
     from pg_stats
     where schemaname = current_schema() and tablename in (${depersonalisedTables.map((table) => `'${table}'`).join(', ')})`,
    [],
  );
  const found: Record<string, string[]> = {};
  for (const [table, column, samples] of rows) {
    for (const [kind, value] of Object.entries(values)) {
      if (samples?.includes(value.toLowerCase())) (found[kind] ??= []).push(`${table}.${column}`);
    }
  }
  return found;
}

describe(`statistics after depersonalise (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, { timeout: 180_000 }, () => {
  it('hold no External ID, account number, e-mail or phone of the depersonalised application once it is scrubbed', async () => {
    const [row] = await server.db
      .select({ id: applications.id, guid: applications.guid })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), sql`${applications.status} not in ('Cancelled', 'Depersonalised')`))
      .orderBy(asc(applications.id))
      .limit(1);
    await server.db
      .update(applications)
      .set({ externalId: values.externalId, accountNumber: values.accountNumber, primaryEmail: values.email })
      .where(eq(applications.id, row!.id));
    await server.db.insert(applicationApplicants).values(
      Array.from({ length: repeatedApplicants }, (_, n) => ({
        applicationId: row!.id,
        position: 100 + n,
        firstName: `Marisol${n}`,
        lastName: 'Quenby',
        email: values.email,
        phone: values.phone,
      })),
    );
    // As autovacuum's analyze (PostgreSQL) or any ANALYZE run (PGlite) would have sampled them.
    await server.db.execute(sql.raw(`analyze ${depersonalisedTables.join(', ')}`));
    expect(await valuesInStatistics()).toEqual({
      externalId: ['applications.external_id'],
      accountNumber: ['applications.account_number'],
      email: ['application_applicants.email'],
      phone: ['application_applicants.phone'],
    });

    const admin = await accessTokenFor(server, 'admin@demo.test');
    expect((await api(server, 'PUT', `/api/application/depersonalise/${row!.guid}`, { token: admin })).statusCode).toBe(200);
    await freedSpaceScrubberFor(server.db, onPostgres ? 'postgres' : 'embedded').idle();

    expect(await valuesInStatistics()).toEqual({});
    expect(await server.db.select().from(pendingScrubs)).toEqual([]);
  });
});

describe('a scrub recorded by a server that stopped before doing it', { timeout: 180_000 }, () => {
  it('is done by the next server once it has started, and its record deleted', async () => {
    const [row] = await server.db
      .select({ id: applications.id })
      .from(applications)
      .where(and(eq(applications.tenantId, 'demo'), eq(applications.status, 'Depersonalised')))
      .limit(1);
    // What the stopped server left: statistics sampled before its depersonalise, and the record.
    await server.db.update(applications).set({ externalId: values.externalId }).where(eq(applications.id, row!.id));
    await server.db.execute(sql.raw('analyze applications'));
    await server.db.update(applications).set({ externalId: '' }).where(eq(applications.id, row!.id));
    await server.db.insert(pendingScrubs).values({ applicationId: row!.id });
    expect(await valuesInStatistics()).toEqual({ externalId: ['applications.external_id'] });

    // The next server on the same database (on PostgreSQL: another instance).
    const next = await buildApp({ db: server.db, config: readConfig({ LOG_LEVEL: 'silent', FILES_DIR: server.filesDir, ...scrubOn }) });
    try {
      await next.ready();
      await freedSpaceScrubberFor(server.db, onPostgres ? 'postgres' : 'embedded').idle();
      expect(await server.db.select().from(pendingScrubs)).toEqual([]);
      expect(await valuesInStatistics()).toEqual({});
    } finally {
      await next.close();
    }
  });
});

describe.skipIf(!onPostgres)(
  onPostgres
    ? 'recorded scrubs with several instances on one PostgreSQL'
    : 'recorded scrubs with several instances on one PostgreSQL [skipped on PGlite: one process owns a PGlite database, there is no second instance]',
  () => {
    it('are claimed by one instance at a time: a record another instance holds is skipped, not waited for, and done once it lets go', async () => {
      await server.db.insert(pendingScrubs).values({ applicationId: 1 });
      // Another instance mid-scrub: its transaction holds the record.
      const whileHeld = await server.db.transaction(async (other) => {
        expect(await other.select({ id: pendingScrubs.id }).from(pendingScrubs).for('update')).toHaveLength(1);
        // On another connection of the pool, as a second instance would: nothing to claim, at once.
        return scrubPending(server.db, 'postgres');
      });
      expect(whileHeld).toBe(0);
      expect(await server.db.select({ applicationId: pendingScrubs.applicationId }).from(pendingScrubs)).toEqual([{ applicationId: 1 }]);
      // The other instance stopped without finishing (its transaction ended): the record is this one's.
      expect(await Promise.all([scrubPending(server.db, 'postgres'), scrubPending(server.db, 'postgres')])).toEqual(expect.arrayContaining([0, 1]));
      expect(await server.db.select().from(pendingScrubs)).toEqual([]);
    });
  },
);
