import { Readable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import type { FileStorage } from './file-storage.ts';

/**
 * Small but valid files that seeded documents point at (several rows share one key): generated
 * here rather than checked in, and written to storage when the server starts if missing, so a
 * seeded document downloads whatever storage the server uses.
 */

/** A one-page PDF with one line of text; the cross-reference offsets are computed, so readers accept it. */
export function samplePdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A width × height RGB PNG: a diagonal gradient in the given colour. */
export function samplePng(width: number, height: number, [r, g, b]: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const shade = (x + y) / (width + height);
      row.set([Math.round(r * shade), Math.round(g * shade), Math.round(b * shade)], 1 + x * 3);
    }
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.concat(rows))), pngChunk('IEND', Buffer.alloc(0))]);
}

export interface SampleDocument {
  key: string;
  friendlyName: string;
  fileName: string;
  contentType: string;
  bytes: () => Buffer;
}

export const sampleDocuments: readonly SampleDocument[] = [
  { key: 'sample/application-form.pdf', friendlyName: 'Application Form', fileName: 'application-form.pdf', contentType: 'application/pdf', bytes: () => samplePdf('Application form') },
  { key: 'sample/identity-report.pdf', friendlyName: 'Identity Verification Report', fileName: 'identity-report.pdf', contentType: 'application/pdf', bytes: () => samplePdf('Identity verification report') },
  { key: 'sample/drivers-licence.png', friendlyName: 'User upload', fileName: 'drivers-licence.png', contentType: 'image/png', bytes: () => samplePng(64, 40, [11, 92, 173]) },
  { key: 'sample/bank-statement.pdf', friendlyName: 'User upload', fileName: 'bank-statement.pdf', contentType: 'application/pdf', bytes: () => samplePdf('Bank statement') },
  { key: 'sample/passport.png', friendlyName: 'User upload', fileName: 'passport.png', contentType: 'image/png', bytes: () => samplePng(48, 64, [31, 122, 77]) },
];

/** Writes the sample files that are missing from `storage`. */
export async function ensureSampleDocuments(storage: FileStorage): Promise<void> {
  for (const sample of sampleDocuments) {
    if (!(await storage.has(sample.key))) await storage.put(Readable.from([sample.bytes()]), sample.key);
  }
}
