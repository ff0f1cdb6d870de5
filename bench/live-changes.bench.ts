import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { signInOverHttp } from './http-sign-in.ts';
import { percentile, report, startServerProcess, stopProcess } from './support.ts';

/**
 * Issue 42's budgets for the live event streams, on PGlite (a real server process on a fresh
 * seeded data directory):
 * - a change reaches a stream within 1 s p95 (write answered → event read by the client), with
 *   LIVE_BENCH_STREAMS streams open;
 * - LIVE_BENCH_STREAMS (500) open streams cost ≤ 50 MiB of the server's resident memory;
 * - the list's p95 with those streams open (and receiving every change) stays within 10 % of the
 *   same run without them.
 * The streams are held by another process (bench/live-streams-holder.mjs), as clients are; this
 * process times the list and holds one more stream, the observer of the change → event latency.
 * The list is timed without the streams, with them, and without them again (the first and last
 * bracket the drift of a shared machine). `npm run bench:live-changes`; the load average is printed
 * with the figures.
 */
const streams = Number(process.env.LIVE_BENCH_STREAMS ?? 500);
const writes = Number(process.env.LIVE_BENCH_WRITES ?? 60);
const listRequests = Number(process.env.LIVE_BENCH_LIST_REQUESTS ?? 600);
const listConcurrency = 10;
const budgets = { latencyP95: 1_000, memoryMiB: 50, listSlowdown: 1.1 };

interface OpenStream {
  response: IncomingMessage;
  /** Resolves with the time an event naming `id` arrives. */
  waitFor(id: number): Promise<number>;
  close(): void;
}

