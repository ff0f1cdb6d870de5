/**
 * Child process for the SIGKILL test (bulk-upload-kill.test.ts): on the data directory given,
 * prepares a tenant and an owner, then imports 10,000 applications (in batches, listed together at
 * the end), saying "importing" when it has started and "batch <rows written>" after each batch. The parent kills it with SIGKILL part-way through.
 */
import { openDatabase } from '../../server/db/client.ts';
import { applicationOwners, tenants } from '../../server/db/schema.ts';
import { importApplications } from '../../server/db/bulk-upload-store.ts';
import type { ImportRow } from '../../server/bulk-upload/validate-rows.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('data directory argument missing');
const handle = await openDatabase({ dataDir });
const { db } = handle;
await db
  .insert(tenants)
  .values({
    id: 'kill',
    name: 'Kill',
    logoUrl: '',
    primaryColor: '#000',
    secondaryColor: '#000',
    supportEmail: '',
    supportPhone: '',
    helpUrl: '',
  })
  .onConflictDoNothing();
const [owner] = await db
  .insert(applicationOwners)
  .values({
    tenantId: 'kill',
    globalUserId: '00000000-0000-4000-8000-00000000beef',
    displayName: 'Kill Owner',
    email: 'owner@kill.test',
  })
  .returning();
const rows: ImportRow[] = Array.from({ length: 10_000 }, (_, n) => ({
  accountName: `Killed ${n}`,
  applicationType: 'Individual',
  shortApplicationType: 'IND',
  firstName: 'K',
  lastName: String(n),
  email: `k${n}@example.com`,
  mobile: '0412345678',
  subBrand: '',
  productCodes: [],
  ownerIndex: 0,
  externalId: `KILL-${n}`,
  investmentAmount: 0,
  language: 'English',
  promoCode: '',
  signingMode: 'Pin',
}));
const actor = {
  userId: '00000000-0000-4000-8000-00000000beef',
  tenantId: 'kill',
  displayName: 'Kill',
  email: 'k@kill.test',
  claims: [],
};
process.stdout.write('importing\n');
await importApplications(
  db,
  actor,
  rows,
  [owner!],
  { sha256: 'kill', name: 'kill.xlsx' },
  // The parent kills this process once batches have committed (hidden), before they are listed.
  { afterBatch: async (written) => void process.stdout.write(`batch ${written}\n`) },
);
process.stdout.write('imported\n');
await handle.close();
