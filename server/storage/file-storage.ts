import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where document bytes live (docs/decisions/004). Callers hand over a stream and get a key back; a
 * read is a stream too: no file is ever held whole in memory.
 */
export interface FileStorage {
  readonly kind: 'directory' | 'database';
  /** Stores the stream's bytes under a new key (or `key`, for the seed's sample files); returns the key and the byte count. */
  put(source: Readable, key?: string): Promise<{ key: string; size: number }>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Readable | undefined>;
  has(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** Keys are ours (uuids, or 'sample/<name>'); anything else is refused rather than turned into a path. */
const keyPattern = /^(?:[0-9a-f-]{36}|sample\/[a-z0-9-]+\.[a-z0-9]+)$/;
export function assertKey(key: string): string {
  if (!keyPattern.test(key)) throw new Error(`Invalid storage key ${JSON.stringify(key)}`);
  return key;
}

/**
 * Files under a directory: `<root>/<first two characters>/<key>`. A file is written under a
 * temporary name and renamed when complete, so a reader never sees half a file.
 */
export function directoryStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, assertKey(key).slice(0, 2).replace('/', '_'), assertKey(key).replace('/', '_'));
  return {
    kind: 'directory',
    async put(source, key = randomUUID()) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.${randomUUID()}.partial`;
      let size = 0;
      source.on('data', (chunk: Buffer) => void (size += chunk.length));
      try {
        await pipeline(source, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size };
    },
    async get(key) {
      const path = pathOf(key);
      try {
        await stat(path);
      } catch {
        return undefined;
      }
      return createReadStream(path, { highWaterMark: 256 * 1024 });
    },
    async has(key) {
      return stat(pathOf(key)).then(
        () => true,
        () => false,
      );
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** Splits a stream into chunks of exactly `size` bytes (the last one shorter). */
export async function* fixedChunks(source: AsyncIterable<Buffer | string>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let buffer = typeof piece === 'string' ? Buffer.from(piece) : piece;
    while (pendingBytes + buffer.length >= size) {
      const take = size - pendingBytes;
      pending.push(buffer.subarray(0, take));
      yield Buffer.concat(pending, size);
      buffer = buffer.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (buffer.length > 0) {
      pending.push(buffer);
      pendingBytes += buffer.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

export const readableFrom = (chunks: AsyncIterable<Buffer>) => Readable.from(chunks, { objectMode: false, highWaterMark: 1 });
