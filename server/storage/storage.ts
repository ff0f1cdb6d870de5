import { dirname, join, resolve } from 'node:path';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { databaseStorage } from './database-storage.ts';
import { directoryStorage, type FileStorage } from './file-storage.ts';

/**
 * The storage the configuration asks for (docs/decisions/004): FILES_DIR when set; otherwise the
 * database's own table on PostgreSQL (every instance shares it) and `files` beside PGlite's data
 * directory (one process owns that directory anyway).
 */
export function storageFor(config: ServerConfig, db: Database): FileStorage {
  if (config.FILES_DIR) return directoryStorage(config.FILES_DIR);
  if (config.DATABASE_URL) return databaseStorage(db);
  return directoryStorage(defaultFilesDir(config.DATA_DIR));
}

/** `.data/pglite` → `.data/files`. */
export const defaultFilesDir = (dataDir: string) => join(dirname(resolve(dataDir)), 'files');
