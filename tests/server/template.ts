import { fileURLToPath } from 'node:url';

/** Where global-setup leaves the migrated, seeded database dump that every server test starts from. */
export const templateDumpPath = fileURLToPath(new URL('../../.data/test-template.tar', import.meta.url));

/**
 * A PostgreSQL server to run the server tests on instead of PGlite (scripts/with-postgres.sh sets it):
 * a URL whose database the tests may create and drop databases from (a superuser's, or CREATEDB).
 */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

/** True when the server tests run on PostgreSQL (TEST_DATABASE_URL), not on PGlite. */
export const onPostgres = testDatabaseUrl !== undefined;

/**
 * The name of a suite that tests PGlite itself, for `describe.skipIf(onPostgres)`: on PostgreSQL
 * the name carries the reason it is skipped, so that reporters show it.
 */
export const pgliteOnly = (name: string, reason: string) => (onPostgres ? `${name} [skipped on PostgreSQL: ${reason}]` : name);

/** On PostgreSQL, the migrated and seeded database that global-setup builds once and every test server copies. */
export const templateDatabaseName = 'portal_test_template';

/** TEST_DATABASE_URL with another database. */
export function databaseUrl(database: string): string {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set.');
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Runs `use` on a connection to TEST_DATABASE_URL's own database (CREATE/DROP DATABASE cannot run in the database itself). */
export async function withAdminConnection<T>(use: (query: (text: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set.');
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return await use((text) => client.query(text));
  } finally {
    await client.end();
  }
}

/** A database name as an SQL identifier. */
export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
