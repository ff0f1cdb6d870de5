import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, ne, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client.ts';
import { applications, bulkUploads } from '../../server/db/schema.ts';
import {
  bulkUploadRows,
  importHeartbeatMs,
  sweepAbandonedImports,
} from '../../server/db/bulk-upload-store.ts';

const child = fileURLToPath(new URL('./bulk-upload-kill-child.ts', import.meta.url));

describe('bulk import killed halfway', () => {
  it(
    'lists none of its rows when the server process is SIGKILLed in the middle of the import, and its hidden rows are swept',
    { timeout: 180_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'bulk-kill-'));
      try {
        const process_ = spawn(process.execPath, ['--import', 'tsx', child, dataDir], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        await new Promise<void>((resolve, reject) => {
          process_.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes('batch ')) resolve();
          });
          process_.on('exit', (code) => reject(new Error(`child ended early (${code}): ${output}`)));
        });
        // Part-way: a batch has committed (hidden), and 10,000 rows take many more.
        await new Promise((resolve) => setTimeout(resolve, 200));
        const exited = new Promise((resolve) => process_.on('exit', resolve));
        process_.kill('SIGKILL');
        await exited;
        expect(output).not.toContain('imported');

        const handle = await openDatabase({ dataDir });
        try {
          const { db } = handle;
          const count = async (where = eq(applications.tenantId, 'kill')) => {
            const [row] = await db
              .select({ n: sql<number>`count(*)::int` })
              .from(applications)
              .where(where);
            return row?.n;
          };
          // Batches had committed, hidden: none of them is listed, and no import is recorded as done.
          expect(
            await count(and(eq(applications.tenantId, 'kill'), ne(applications.status, 'Cancelled'))),
          ).toBe(0);
          const hidden = await count();
          expect(hidden).toBeGreaterThan(0);
          const [staged] = await db.select({ n: sql<number>`count(*)::int` }).from(bulkUploadRows);
          expect(staged?.n).toBe(hidden);
          const records = await db.select().from(bulkUploads).where(eq(bulkUploads.tenantId, 'kill'));
          expect(records.map((record) => record.outcome)).toEqual(['importing']);

          // Its heartbeat stopped with the process: once it has expired, the sweep removes every row.
          expect(await sweepAbandonedImports(db, new Date())).toBe(0);
          expect(await sweepAbandonedImports(db, new Date(Date.now() + importHeartbeatMs + 1000))).toBe(1);
          expect(await count()).toBe(0);
          expect(await db.select().from(bulkUploadRows)).toEqual([]);
          expect(await db.select().from(bulkUploads).where(eq(bulkUploads.tenantId, 'kill'))).toEqual([]);
        } finally {
          await handle.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