/** One SSE stream over a plain HTTP connection (no pool: each stream holds its own, as a tab does). */
function openStream(port: number, token: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const waiting = new Map<number, (at: number) => void>();
    const req = request(
      { host: '127.0.0.1', port, path: '/api/events', agent: false, headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const data = buffer
              .slice(0, end)
              .split('\n')
              .find((line) => line.startsWith('data: '));
            buffer = buffer.slice(end + 2);
            if (!data) continue;
            const event = JSON.parse(data.slice(6)) as { ApplicationIDs: number[] };
            for (const id of event.ApplicationIDs) {
              waiting.get(id)?.(at);
              waiting.delete(id);
            }
          }
        });
        resolve({
          response,
          waitFor: (id) => new Promise((done) => waiting.set(id, done)),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** p95 of `count` list pages read `listConcurrency` at a time, across pages and sorts. */
async function listP95(origin: string, token: string, count: number): Promise<number> {
  const sorts = ['ID', 'AccountName', 'Status', 'CreatedDate'];
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const query = new URLSearchParams({ pageNo: String((index % 10) + 1), rowsPerPage: '20', sortBy: sorts[index % sorts.length] ?? 'ID', sortType: index % 2 ? 'asc' : 'desc' });
      const started = performance.now();
      const response = await fetch(`${origin}/api/application/list/all?${query}`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`list answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: listConcurrency }, worker));
  return percentile(latencies, 95);
}

/** Assigns the applications in turn to the admin and back, one every 500 ms while `running()`, beside the list load. */
function writeMeanwhile(origin: string, token: string, ids: readonly number[], adminId: string, running: () => boolean) {
  return (async () => {
    for (let index = 0; running(); index++) {
      const id = ids[index % ids.length];
      await fetch(`${origin}/api/application/assign/${id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ GlobalUserId: index % 2 ? null : adminId }),
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
}

const dataDir = await mkdtemp(join(tmpdir(), 'live-bench-'));
const { child, port } = await startServerProcess({ DATA_DIR: join(dataDir, 'pglite'), LIVE_STREAMS_PER_ACCOUNT: String(streams + 10), RATE_LIMIT_WRITES_PER_ACCOUNT: '100000', RATE_LIMIT_WRITES_PER_ADDRESS: '100000' });
const origin = `http://127.0.0.1:${port}`;
try {
  const token = await signInOverHttp(origin, 'admin@demo.test');
  const headers = { authorization: `Bearer ${token}` };
  const account = (await (await fetch(`${origin}/api/account/info`, { headers })).json()) as { Claims: string[] };
  const adminId = account.Claims.find((claim) => claim.startsWith('GlobalId:'))?.slice('GlobalId:'.length) ?? '';
  const list = (await (await fetch(`${origin}/api/application/list/all?pageNo=1&rowsPerPage=50&status=${encodeURIComponent('["Adviser edit"]')}`, { headers })).json()) as {
    Applications: { ApplicationID: number }[];
  };
  const ids = list.Applications.map((row) => row.ApplicationID);
  if (ids.length === 0 || !adminId) throw new Error('no writable applications or no admin id');

  console.log(`live-changes bench on PGlite: ${streams} streams, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);

  // The list without streams (warm first), with a write every 500 ms, as in the run with them.
  await listP95(origin, token, 100);
  let writing = true;
  let writer = writeMeanwhile(origin, token, ids, adminId, () => writing);
  const withoutStreams = await listP95(origin, token, listRequests);
  writing = false;
  await writer;

  const before = await residentMiB(child.pid ?? 0);
  const holder = fork(new URL('./live-streams-holder.mjs', import.meta.url), [String(port), token, String(streams)]);
  await new Promise<void>((resolve, reject) => {
    holder.once('message', () => resolve());
    holder.once('exit', (code) => reject(new Error(`the stream holder exited (${code})`)));
  });
  const observer = await openStream(port, token);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const after = await residentMiB(child.pid ?? 0);

  writing = true;
  writer = writeMeanwhile(origin, token, ids, adminId, () => writing);
  const withStreams = await listP95(origin, token, listRequests);
  writing = false;
  await writer;

  // Change to stream: from the write's request to the observer reading its event, the other streams open.
  const latencies: number[] = [];
  for (let index = 0; index < writes; index++) {
    const id = ids[index % ids.length] ?? 0;
    const arrived = observer.waitFor(id);
    const started = performance.now();
    const response = await fetch(`${origin}/api/application/assign/${id}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ GlobalUserId: index % 2 ? null : adminId }),
    });
    await response.arrayBuffer();
    latencies.push((await arrived) - started);
  }
  const afterWrites = await residentMiB(child.pid ?? 0);
  const delivered = await new Promise<number>((resolve) => {
    holder.once('message', (message) => resolve(typeof message === 'object' && message !== null && 'events' in message ? Number(message.events) : 0));
    holder.send('count');
  });
  observer.close();
  await new Promise((resolve) => {
    holder.once('exit', resolve);
    holder.kill('SIGTERM');
  });
  await new Promise((resolve) => setTimeout(resolve, 2_000));

  writing = true;
  writer = writeMeanwhile(origin, token, ids, adminId, () => writing);
  const withoutAgain = await listP95(origin, token, listRequests);
  writing = false;
  await writer;

  console.log(`load average at the end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  report(`change → event on a stream, p95 (${streams} open)`, percentile(latencies, 95), budgets.latencyP95, 'ms');
  report(`server memory of ${streams} open streams`, Math.max(after, afterWrites) - before, budgets.memoryMiB, 'MiB');
  console.log(`  (resident ${before.toFixed(1)} MiB before, ${after.toFixed(1)} MiB with the streams, ${afterWrites.toFixed(1)} MiB after ${writes} writes to them)`);
  const without = (withoutStreams + withoutAgain) / 2;
  report('list p95 with the streams (budget: +10 % of without)', withStreams, Math.round(without * budgets.listSlowdown * 10) / 10, 'ms');
  console.log(
    `  (list p95 without streams ${withoutStreams.toFixed(1)} ms before and ${withoutAgain.toFixed(1)} ms after, with ${withStreams.toFixed(1)} ms: ${((withStreams / without - 1) * 100).toFixed(1)} % over their mean; the ${streams} streams read ${delivered} events)`,
  );
} finally {
  await stopProcess(child);
  await rm(dataDir, { recursive: true, force: true });
}
