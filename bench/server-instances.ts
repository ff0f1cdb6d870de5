// Server instances for the benches that stop, restart and watch them (the soaks, the live-changes
// browser bench): the real server (`node --import tsx server/main.ts`) on a given port, its output
// kept, its exit awaited; and a fresh database on the throwaway cluster of scripts/with-postgres.sh.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const now = () => performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  /** When it first answered (`waitUntilAnswering`); NaN before. */
  readyAt: number;
  exited: Promise<Exit>;
  /** Set before the bench itself signals the process: any other exit is one nobody asked for. */
  signalled: boolean;
  /** The last of what the server wrote (stdout: its log; stderr: failures). */
  output(): string;
  /** Log lines at level error or above (pino level >= 50) seen so far. */
  errorLines: string[];
}

export interface InstanceOptions {
  name: string;
  port: number;
  /** Server settings for this instance (DATA_DIR or DATABASE_URL, limits); they win over the environment. */
  env: Record<string, string>;
  /** Settings the environment may override (e.g. limits lifted unless set). */
  defaults?: Record<string, string>;
  /** Node options for the server only (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: readonly string[];
}

/** Starts the server; it answers once `waitUntilAnswering` resolves. */
export function spawnInstance({ name, port, env, defaults = {}, nodeArgs = [] }: InstanceOptions): Instance {
  const spawnedAt = now();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...defaults, ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const errorLines: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-8000);
    for (const line of text.split('\n')) {
      const level = /"level":(\d+)/.exec(line)?.[1];
      if (level && Number(level) >= 50) errorLines.push(line.slice(0, 500));
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    name,
    port,
    child,
    pid: child.pid ?? 0,
    spawnedAt,
    readyAt: Number.NaN,
    exited: new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: now() }))),
    signalled: false,
    output: () => output,
    errorLines,
  };
}

/**
 * Resolves once `path` answers 200 (`/api/health/ready`: migrated, seeded and its database
 * answering), setting `readyAt`; throws if the process exits first or does not answer within 180 s.
 */
export async function waitUntilAnswering(instance: Instance, path = '/api/health/ready'): Promise<Instance> {
  const deadline = instance.spawnedAt + 180_000;
  while (now() < deadline) {
    if (instance.child.exitCode !== null || instance.child.signalCode !== null)
      throw new Error(`${instance.name} exited (${instance.child.exitCode ?? instance.child.signalCode}) before it answered:\n${instance.output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${instance.port}${path}`);
      await response.arrayBuffer();
      if (response.ok) {
        instance.readyAt = now();
        return instance;
      }
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  instance.signalled = true;
  instance.child.kill('SIGKILL');
  throw new Error(`${instance.name} did not answer within 180 s`);
}

/**
 * User and system CPU time a running process has used, in seconds (/proc/<pid>/stat, 100 ticks a
 * second); throws once it has exited.
 */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime: fields 14 and 15 of the file, 12 and 13 after the command's name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** SIGTERM, and SIGKILL after 30 s; what became of it, for the report. */
export async function stopInstance(instance: Instance): Promise<string> {
  instance.signalled = true;
  instance.child.kill('SIGTERM');
  const exit = await Promise.race([instance.exited, sleep(30_000).then(() => undefined)]);
  if (!exit) instance.child.kill('SIGKILL');
  return exit ? (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`) : 'did not stop within 30 s, SIGKILLed';
}

/**
 * A new empty database on the cluster of scripts/with-postgres.sh (TEST_DATABASE_URL), named
 * `<prefix>_<time>`; its URL. `runs` says how to run the bench under that script.
 */
export async function freshDatabase(prefix: string, runs: string): Promise<URL> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl || !process.env.TEST_POSTGRES_CTL) throw new Error(`this runs under scripts/with-postgres.sh (${runs})`);
  const databaseName = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;
  return databaseUrl;
}
