// `npm test`: every stage CI runs, in order, stopping at the first that fails, and at the end one
// line per stage with its duration (issue 41), so the next slowdown is seen where it starts.
// Stages of one group run side by side: the three checks are light and single-threaded, and the
// machine has two cores. Run a single stage with its own script (docs/testing.md).
import { spawn } from 'node:child_process';

const groups = [
  ['typecheck', 'lint', 'statecharts:check'],
  ['test:unit'],
  ['test:mutation:ci'],
  ['build'],
  ['test:e2e'],
];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function run(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve({ script, ok: code === 0, code: code ?? signal, ms: performance.now() - started }));
  });
}

const results = [];
const started = performance.now();
for (const group of groups) {
  const finished = await Promise.all(group.map(run));
  results.push(...finished);
  if (finished.some((result) => !result.ok)) break;
}

const width = Math.max(...results.map((result) => result.script.length));
console.log('\nnpm test, stage by stage:');
for (const result of results) console.log(`  ${result.script.padEnd(width)}  ${seconds(result.ms).padStart(8)}  ${result.ok ? 'ok' : `FAILED (${result.code})`}`);
const skipped = groups.flat().slice(results.length);
for (const script of skipped) console.log(`  ${script.padEnd(width)}  ${'-'.padStart(8)}  not run`);
console.log(`  ${'total'.padEnd(width)}  ${seconds(performance.now() - started).padStart(8)}`);
process.exit(results.every((result) => result.ok) && skipped.length === 0 ? 0 : 1);
