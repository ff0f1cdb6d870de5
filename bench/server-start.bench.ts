// Server start to ready with an existing data dir (budget ≤ 2 s): spawn → first HTTP answer, for
// the bundle `npm start` runs (dist-server/main.js), built first.
import { execFileSync } from 'node:child_process';
import { startServerProcess, stopProcess, report, percentile } from './support.ts';

execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
const bundle = ['dist-server/main.js'];

const dataDir = '.data/bench-start';
// The first start runs initdb and the seed; it is not what the budget is about.
await stopProcess((await startServerProcess({ DATA_DIR: dataDir }, bundle)).child);

const runs: number[] = [];
for (let i = 0; i < 5; i++) {
  const { child, readyMs } = await startServerProcess({ DATA_DIR: dataDir }, bundle);
  runs.push(readyMs);
  await stopProcess(child);
}
console.log(`server start runs (ms): ${runs.map((ms) => ms.toFixed(0)).join(', ')}`);
report('server start to ready, existing data dir (median)', percentile(runs, 50), 2000, 'ms');
