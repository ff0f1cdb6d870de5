import http from 'node:http';
import { spawn } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client.ts';
import { seedDemo } from '../server/db/seed.ts';
import { signInOverHttp } from './http-sign-in.ts';
import { percentile, report } from './support.ts';

/**
 * Budgets (issue 28): GET /api/users/list with a search p95 ≤ 30 ms at 20 concurrent clients on
 * 100,000 users of one tenant (PGlite); export of those 100,000 ≤ 3 s with server RSS growth
 * ≤ 50 MiB; the users route's JavaScript ≤ 50 KiB gzip (the phone library in the invite modal's
 * chunk only, needs `npx vite build` first). The real server in its own process on a data
 * directory prepared here.
 */
const users = Number(process.env.USERS_BENCH_USERS ?? 100_000);
const seconds = Number(process.env.USERS_BENCH_SECONDS ?? 15);
const clients = 20;
const dataDir = fileURLToPath(new URL('../.data/users-bench', import.meta.url));

await rm(dataDir, { recursive: true, force: true });
const prepared = performance.now();
{
  const database = await openDatabase({ dataDir });
  await seedDemo(database.db);
  await database.db.execute(sql`
    insert into users (tenant_id, email, first_name, last_name, role_name, password_hash, status, claims, last_login_at)
    select 'demo', 'bench.' || g || '@bulk.demo.test',
      (array['Olivia','Noah','Charlotte','Jack','Amelia','William','Isla','Oliver','Mia','Leo','Ava','Henry','Grace','Thomas','Chloe','Lucas','Zoe','Ethan','Ruby','Mason'])[1 + g % 20],
      (array['Smith','Jones','Williams','Brown','Wilson','Taylor','Nguyen','Johnson','Martin','White','Anderson','Walker','Thompson','Harris','Lee'])[1 + (g / 20) % 15] || (g % 997),
      'Staff', 'x', (array['Active','Active','Active','Invited','Deactivated','LockedPasswordAttempts'])[1 + g % 6], '{}',
      case when g % 7 = 0 then null else now() - (g % 90) * interval '1 day' end
    from generate_series(1, ${users}) g`);
  await database.db.execute(sql`analyze users`);
  await database.close();
}
console.log(`prepared ${users.toLocaleString('en-AU')} users in ${((performance.now() - prepared) / 1000).toFixed(1)} s`);

const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error' },
  stdio: ['pipe', 'pipe', 'inherit'],
});
const port = await new Promise<number>((resolve, reject) => {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const match = /http:\/\/localhost:(\d+)/.exec(output);
    if (match) resolve(Number(match[1]));
  });
  child.on('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
});

async function rssMiB(): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
function get(path: string, token: string) {
  return new Promise<{ status: number; bytes: number }>((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
    });
    request.on('error', reject);
    request.end();
  });
}

const searches = ['smith', 'olivia', 'jack wil', 'bench.4242', 'thompson12', 'mia', 'grace.lee', 'nguyen5', 'z', 'noah jones'];
const listPath = (index: number) =>
  `/api/users/list?PageNo=${1 + (index % 3)}&RowsPerPage=20&SearchQuery=${encodeURIComponent(searches[index % searches.length] ?? 'smith')}`;

try {
  const token = await signInOverHttp(`http://127.0.0.1:${port}`, 'admin@demo.test');
  // The first answer of each request is read from the database (answers are then kept until the
  // users change): those reads, one at a time, are the figure for a search nobody made before.
  const firstAnswers: number[] = [];
  for (let index = 0; index < searches.length * 3; index++) {
    const started = performance.now();
    await get(listPath(index), token);
    firstAnswers.push(performance.now() - started);
  }
  console.log(`first answers (read from the database), ${firstAnswers.length} requests: p50 ${percentile(firstAnswers, 50).toFixed(1)} ms, max ${Math.max(...firstAnswers).toFixed(1)} ms`);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let index = client; performance.now() < until; index++) {
        const started = performance.now();
        const { status } = await get(listPath(index), token);
        latencies.push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  console.log(
    `user list searches: ${latencies.length.toLocaleString('en-AU')} in ${seconds} s over ${clients} clients; statuses ${[...statuses].map(([status, count]) => `${status}×${count}`).join(' ')}; ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  report('users list with a search, p95 at 20 clients (100,000 users)', percentile(latencies, 95), 30, 'ms');

  const before = await rssMiB();
  let peak = before;
  const sampler = setInterval(() => void rssMiB().then((rss) => (peak = Math.max(peak, rss))), 25);
  const started = performance.now();
  const { status, bytes } = await get('/api/users/exportall', token);
  const exportSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, await rssMiB());
  console.log(`export: status ${status}, ${(bytes / 1024 / 1024).toFixed(1)} MiB of CSV; RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB`);
  report('export of all users (100,000+)', exportSeconds, 3, 's');
  report('server RSS growth during the export', peak - before, 50, 'MiB');
} finally {
  agent.destroy();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  await rm(dataDir, { recursive: true, force: true });
}

// The users route's own JavaScript (page chunk), and the invite modal's (with the phone metadata) apart.
const assets = fileURLToPath(new URL('../dist/assets/', import.meta.url));
const files = await readdir(assets).catch(() => [] as string[]);
const gzipKiB = async (prefix: string) => {
  let total = 0;
  for (const file of files.filter((name) => name.startsWith(prefix) && name.endsWith('.js'))) total += gzipSync(await readFile(assets + file)).length;
  return total / 1024;
};
if (files.length === 0) console.log('no dist/assets: run `npx vite build` for the size budget');
else {
  const page = await gzipKiB('users-page-');
  const invite = await gzipKiB('invite-user-modal-');
  console.log(`invite modal chunk (phone metadata, loaded when New is pressed): ${invite.toFixed(1)} KiB gzip`);
  report('users route JavaScript on top of the shell', page, 50, 'KiB');
}
