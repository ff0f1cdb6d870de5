// Re-tests each surviving mutant of a Stryker JSON report in a fresh vitest process, with the
// mutation written into the file: `node scripts/mutation-recheck.mjs <report.json> <test,test...>`.
//
// Why: Stryker's vitest runner switches mutants on while tests run, but a machine's configuration
// (`setup({...}).createMachine({...})`) is built once, when its module is imported, before any
// mutant is switched on. Such mutants "survive" although the tests kill them: an emptied `guards`
// object, a guard's `params` returning nothing or an `initial: ''` each fail the path tests when
// the file really contains them (checked by hand, docs/testing.md). Each recheck costs one vitest
// start, so only the survivors are rechecked. The report is updated in place after each mutant: a
// mutant killed here becomes Killed with the test run's reason; the others stay Survived.
//
// Run it in a working copy no other mutation run reads from (it edits source files while it runs
// and restores each before the next).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const [reportPath, testList] = process.argv.slice(2);
if (!reportPath || !testList) {
  console.error('usage: node scripts/mutation-recheck.mjs <report.json> <test,test...>');
  process.exit(2);
}
const tests = testList.split(',').filter(Boolean);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

/** The offset of a 1-based line and column in `text`. */
function offsetOf(text, { line, column }) {
  let offset = 0;
  for (let current = 1; current < line; current++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

/** The file being edited and its text, restored if the recheck is stopped part-way. */
let editing;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (editing) writeFileSync(editing.file, editing.original);
    process.exit(130);
  });
}

let rechecked = 0;
let killed = 0;
for (const [file, entry] of Object.entries(report.files)) {
  const original = readFileSync(file, 'utf8');
  if (original !== entry.source) throw new Error(`${file} differs from the report's source: rerun Stryker first.`);
  for (const mutant of entry.mutants.filter((candidate) => candidate.status === 'Survived')) {
    const start = offsetOf(original, mutant.location.start);
    const end = offsetOf(original, mutant.location.end);
    editing = { file, original };
    writeFileSync(file, original.slice(0, start) + mutant.replacement + original.slice(end));
    try {
      const run = spawnSync('npx', ['vitest', 'run', ...tests], { encoding: 'utf8', timeout: 180_000, env: { ...process.env, CI: '1' } });
      rechecked += 1;
      if (run.status !== 0) {
        killed += 1;
        mutant.status = 'Killed';
        const failure = /(FAIL|Error)[^\n]*/.exec(`${run.stdout}\n${run.stderr}`)?.[0] ?? `exit ${run.status ?? run.signal}`;
        mutant.statusReason = `Killed in a fresh vitest process (scripts/mutation-recheck.mjs): ${stripVTControlCharacters(failure).slice(0, 200)}`;
      }
      console.log(`${mutant.status === 'Killed' ? 'killed  ' : 'survived'} ${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} => ${String(mutant.replacement).slice(0, 50)}`);
    } finally {
      writeFileSync(file, original);
    }
    // Saved after each mutant: a recheck stopped part-way keeps what it found.
    writeFileSync(reportPath, JSON.stringify(report));
  }
}
console.log(`rechecked ${rechecked} survivors: ${killed} killed, ${rechecked - killed} still survive`);
