import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from './harness.ts';
import { sqlRunner, type SqlParam } from '../../server/db/sql-runner.ts';

/**
 * What each write records for the list engine's catch-up (migrations 0022 and 0023): the ids a
 * version changed, each with its row as it was before (none for an insert), or no id at all when
 * the rows cannot be named. A catch-up of a list held in part counts on the old rows to tell
 * whether a changed row was in the list.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Change {
  version: number;
  application_id: number | null;
  old_row: { status?: string; account_name?: string } | null;
}

const rows = (text: string, params: SqlParam[] = []) => sqlRunner(server.db).textRows(text, params);

/** The changes the next write records. */
async function recorded(write: () => Promise<unknown>): Promise<Change[]> {
  const [[version = '0'] = []] = await rows(`select coalesce(max(version), 0)::text from application_data_versions where tenant_id = 'demo'`);
  await write();
  const changes = await rows(
    `select version::text, application_id::text, old_row::text from application_list_changes where tenant_id = 'demo' and version > $1 order by version, application_id`,
    [version],
  );
  return changes.map(([changed = '0', id = null, oldRow = null]) => ({
    version: Number(changed),
    application_id: id === null ? null : Number(id),
    old_row: oldRow === null ? null : (JSON.parse(oldRow) as Change['old_row']),
  }));
}

describe('application_list_changes', () => {
  it('names an inserted row with no old row, and an updated or deleted one with the row it was', async () => {
    let id = 0;
    const inserted = await recorded(async () => {
      const [[inserted = '0'] = []] = await rows(`insert into applications (tenant_id, status, account_name) values ('demo', 'Complete', 'Changes test') returning id::text`);
      id = Number(inserted);
    });
    expect(inserted).toEqual([{ version: expect.any(Number), application_id: id, old_row: null }]);

    const updated = await recorded(() => server.db.execute(sql`update applications set status = 'Locked', account_name = 'Renamed' where id = ${id}`));
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({ application_id: id, old_row: { status: 'Complete', account_name: 'Changes test' } });

    // Cancelled, the row leaves every list: recorded with what it was when listed.
    const cancelled = await recorded(() => server.db.execute(sql`update applications set status = 'Cancelled' where id = ${id}`));
    expect(cancelled[0]).toMatchObject({ application_id: id, old_row: { status: 'Locked', account_name: 'Renamed' } });

    // A change to a row listed neither before nor after changes no list: no version, nothing recorded.
    expect(await recorded(() => server.db.execute(sql`update applications set account_name = 'Still cancelled' where id = ${id}`))).toEqual([]);

    await server.db.execute(sql`update applications set status = 'Complete' where id = ${id}`);
    const deleted = await recorded(() => server.db.execute(sql`delete from applications where id = ${id}`));
    expect(deleted[0]).toMatchObject({ application_id: id, old_row: { status: 'Complete', account_name: 'Still cancelled' } });
  });

  it('names no rows for a statement of more than 1,000 listed rows, nor for a change of owners', async () => {
    const large = await recorded(() =>
      server.db.execute(sql`update applications set promo_code = promo_code where id in (select id from applications where tenant_id = 'demo' and status <> 'Cancelled' limit 1001)`),
    );
    expect(large).toEqual([{ version: expect.any(Number), application_id: null, old_row: null }]);

    const owners = await recorded(() => server.db.execute(sql`update application_owners set display_name = display_name where tenant_id = 'demo'`));
    expect(owners.length).toBeGreaterThan(0);
    expect(owners.every((change) => change.application_id === null && change.old_row === null)).toBe(true);
  });
});
