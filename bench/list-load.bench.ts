import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from './server-process.ts';
import { signInOverHttp } from './http-sign-in.ts';
import { percentile, report } from './support.ts';

/**
 * Budget (issue 11): list p99 ≤ 150 ms at 50 connections on the demo data, reads only (the soak
 * mixes in writes and faults). The real server on a fresh data directory; 50 keep-alive connections
 * page My Apps and All Apps with a few sorts and filters, as staff do, for LIST_LOAD_SECONDS.
 */
const seconds = Number(process.env.LIST_LOAD_SECONDS ?? 20);
const connections = 50;
const dataDir = fileURLToPath(new URL('../.data/list-load', import.meta.url));

const server = await startServerProcess(dataDir);
const port = server.port;

const queries = [
  '/api/application/list/all?pageNo=1&rowsPerPage=20',
  '/api/application/list/all?pageNo=2&rowsPerPage=20',
  '/api/application/list/all?pageNo=1&rowsPerPage=20&sortBy=AccountName&sortType=asc',
  '/api/application/list/all?pageNo=1&rowsPerPage=20&status=%5B%22Complete%22%5D',
  '/api/application/list/all?pageNo=1&rowsPerPage=20&q=smith',
  '/api/application/list?pageNo=1&rowsPerPage=20',
];

const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
function get(path: string, token: string) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

try {
  const token = await signInOverHttp(`http://127.0.0.1:${port}`, 'admin@demo.test');
  // Warm-up: every query once per connection (the caches and the statements, as after a few minutes of use).
  await Promise.all(Array.from({ length: connections }, () => Promise.all(queries.map((query) => get(query, token)))));
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, connection) => {
      for (let index = connection; performance.now() < until; index++) {
        const started = performance.now();
        const status = await get(queries[index % queries.length] ?? queries[0]!, token);
        latencies.push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  console.log(
    `list reads: ${latencies.length.toLocaleString('en-AU')} in ${seconds} s over ${connections} connections (${Math.round(latencies.length / seconds)}/s); ` +
      `statuses ${[...statuses].map(([status, count]) => `${status}×${count}`).join(' ')}; p50 ${percentile(latencies, 50).toFixed(1)} ms`,
  );
  report('list p99 at 50 connections (demo data)', percentile(latencies, 99), 150, 'ms');
} finally {
  agent.destroy();
  await server.stop();
}
