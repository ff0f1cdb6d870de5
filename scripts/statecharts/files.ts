import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

async function existingFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** What differs between `dir` and the generated `files`, one readable line each; empty when equal. */
export async function diffDir(dir: string, files: Map<string, string>): Promise<string[]> {
  const existing = await existingFiles(dir);
  const problems: string[] = [];
  for (const name of [...files.keys()].sort()) {
    if (!existing.includes(name)) problems.push(`missing: ${name}`);
    else if ((await readFile(path.join(dir, name), 'utf8')) !== files.get(name))
      problems.push(`differs: ${name}`);
  }
  existing.filter((name) => !files.has(name)).forEach((name) => problems.push(`extra: ${name}`));
  return problems;
}

/**
 * Makes `dir` hold exactly `files`. The folder belongs to the generator, so a file no machine
 * produces any more (a machine removed or renamed) is deleted rather than left to fail `--check`.
 */
export async function syncDir(dir: string, files: Map<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const name of await existingFiles(dir)) {
    if (!files.has(name)) await rm(path.join(dir, name));
  }
  for (const [name, content] of files) await writeFile(path.join(dir, name), content);
}
