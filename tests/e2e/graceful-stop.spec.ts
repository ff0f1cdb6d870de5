import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * Issue 40 point 3, as an operator runs it: `npm start`, then SIGTERM to npm (what a container
 * platform or a terminal sends). Readiness turns 503 first and stays so for SHUTDOWN_DRAIN_MS while
 * requests are still answered, so a load balancer drains the instance; then npm, the start script
 * and the server all exit, 0. Before, npm exited and left the start script and the server running.
 */
const port = Number(process.env.E2E_PORT ?? 8181) + 7;
const base = `http://127.0.0.1:${port}`;

const answer = async (path: string) => {
  try {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: await response.text() };
  } catch {
    return undefined;
  }
};

/** The processes that run with this data directory in their environment: npm, the start script, the server. */
const processesOf = (dataDir: string) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`DATA_DIR=${dataDir}\0`);
      } catch {
        return false; // gone meanwhile
      }
    });

test('SIGTERM to npm start drains readiness, answers meanwhile, and ends every process', async () => {
  test.setTimeout(180_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-stop-'));
  const npm = spawn('npm', ['start'], {
    // PORTAL_DIST: no portal to build or serve (the journeys' own dist/ must not be rebuilt under them).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PORTAL_DIST: dataDir, SHUTDOWN_DRAIN_MS: '3000', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  try {
    await expect.poll(async () => (await answer('/api/health/ready'))?.status, { timeout: 150_000, intervals: [500] }).toBe(200);
    expect(processesOf(dataDir).length).toBeGreaterThanOrEqual(3);

    npm.kill('SIGTERM');
    await expect.poll(async () => (await answer('/api/health/ready'))?.body, { timeout: 2_000, intervals: [100] }).toBe('{"status":"draining","database":true}');
    // Still answering while the balancer drains it.
    expect((await answer('/api/health'))?.status).toBe(200);
    expect((await answer('/api/tenant/validate'))?.status).toBe(200);

    expect(await exited).toBe(0);
    await expect.poll(() => processesOf(dataDir), { timeout: 10_000 }).toEqual([]);
    expect(await answer('/api/health')).toBeUndefined();
  } finally {
    npm.kill('SIGKILL');
    for (const pid of processesOf(dataDir)) process.kill(Number(pid), 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
});
