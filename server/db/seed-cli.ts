import { parseArgs } from 'node:util';
import { readConfig } from '../config.ts';
import { openDatabase } from './client.ts';
import { seedDemo } from './seed.ts';
import { applicationCount, seedApplications } from './applications-seed.ts';

/**
 * `npm run seed -- --applications N [--tenant demo] [--seed 42] [--data-dir .data/pglite]`
 * Seeds the demo tenants and accounts, then tops the tenant up to N applications (deterministic for
 * a given seed). Uses DATABASE_URL when set, otherwise the PGlite data directory.
 */
const { values } = parseArgs({
  options: {
    applications: { type: 'string', default: '3000' },
    tenant: { type: 'string', default: 'demo' },
    seed: { type: 'string', default: '42' },
    'data-dir': { type: 'string' },
  },
});

const total = Number(values.applications);
const seed = Number(values.seed);
if (!Number.isInteger(total) || total < 0) throw new Error('--applications must be a whole number');
if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');

const config = readConfig();
const dataDir = values['data-dir'] ?? config.DATA_DIR;
const database = await openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir }, seedDemo);
const started = performance.now();
let lastReport = 0;
const result = await seedApplications(database.db, {
  tenantId: values.tenant,
  total,
  seed,
  onProgress: (done, wanted) => {
    if (performance.now() - lastReport > 2000 || done === wanted) {
      lastReport = performance.now();
      console.log(`  ${done.toLocaleString('en-AU')} / ${wanted.toLocaleString('en-AU')}`);
    }
  },
});
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `Tenant ${values.tenant}: ${(await applicationCount(database.db, values.tenant)).toLocaleString('en-AU')} applications ` +
    `(${result.added.toLocaleString('en-AU')} added in ${seconds(performance.now() - started)}: generate ${seconds(result.generateMs)}, ` +
    `load ${seconds(result.loadMs)}, indexes ${seconds(result.indexMs)}) on ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite (${dataDir})`}`,
);
await database.close();
