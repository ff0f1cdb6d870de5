import path from 'node:path';
import { loadModels } from './statecharts/discover.ts';
import { diffDir, syncDir } from './statecharts/files.ts';
import { generateDocs } from './statecharts/generate.ts';

/**
 * `tsx scripts/statecharts.ts` writes docs/statecharts from src/machines (diagrams, state tables,
 * QA path plans as Markdown, CSV and JSON, index) and prints each machine's coverage. With `--check`
 * it writes nothing and exits 1 when the committed files differ from what the machines generate
 * (CI runs this). Either way it fails, before writing, when a machine names an actor, guard, delay,
 * event or region without words for it (`statechartLabels`, see docs/testing.md).
 */
const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'docs/statecharts');
const check = process.argv.slice(2).includes('--check');

try {
  const { files, summaries } = await generateDocs(await loadModels(root));
  summaries.forEach((line) => console.log(line));
  if (check) {
    const problems = await diffDir(outDir, files);
    if (problems.length) {
      console.error(
        `docs/statecharts is out of date (run \`npm run statecharts\`):\n${problems.map((line) => `  ${line}`).join('\n')}`,
      );
      process.exitCode = 1;
    } else {
      console.log('docs/statecharts is up to date.');
    }
  } else {
    await syncDir(outDir, files);
    console.log(`Wrote ${files.size} files to docs/statecharts.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
