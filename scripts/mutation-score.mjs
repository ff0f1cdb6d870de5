// Prints the mutation score per folder from a Stryker JSON report, and fails when a folder is under
// its budget (issue 18): `node scripts/mutation-score.mjs [report.json...]` (the reports of areas
// run one at a time add up).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const reportPaths = process.argv.length > 2 ? process.argv.slice(2) : ['reports/mutation/mutation.json'];
const files = reportPaths.flatMap((path) => Object.entries(JSON.parse(readFileSync(path, 'utf8')).files));

/** Score budgets per folder; a folder not listed is reported without a budget. */
const budgets = { 'src/machines': 80, 'src/domain': 80, 'server/api': 70 };

const folders = new Map();
for (const [file, { mutants }] of files) {
  const folder = dirname(file.replace(/\\/g, '/').replace(/^.*?(?=(src|server)\/)/, ''));
  const counts = folders.get(folder) ?? { killed: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 };
  for (const { status } of mutants) {
    if (status === 'Killed' || status === 'Timeout') counts.killed += 1;
    else if (status === 'Survived') counts.survived += 1;
    else if (status === 'NoCoverage') counts.noCoverage += 1;
    else if (status === 'Ignored') counts.ignored += 1;
    else counts.errors += 1;
  }
  folders.set(folder, counts);
}

const rows = [...folders.entries()].sort(([a], [b]) => a.localeCompare(b));
let failed = false;
console.log('folder            score  killed survived no-cover ignored  budget');
for (const [folder, c] of rows) {
  const valid = c.killed + c.survived + c.noCoverage;
  const score = valid ? (100 * c.killed) / valid : 100;
  const budget = budgets[folder];
  const verdict = budget === undefined ? '' : score >= budget ? `>= ${budget} ok` : `< ${budget} UNDER`;
  if (budget !== undefined && score < budget) failed = true;
  console.log(
    `${folder.padEnd(16)} ${score.toFixed(1).padStart(6)} ${String(c.killed).padStart(7)} ${String(c.survived).padStart(8)} ${String(c.noCoverage).padStart(8)} ${String(c.ignored).padStart(7)}  ${verdict}`,
  );
}
if (failed) process.exitCode = 1;
