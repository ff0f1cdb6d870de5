import { loadavg } from 'node:os';
import { concurrency, ms, ratio, startBenchServer, summarise } from './common.ts';

/**
 * Budgets (issue 30): GET /api/reports/summary p95 <= 50 ms with 20 concurrent clients on 1,000,000
 * applications (warm), and <= 1 s for the first answer after a write (the tenant's data version
 * moved: the figures are counted again). Run: `npx tsx bench/reports.bench.ts` (BENCH_APPLICATIONS
 * for a smaller database; the million-row one is built once under .data/bench, as for the list).
 */
export const reportsBudget = { p95: 50, afterWrite: 1_000 };

const requestsPerClient = Number(process.env.BENCH_REQUESTS ?? 25);
/** Ranges people pick: the default twelve months, a quarter, three years. */
const ranges = ['', '?from=2026-07-01&to=2026-09-30', '?from=2023-11-01&to=2026-11-01'];

const server = await startBenchServer();
try {
  const admin = `Bearer ${await server.token('admin@demo.test')}`;
  const get = async (authorization: string, query: string) => {
    const started = performance.now();
    const response = await fetch(`${server.baseUrl}/api/reports/summary${query}`, { headers: { authorization } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`summary: ${response.status}`);
    return performance.now() - started;
  };

  console.log('\nReports summary: the first answer of each range (cold), then warm under load');
  for (const query of ranges) console.log(`  cold ${query || '(default range)'}: ${ms(await get(admin, query))}`);

  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      for (let index = 0; index < requestsPerClient; index++) samples.push(await get(admin, ranges[(client + index) % ranges.length] ?? ''));
    }),
  );
  const warm = summarise(samples);
  console.log(`  warm, ${concurrency} clients x ${requestsPerClient}: p50 ${ms(warm.p50)}, p95 ${ms(warm.p95)} (${ratio(warm.p95, reportsBudget.p95)}), max ${ms(warm.max)}`);

  // A write moves the data version: the next answer counts again.
  const afterWrite: number[] = [];
  for (let round = 0; round < 3; round++) {
    const response = await fetch(`${server.baseUrl}/api/application/new`, { method: 'POST', headers: { authorization: admin } });
    if (!response.ok) throw new Error(`new application: ${response.status}`);
    afterWrite.push(await get(admin, ''));
  }
  const worst = Math.max(...afterWrite);
  console.log(`  first answer after a write: ${afterWrite.map(ms).join(', ')} (${ratio(worst, reportsBudget.afterWrite)})`);
  console.log(`  (load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')}: on a shared machine the figures say as much about the neighbours)`);
} finally {
  await server.close();
}
