import { fileURLToPath } from 'node:url';
import { readConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seedDemo, demoAccounts, demoPassword } from './db/seed.ts';
import { warmListTables } from './db/buffer-warmup.ts';

const startedAt = performance.now();
const config = readConfig();
// The database (PGlite's WASM) and the identity provider's modules load side by side.
const [database, { buildApp }] = await Promise.all([
  openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR }),
  import('./app.ts'),
]);
await seedDemo(database.db);
const app = await buildApp({
  db: database.db,
  config,
  distDir: fileURLToPath(new URL('../dist', import.meta.url)),
});
await app.listen({ port: config.PORT, host: config.HOST });

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const readyMs = Math.round(performance.now() - startedAt);
console.log(`Portal ready in ${readyMs} ms on ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite (${config.DATA_DIR})`}`);
console.log(`  http://localhost:${port}        (tenant demo)`);
console.log(`  http://acme.localhost:${port}   (tenant acme)`);
console.log(`Demo accounts, password ${demoPassword}:`);
for (const account of demoAccounts) console.log(`  ${account.email.padEnd(22)} ${account.roleName}`);

// While the first users sign in, the list's tables are read into PGlite's (empty) buffer pool.
warmListTables(database.db).then(
  (warmed) => warmed && console.log(`Buffer pool warmed: ${warmed.pages.toLocaleString('en-AU')} pages in ${Math.round(warmed.ms)} ms`),
  (error: unknown) => console.error('Warming the buffer pool failed:', error),
);

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
