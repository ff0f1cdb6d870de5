import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflate = promisify(inflateRaw);

/**
 * Why an .xlsx (a zip) must not be opened, or undefined when it may. exceljs inflates every part
 * in memory, so a zip bomb (a few kB that inflate to gigabytes) must be stopped before it: each
 * entry is inflated here with a hard output cap (its declared size, within the total budget), so a
 * central directory that lies about sizes is caught too. Only the zip container is read here; the
 * workbook itself is read by exceljs. Entries inflate on libuv's thread pool, not on the event loop
 * (up to 64 MB of them would hold it for a good part of a second).
 */
export async function zipProblem(buffer: Buffer, maxTotalBytes: number): Promise<string | undefined> {
  const end = findEndOfCentralDirectory(buffer);
  if (end < 0) return 'not a zip file';
  const entries = buffer.readUInt16LE(end + 10);
  const directorySize = buffer.readUInt32LE(end + 12);
  let offset = buffer.readUInt32LE(end + 16);
  if (offset === 0xffffffff || entries === 0xffff || offset + directorySize > buffer.length)
    return 'zip64 or truncated zip';
  let total = 0;
  for (let index = 0; index < entries; index++) {
    if (offset + 46 > buffer.length || buffer.readUInt32LE(offset) !== 0x02014b50)
      return 'broken central directory';
    const method = buffer.readUInt16LE(offset + 10);
    const compressedSize = buffer.readUInt32LE(offset + 20);
    const size = buffer.readUInt32LE(offset + 24);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const localOffset = buffer.readUInt32LE(offset + 42);
    offset += 46 + nameLength + extraLength + commentLength;
    total += size;
    if (size === 0xffffffff || compressedSize === 0xffffffff) return 'zip64 entry';
    if (total > maxTotalBytes) return 'uncompressed size over the limit';
    if (localOffset + 30 > buffer.length || buffer.readUInt32LE(localOffset) !== 0x04034b50)
      return 'broken local header';
    const dataStart =
      localOffset + 30 + buffer.readUInt16LE(localOffset + 26) + buffer.readUInt16LE(localOffset + 28);
    const data = buffer.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) {
      if (compressedSize !== size) return 'stored entry size mismatch';
    } else if (method === 8) {
      try {
        // One byte over the declared size is enough to prove it lies; the cap bounds the memory used.
        const inflated = await inflate(data, { maxOutputLength: size + 1 });
        if (inflated.length !== size) return 'entry size mismatch';
      } catch {
        return 'entry does not inflate within its declared size';
      }
    } else {
      return 'unsupported compression';
    }
  }
  return undefined;
}

function findEndOfCentralDirectory(buffer: Buffer): number {
  const stop = Math.max(0, buffer.length - 22 - 0xffff);
  for (let at = buffer.length - 22; at >= stop; at--) {
    if (buffer.readUInt32LE(at) === 0x06054b50) return at;
  }
  return -1;
}
