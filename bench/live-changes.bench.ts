import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { signInOverHttp } from './http-sign-in.ts';
import { percentile, report, startServerProcess, stopProcess } from './support.ts';
import { compareRounds, median } from './round-comparison.ts';
import { cpuSeconds } from './server-instances.ts';

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
 * The list is read for LIVE_BENCH_ROUND_SECONDS (10) a round, in LIVE_BENCH_ROUNDS (7) rounds with
 * the streams open, each between two rounds without them (the streams closed), and the medians of
 * the rounds' p95s are compared: a shared machine's load drifts over minutes, and one round caught
 * by a neighbour's burst moves neither median. The memory is measured in each round with the
 * server idle, and the median of the rounds taken. Each round is printed with the load average.
 * `npm run bench:live-changes`.
 */
const streams = Number(process.env.LIVE_BENCH_STREAMS ?? 500);
const writes = Number(process.env.LIVE_BENCH_WRITES ?? 60);
/** How long each round reads the list (a write every 500 ms beside it: 20 changes a round by default). */
const roundSeconds = Number(process.env.LIVE_BENCH_ROUND_SECONDS ?? 10);
/** Rounds with the streams open; each lies between two rounds without them. */
const rounds = Number(process.env.LIVE_BENCH_ROUNDS ?? 7);
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

/**
 * The resident size of an idle server: the median of 7 readings over 3 s (a collection of the
 * garbage the list rounds left moves any one reading by tens of MiB).
 */
async function idleResidentMiB(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let reading = 0; reading < 7; reading++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    readings.push(await residentMiB(pid));
  }
  return median(readings);
}

/** p95 of the list pages read `listConcurrency` at a time for `seconds`, across pages and sorts. */
async function listP95(origin: string, token: string, seconds: number): Promise<number> {
  const sorts = ['ID', 'AccountName', 'Status', 'CreatedDate'];
  const latencies: number[] = [];
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
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

  const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
  console.log(`live-changes bench on PGlite: ${streams} streams, ${rounds} rounds with them between ${rounds + 1} without, load average ${load()}`);

  const holder = fork(new URL('./live-streams-holder.mjs', import.meta.url), [String(port), token, String(streams)]);
  const holderExited = new Promise<never>((_, reject) => holder.once('exit', (code) => reject(new Error(`the stream holder exited (${code})`))));
  // Its exit at the end (told to) is no failure; before that, every wait on it races this.
  holderExited.catch(() => undefined);
  /** Tells the holder to open or close its streams; the events they have read so far. */
  const tellHolder = async (command: 'open' | 'close' | 'count') => {
    const answered = new Promise<number>((resolve) =>
      holder.once('message', (message) => resolve(typeof message === 'object' && message !== null && 'events' in message ? Number(message.events) : 0)),
    );
    holder.send(command);
    return Promise.race([answered, holderExited]);
  };
  await Promise.race([new Promise((resolve) => holder.once('message', resolve)), holderExited]);

  /**
   * The list's p95 in one round, with a write every 500 ms beside it (the same in every round);
   * printed with the CPU the server and the stream holder used meanwhile (on two cores the holder's
   * reading of the events competes with the server, as real clients on other machines would not).
   */
  const listRound = async (name: string) => {
    const cpuBefore = [cpuSeconds(child.pid ?? 0), cpuSeconds(holder.pid ?? 0)];
    const started = performance.now();
    let writing = true;
    const writer = writeMeanwhile(origin, token, ids, adminId, () => writing);
    const p95 = await listP95(origin, token, roundSeconds);
    writing = false;
    await writer;
    const seconds = (performance.now() - started) / 1000;
    const [server, streamHolder] = [cpuSeconds(child.pid ?? 0) - (cpuBefore[0] ?? 0), cpuSeconds(holder.pid ?? 0) - (cpuBefore[1] ?? 0)];
    console.log(
      `  ${name.padEnd(24)} list p95 ${p95.toFixed(1).padStart(6)} ms  in ${seconds.toFixed(1)} s; CPU: server ${((100 * server) / seconds).toFixed(0)} %, ` +
        `stream holder ${((100 * streamHolder) / seconds).toFixed(0)} % of a core  (load average ${load()})`,
    );
    return p95;
  };

  // Warm the list up first with a round of its own, untimed: the first rounds ran slower than the later ones.
  await listP95(origin, token, roundSeconds);
  const without: number[] = [];
  const withStreams: number[] = [];
  const memory: number[] = [];
  const latencies: number[] = [];
  for (let round = 1; ; round++) {
    without.push(await listRound(`round ${round} without`));
    if (round > rounds) break;

    // The streams' memory: resident size with the server idle, before and after they open.
    const before = await idleResidentMiB(child.pid ?? 0);
    await tellHolder('open');
    const observer = await openStream(port, token);
    const after = await idleResidentMiB(child.pid ?? 0);
    memory.push(after - before);
    console.log(`  round ${round}: resident ${before.toFixed(1)} MiB idle before the streams open, ${after.toFixed(1)} MiB idle with them: ${(after - before).toFixed(1)} MiB`);

    withStreams.push(await listRound(`round ${round} with ${streams}`));

    if (round === 1) {
      // Change to stream: from the write's request to the observer reading its event, the other streams open.
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
    }
    observer.close();
    await tellHolder('close');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  const delivered = await tellHolder('count');
  holder.kill('SIGTERM');

  console.log(`load average at the end ${load()}`);
  report(`change → event on a stream, p95 (${streams} open)`, percentile(latencies, 95), budgets.latencyP95, 'ms');
  report(`server memory of ${streams} open streams, median of rounds`, median(memory), budgets.memoryMiB, 'MiB');
  console.log(`  (each round: ${memory.map((value) => `${value.toFixed(1)} MiB`).join(', ')})`);
  const compared = compareRounds(without, withStreams);
  report('list p95 with the streams, median of rounds (budget: +10 % of without)', compared.with, Math.round(compared.without * budgets.listSlowdown * 10) / 10, 'ms');
  const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} %`;
  console.log(
    `  (median of the list p95s without ${compared.without.toFixed(1)} ms, with ${compared.with.toFixed(1)} ms: ${percent(compared.slowdown)}; ` +
      `each round with against the two without around it: ${compared.bracketed.map(percent).join(', ')}; the streams read ${delivered} events)`,
  );
} finally {
  await stopProcess(child);
  await rm(dataDir, { recursive: true, force: true });
}
