import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { listUsers, usersForExport } from '../../server/db/users-store.ts';

/** The export reads in keyset batches; small batches make every seek run on the seeded users. */
describe('users export batches', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function exported(search: string | undefined, batchSize: number) {
    const rows = [];
    for await (const batch of usersForExport(server.db, 'demo', search, batchSize)) rows.push(...batch);
    return rows;
  }

  it.each([undefined, 'a', 'demo.test'])('holds the rows and order the list shows (search %s), seeking from batch to batch', async (search) => {
    const listed = await listUsers(server.db, 'demo', { pageNo: 1, rowsPerPage: 1_000, search });
    expect(listed.TotalRows).toBeGreaterThan(7);
    // The export's columns: the list's rows without the revoked-invitation flag its row menu reads.
    expect(await exported(search, 7)).toEqual(listed.Users.map(({ InvitationRevoked: _menuOnly, ...row }) => row));
  });

  it('exports nobody for a search of symbols only', async () => {
    expect(await exported('@@', 7)).toEqual([]);
  });
});
