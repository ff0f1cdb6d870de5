import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from './server-process.ts';

/**
 * Budget (issue 11): server RSS stable (± 10 %) after 10,000 requests with random Host headers.
 * Every tenant origin (host and port) got its own identity provider and every unknown host its own
 * cache entry, never released; both caches are bounded now. Half the requests reach a tenant's
 * identity provider through a random port, half ask for the tenant of a random unknown host.
 */
const requests = Number(process.env.HOSTS_BENCH_REQUESTS ?? 10_000);
const warmup = requests;
const concurrency = 20;
const dataDir = fileURLToPath(new URL('../.data/hosts-bench', import.meta.url));

const server = await startServerProcess(dataDir, { SEED_DEMO_APPLICATIONS: '50' });
const port = server.port;

const rssMiB = () => {
  const line = readFileSync(`/proc/${server.child.pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
};

const random = (limit: number) => Math.floor(Math.random() * limit);
function randomRequest(index: number): { host: string; path: string } {
  return index % 2 === 0
    ? { host: `localhost:${1 + random(65_535)}`, path: '/oidc/.well-known/openid-configuration' }
    : { host: `t${random(1e9)}.localhost`, path: '/api/configuration/tenant' };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const statuses = new Map<number, number>();
function send({ host, path }: { host: string; path: string }) {
  return new Promise<void>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, agent, headers: { host } }, (response) => {
      statuses.set(response.statusCode ?? 0, (statuses.get(response.statusCode ?? 0) ?? 0) + 1);
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
    request.end();
  });
}

async function run(count: number) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await send(randomRequest(next++));
    }),
  );
  return performance.now() - started;
}

try {
  await run(warmup);
  // Let the collector settle what the warm-up left before taking the baseline.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const before = rssMiB();
  const ms = await run(requests);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const after = rssMiB();
  const ratio = after / before;
  console.log(
    `random Host headers: ${requests.toLocaleString('en-AU')} requests in ${(ms / 1000).toFixed(1)} s; ` +
      `RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MiB (${((ratio - 1) * 100).toFixed(1)} %, budget ± 10 %: ${Math.abs(ratio - 1) <= 0.1 ? 'met' : 'MISSED'})`,
  );
  console.log(`statuses: ${[...statuses].map(([status, count]) => `${status} x${count}`).join(', ')}`);
} finally {
  agent.destroy();
  await server.stop();
}
