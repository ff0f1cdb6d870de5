import { openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * One process per PGlite data directory. PGlite has no postmaster to refuse a second opener: two
 * processes on one directory each keep their own buffers and overwrite each other's pages, and the
 * database is silently damaged. A lock file beside the directory (`<dir>.lock`, outside what
 * PostgreSQL owns) holds the owner's pid and makes a second opener stop with a clear error; a lock
 * left by a process that is gone (a crash) is taken over.
 */
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM';
  }
};

/** Lock files this process holds: one naming our pid but not in here is a crashed process's, whose pid we were given again. */
const held = new Set<string>();

/** Takes the data directory for this process; the returned function gives it back. */
export function lockDataDir(dataDir: string): () => void {
  const path = `${resolve(dataDir)}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(path);
      return () => {
        held.delete(path);
        rmSync(path, { force: true });
      };
    } catch (error) {
      if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST')) throw error;
      const owner = Number(readFileSync(path, 'utf8').trim());
      const ours = owner === process.pid && held.has(path);
      if (ours || (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner))) {
        throw new Error(`The database in ${dataDir} is in use by process ${owner}; stop it first (two processes would damage it).`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the database in ${dataDir}.`);
}
