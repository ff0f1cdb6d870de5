// Bundles the portal server into dist-server/main.js so `npm start` runs plain JavaScript: compiling
// ~50 TypeScript files on every start (tsx) cost about 0.8 s of the 2 s start budget. Packages stay
// external; the migrations and the worker threads' scripts (database, workbooks) are copied beside
// the bundle, where client.ts, pglite-thread.ts and workbook.ts look for them.
import { build } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';

rmSync('dist-server', { recursive: true, force: true });
await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist-server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('server/db/migrations', 'dist-server/migrations', { recursive: true });
cpSync('server/db/pglite-worker.mjs', 'dist-server/pglite-worker.mjs');
cpSync('server/bulk-upload/workbook-worker.mjs', 'dist-server/workbook-worker.mjs');
