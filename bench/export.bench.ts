import { pathToFileURL } from 'node:url';
import { ms, ratio, rssMiB, startBenchServer, summarise, type BenchServer } from './common.ts';
import { createLoad, timedGet } from './list.bench.ts';
import { attachmentHeader } from '../server/content-disposition.ts';

/**
 * Budget (issue "Budgets"): exporting 1,000,000 rows takes <= 10 s on PGlite, adds <= 100 MiB RSS
 * over idle, and a list request made meanwhile never waits more than 250 ms.
 */
export const exportBudget = { seconds: 10, rssMiB: 100, concurrentListMs: 250 };

const settle = async () => {
  const gc = Reflect.get(globalThis, 'gc');
  if (typeof gc === 'function') gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
};

export async function runExportBench(server: BenchServer) {
  const token = await server.token('admin@demo.test');
  // Warm: the list caches and the code paths the export uses, so "idle" is the server's working size.
  await timedGet(server, token, '/api/application/list/all', { pageNo: '1' });
  const load = createLoad();
  await settle();
  const idle = rssMiB();

  let peak = idle;
  let atPeak = process.memoryUsage();
  const idleUsage = process.memoryUsage();
  const sampler = setInterval(() => {
    const rss = rssMiB();
    if (rss > peak) {
      peak = rss;
      atPeak = process.memoryUsage();
    }
  }, 50);
  // The download and a user paging the list (every 100 ms) run in the load thread, like browsers would.
  const cpuBefore = process.cpuUsage();
  const run = await load.exportWithPolling(
    `${server.baseUrl}/api/application/export/all`,
    `${server.baseUrl}/api/application/list/all?rowsPerPage=20`,
    token,
  );
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  await load.close();
  const seconds = run.exportMs / 1000;
  const bytes = run.bytes;
  const records = run.records;
  const listLatencies = run.listLatencies;
  // Every download's header comes from the one content-disposition helper (ASCII name and filename*).
  if (run.contentDisposition !== attachmentHeader('export.csv')) throw new Error(`content-disposition ${run.contentDisposition}`);

  const rows = records - 1;
  const latency = summarise(listLatencies);
  console.log(`\nExport of ${rows.toLocaleString('en-AU')} rows (${(bytes / 1024 / 1024).toFixed(0)} MiB of CSV)`);
  console.log(
    `time ${seconds.toFixed(2)} s (${(seconds / exportBudget.seconds).toFixed(2)}x of ${exportBudget.seconds} s budget); ` +
      `server process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
  );
  console.log(
    `RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB: +${(peak - idle).toFixed(0)} MiB ` +
      `(${((peak - idle) / exportBudget.rssMiB).toFixed(2)}x of ${exportBudget.rssMiB} MiB budget)`,
  );
  const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
  console.log(
    `  at the peak: JS heap ${mib(atPeak.heapTotal)} (idle ${mib(idleUsage.heapTotal)}), ` +
      `external incl. PGlite's WASM memory ${mib(atPeak.external)} (idle ${mib(idleUsage.external)})`,
  );
  console.log(
    `list requests during the export: ${latency.count}, p50 ${ms(latency.p50)}, p95 ${ms(latency.p95)}, max ${ms(latency.max)} ` +
      `(${ratio(latency.max, exportBudget.concurrentListMs)})`,
  );
  return { rows, seconds, rssDelta: peak - idle, listLatency: latency };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startBenchServer();
  try {
    await runExportBench(server);
  } finally {
    await server.close();
  }
}
