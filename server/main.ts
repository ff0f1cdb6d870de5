import { fileURLToPath } from 'node:url';
import { readConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { seedDemo, demoBannerLines } from './db/seed.ts';
import { warmListTables } from './db/buffer-warmup.ts';
import { warmReports } from './pdf/report-warmup.ts';

const startedAt = performance.now();
const config = readConfig();
// The database (PGlite's WASM) and the identity provider's modules load side by side.
const [database, { buildApp }] = await Promise.all([
  // The first seed runs with the migrations, under the lock that instances started together share.
  openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR }, seedDemo),
  import('./app.ts'),
]);
const app = await buildApp({
  db: database.db,
  config,
  // PORTAL_DIST lets side-by-side e2e runs each serve their own build of the portal.
  distDir: process.env.PORTAL_DIST ?? fileURLToPath(new URL('../dist', import.meta.url)),
  databaseRestarts: database.restarts,
  poolStats: database.poolStats,
});

/**
 * Drains and closes once: `npm start` forwards a terminal's signal that the server also received
 * itself, so a second signal must not close the database again. Readiness turns false first and
 * stays so for SHUTDOWN_DRAIN_MS, so a load balancer stops sending requests here; then the server
 * stops accepting, answers the requests it has (Fastify's close waits for them) and exits.
 */
let shuttingDown: Promise<void> | undefined;
const shutdown = () => {
  shuttingDown ??= (async () => {
    let code = 0;
    app.startDraining();
    if (config.SHUTDOWN_DRAIN_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
    try {
      await app.close();
    } catch (error) {
      console.error('The HTTP server did not close cleanly:', error);
      code = 1;
    }
    try {
      await database.close();
    } catch (error) {
      console.error('The database did not close cleanly:', error);
      code = 1;
    }
    process.exit(code);
  })();
  return shuttingDown;
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: config.PORT, host: config.HOST });

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const readyMs = Math.round(performance.now() - startedAt);
console.log(`Portal ready in ${readyMs} ms on ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite (${config.DATA_DIR})`}`);
console.log(`  http://localhost:${port}        (tenant demo)`);
console.log(`  http://acme.localhost:${port}   (tenant acme)`);
for (const line of demoBannerLines()) console.log(line);

// While the first users sign in, the list's tables are read into PGlite's (empty) buffer pool.
warmListTables(database.db).then(
  (warmed) => warmed && console.log(`Buffer pool warmed: ${warmed.pages.toLocaleString('en-AU')} pages in ${Math.round(warmed.ms)} ms`),
  (error: unknown) => console.error('Warming the buffer pool failed:', error),
);
// And the report code is compiled once, so the first report generated is not the slow one.
warmReports().catch((error: unknown) => console.error('Warming the report code failed:', error));
