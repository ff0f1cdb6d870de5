// Migrates and seeds the demo tenant into a fresh PGlite data directory, then closes it, so that
// servers can start on copies of it (the e2e run starts one pair of servers per Playwright worker:
// seeding once and copying costs one seed instead of four). `tsx scripts/seed-data-dir.ts <dir>`.
import { openDatabase } from '../server/db/client.ts';
import { seedDemo } from '../server/db/seed.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('Usage: tsx scripts/seed-data-dir.ts <data directory>');
const database = await openDatabase({ dataDir }, seedDemo);
await database.close();
