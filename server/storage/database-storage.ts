import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { storedFileChunks } from '../db/schema.ts';
import { assertKey, fixedChunks, readableFrom, type FileStorage } from './file-storage.ts';

/** 1 MiB: a 25 MB document is 25 rows, each one statement; memory holds one chunk per stream. */
export const databaseChunkBytes = 1024 * 1024;

/**
 * Document bytes in PostgreSQL (docs/decisions/004): every server instance on the database serves
 * every document, with nothing shared but the database. A file is written chunk by chunk and read
 * back chunk by chunk, so neither side holds it whole. Chunks of a key are only ever reached through
 * a document row written after the last chunk, so a reader never meets a file still being written.
 */
export function databaseStorage(db: Database, chunkBytes = databaseChunkBytes): FileStorage {
  const toBuffer = (data: Uint8Array) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  async function chunk(key: string, seq: number) {
    const [row] = await db
      .select({ data: storedFileChunks.data })
      .from(storedFileChunks)
      .where(and(eq(storedFileChunks.key, key), eq(storedFileChunks.seq, seq)));
    return row ? toBuffer(row.data) : undefined;
  }
  // A put overwrites, as a file does: two instances starting together both write the same sample
  // files under the same keys, and the second must not fail on the first's chunks.
  const writeChunk = (key: string, seq: number, data: Buffer) =>
    db
      .insert(storedFileChunks)
      .values({ key, seq, data })
      .onConflictDoUpdate({ target: [storedFileChunks.key, storedFileChunks.seq], set: { data } });
  const storage: FileStorage = {
    kind: 'database',
    async put(source: Readable, given?: string) {
      const key = assertKey(given ?? randomUUID());
      let seq = 0;
      let size = 0;
      try {
        for await (const data of fixedChunks(source, chunkBytes)) {
          await writeChunk(key, seq, data);
          seq += 1;
          size += data.length;
        }
        // An empty file is one empty chunk, so that it exists.
        if (seq === 0) await writeChunk(key, 0, Buffer.alloc(0));
        // What an earlier, longer file under this key left beyond this one's end.
        if (given !== undefined) await db.delete(storedFileChunks).where(and(eq(storedFileChunks.key, key), sql`${storedFileChunks.seq} >= ${Math.max(seq, 1)}`));
      } catch (error) {
        // A key chosen by the caller (a sample file) may have been written by another instance meanwhile: leave it.
        if (given === undefined) await storage.delete(key).catch(() => undefined);
        throw error;
      }
      return { key, size };
    },
    async get(key) {
      assertKey(key);
      const first = await chunk(key, 0);
      if (!first) return undefined;
      return readableFrom(
        (async function* () {
          yield first;
          for (let seq = 1; ; seq++) {
            const next = await chunk(key, seq);
            if (!next) return;
            yield next;
          }
        })(),
      );
    },
    async has(key) {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(storedFileChunks)
        .where(and(eq(storedFileChunks.key, assertKey(key)), eq(storedFileChunks.seq, 0)));
      return row !== undefined;
    },
    async delete(key) {
      await db.delete(storedFileChunks).where(eq(storedFileChunks.key, assertKey(key)));
    },
  };
  return storage;
}
