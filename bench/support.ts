import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs the server from source (tsx) unless told otherwise, e.g. the bundle `npm start` runs. */
const fromSource = ['--import', 'tsx', 'server/main.ts'];

/** Starts the server as a separate process and resolves once it answers HTTP, with the elapsed ms. */
export async function startServerProcess(
  env: Record<string, string>,
  nodeArgs: string[] = fromSource,
): Promise<{ child: ChildProcess; readyMs: number; port: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // A server that stops (a failed migration, a locked data directory) says why, at once.
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const deadline = started + 120_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited with code ${child.exitCode} before answering:\n${stderr}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/tenant/validate`);
      if (response.ok) return { child, readyMs: performance.now() - started, port };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill();
  throw new Error('Server did not start within 120 s');
}

export const stopProcess = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** One line per figure: value, budget and the ratio (≤ 1 is within budget). */
/** Prints a figure against its budget; the ratio is over 1 when the budget is missed, for ceilings and floors alike. */
export function report(name: string, value: number, budget: number, unit: string, kind: 'ceiling' | 'floor' = 'ceiling') {
  const ratio = kind === 'ceiling' ? value / budget : budget / value;
  console.log(`${name.padEnd(52)} ${value.toFixed(1).padStart(9)} ${unit.padEnd(4)} budget ${kind === 'floor' ? '≥ ' : ''}${budget} ${unit}  ratio ${ratio.toFixed(2)} ${ratio <= 1 ? 'OK' : 'OVER'}`);
}
