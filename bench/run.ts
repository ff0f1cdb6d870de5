import { startBenchServer } from './common.ts';
import { runListBench } from './list.bench.ts';
import { runExportBench } from './export.bench.ts';

/** `npm run bench`: seeds .data/bench once (1,000,000 applications), then every benchmark against the real server. */
const server = await startBenchServer();
try {
  await runListBench(server);
  await runExportBench(server);
} finally {
  await server.close();
}
