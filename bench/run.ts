import { startBenchServer } from './common.ts';
import { runListBench } from './list.bench.ts';
import { runExportBench } from './export.bench.ts';

/**
 * `npm run bench`: every budget's figure and ratio. First the foundation (server start, login in
 * Chromium, bundle sizes, list rendering), each a script that runs on import; then the list API and
 * export against the real server on .data/bench, seeded once with 1,000,000 applications.
 */
for (const script of ['./server-start.bench.ts', './login.bench.ts', './list-render.bench.ts']) {
  console.log(`\n== ${script}`);
  await import(script);
}

console.log('\n== 1,000,000 applications');
const server = await startBenchServer();
try {
  await runListBench(server);
  await runExportBench(server);
} finally {
  await server.close();
}
