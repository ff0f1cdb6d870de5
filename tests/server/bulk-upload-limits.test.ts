import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { accessTokenFor, startTestServer, type TestServer } from './harness.ts';
import { filled, template, upload, validRow } from './bulk-upload-fixtures.ts';
import { applicationOwners } from '../../server/db/schema.ts';
import { bulkUploadMaxUncompressedBytes, busyMessage } from '../../server/api/bulk-upload.routes.ts';

/**
 * Issue 27 point 14: what one bulk upload may cost in memory is bounded before exceljs reads it
 * (the unpacked size), and so is how many are read at once (past it: a clear "busy" answer).
 */
let server: TestServer;
let admin: string;
let owner: string;
let templateBytes: Buffer;
beforeAll(async () => {
  server = await startTestServer({ BULK_UPLOAD_CONCURRENCY: '1' });
  admin = await accessTokenFor(server, 'admin@demo.test');
  const [first] = await server.db.select().from(applicationOwners).where(eq(applicationOwners.tenantId, 'demo')).limit(1);
  owner = first!.displayName;
  templateBytes = await template(server, admin);
});
afterAll(() => server.close());

describe('bulk upload memory', () => {
  it('refuses a small file that unpacks past the bound before reading it', async () => {
    const zip = await JSZip.loadAsync(await filled(templateBytes, [validRow(1, owner, { ExternalId: 'PAD-1' })]));
    // Zeros deflate ~1000:1: a file of a few tens of kB that a reader would inflate to 30 MB.
    zip.file('xl/media/padding.bin', Buffer.alloc(30 * 1024 * 1024));
    const padded = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(padded.length).toBeLessThan(1024 * 1024);
    expect(30 * 1024 * 1024).toBeGreaterThan(bulkUploadMaxUncompressedBytes);
    const answer = (await upload(server, admin, 'padded.xlsx', padded)).json();
    expect(answer).toMatchObject({ Success: false, ResponseType: 'InvalidFile' });
    expect(answer.Message).toMatch(/too large once unpacked/);
  });

  it('reads one upload at a time here, and answers the one after it busy, with when to try again', async () => {
    const file = (n: number) => filled(templateBytes, [validRow(n, owner, { ExternalId: `BUSY-${n}`, Email: 'not-an-email' })]);
    const [first, second] = await Promise.all([file(1), file(2)]);
    const answers = await Promise.all([upload(server, admin, 'one.xlsx', first), upload(server, admin, 'two.xlsx', second)]);
    const busy = answers.filter((response) => response.json().ResponseType === 'Busy');
    expect(busy).toHaveLength(1);
    expect(busy[0]!.json()).toEqual({ Success: false, ResponseType: 'Busy', Message: busyMessage, TemporaryErrorFileId: null });
    expect(busy[0]!.headers['retry-after']).toBe('30');
    // The slot is free again once the first is done.
    expect((await upload(server, admin, 'two.xlsx', second)).json().ResponseType).toBe('InvalidFileData');
  });
});
