import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client.ts';
import { applications, bulkUploads } from '../../server/db/schema.ts';

const child = fileURLToPath(new URL('./bulk-upload-kill-child.ts', import.meta.url));

describe('bulk import killed halfway', () => {
  it(
    'leaves none of its rows when the server process is SIGKILLed in the middle of the import',
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
            if (output.includes('importing')) resolve();
          });
          process_.on('exit', (code) => reject(new Error(`child ended early (${code}): ${output}`)));
        });
        // Part-way: the transaction has begun inserting but 10,000 rows take seconds.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const exited = new Promise((resolve) => process_.on('exit', resolve));
        process_.kill('SIGKILL');
        await exited;
        expect(output).not.toContain('imported');

        const handle = await openDatabase({ dataDir });
        try {
          const [count] = await handle.db
            .select({ n: sql<number>`count(*)::int` })
            .from(applications)
            .where(eq(applications.tenantId, 'kill'));
          expect(count?.n).toBe(0);
          expect(await handle.db.select().from(bulkUploads).where(eq(bulkUploads.tenantId, 'kill'))).toEqual(
            [],
          );
        } finally {
          await handle.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
