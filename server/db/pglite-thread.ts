import { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.ts';

/**
 * PGlite on a worker thread, behind the part of PGlite's interface that Drizzle and our SQL runner
 * use (query, exec, transaction, listen, dumpDataDir, close).
 *
 * PGlite runs Postgres in WebAssembly on the thread that calls it: in-process, every query holds
 * the event loop for its whole length, and queries queued on its lock run back to back. On its own
 * thread the database works on the second core while this one parses requests, answers pages from
 * memory and writes responses, and a long query (an export batch, a seek chunk) blocks nobody.
 */

type Parser = (value: string, type: number) => unknown;

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Drizzle passes parsers that keep the text of dates and numerics: the only kind allowed here. */
  parsers?: Record<number, Parser>;
  /** Input of COPY ... FROM '/dev/blob'. */
  blob?: Blob;
  paramTypes?: number[];
}

export interface Results {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  /** Output of COPY ... TO '/dev/blob'. */
  blob?: Blob;
}

interface Queryable {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
}

export interface ThreadTransaction extends Queryable {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface PgliteThread extends Queryable {
  transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression?: 'auto' | 'gzip' | 'none'): Promise<Blob>;
  close(): Promise<void>;
  /** How often the thread died and was started again (readiness reports it). */
  readonly restarts: number;
  /** Ends the thread at once, as a crash would, and resolves once it is gone (the supervision test). */
  terminate(): Promise<void>;
}

interface Answer {
  id?: number;
  result?: unknown;
  error?: Record<string, unknown> & { message: string };
  notify?: string;
  payload?: string;
  ready?: boolean;
}

type WireResults = Omit<Results, 'blob'> & { blob?: ArrayBuffer };

const workerUrl = new URL('./pglite-worker.mjs', import.meta.url);

/** A parser may only keep the text as it is: functions cannot cross to the worker, type ids can. */
function rawTypes(parsers: Record<number, Parser>): number[] {
  return Object.entries(parsers).map(([type, parse]) => {
    if (parse('2026-01-01 00:00:00+00', Number(type)) !== '2026-01-01 00:00:00+00') {
      throw new Error(`Only parsers that keep the text can be used with PGlite on a thread (type ${type}).`);
    }
    return Number(type);
  });
}

/** Options as a message can carry them; `blob` is the COPY input, read beforehand. */
function wireOptions(options: QueryOptions | undefined, blob?: ArrayBuffer) {
  if (!options) return undefined;
  const { parsers, blob: _input, ...rest } = options;
  return { ...rest, ...(parsers ? { rawTypes: rawTypes(parsers) } : {}), ...(blob ? { blob } : {}) };
}

const fromWire = (results: WireResults): Results => {
  const { blob, ...rest } = results;
  return blob ? { ...rest, blob: new Blob([blob]) } : rest;
};

/** The database error as thrown in the worker: its message and fields (code, detail, constraint ...). */
const databaseError = (error: Record<string, unknown> & { message: string }) => Object.assign(new Error(error.message), error);

/** Starts the worker and opens PGlite on `dataDir` in it; the directory is this process's until closed. */
export async function openPgliteThread(dataDir: string): Promise<PgliteThread> {
  const unlock = lockDataDir(dataDir);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 0;
  let nextTransaction = 0;
  let closing = false;
  /** Set once the thread is gone for good (closed, or it could not be started again). */
  let stopped: Error | undefined;
  let restarts = 0;
  let worker: Worker | undefined;
  let restarting: Promise<void> | undefined;

  const onAnswer = (answer: Answer) => {
    if (answer.notify !== undefined) {
      for (const listener of listeners.get(answer.notify) ?? []) listener(answer.payload ?? '');
      return;
    }
    const waiter = answer.id === undefined ? undefined : pending.get(answer.id);
    if (!waiter || answer.id === undefined) return;
    pending.delete(answer.id);
    // An idle database thread does not keep the process alive (a script that fails still exits).
    if (pending.size === 0) worker?.unref();
    if (answer.error) waiter.reject(databaseError(answer.error));
    else waiter.resolve(answer.result);
  };

  const failPending = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  /** A new thread on the data directory, resolved once PGlite has opened it. */
  function startWorker(): Promise<Worker> {
    const started = new Worker(workerUrl, { workerData: { dataDir } });
    return new Promise<Worker>((resolve, reject) => {
      started.on('message', (answer: Answer) => (answer.ready ? resolve(started) : onAnswer(answer)));
      started.on('error', (error) => {
        reject(error);
        failPending(error);
      });
      started.on('exit', (code) => {
        const error = new Error(`The database thread stopped (exit code ${code}).`);
        reject(error);
        failPending(error);
        if (closing || started !== worker) return;
        // Supervision: the thread is never supposed to die, but if it does, the process must not be
        // left answering 'stopped' forever. Calls in flight failed above; later ones wait for the new thread.
        restarts += 1;
        restarting = startWorker().then(
          (next) => {
            worker = next;
            worker.unref();
            restarting = undefined;
            return Promise.all([...listeners.keys()].map((channel) => call({ op: 'listen', channel }))).then(() => undefined);
          },
          (failure: unknown) => {
            stopped = failure instanceof Error ? failure : new Error(String(failure));
            unlock();
          },
        );
      });
    });
  }

  try {
    worker = await startWorker();
  } catch (error) {
    unlock();
    throw error;
  }
  worker.unref();

  async function call<T>(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (restarting && message.op !== 'listen') await restarting;
    if (stopped || !worker) throw stopped ?? new Error('The database thread is not running.');
    const thread = worker;
    const id = nextId++;
    thread.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: (value) => resolve(value as T), reject });
      thread.postMessage({ ...message, id }, transfer);
    });
  }

  // A call is posted at once (unless it must read a blob first), so that calls made before close()
  // reach the thread before the close does.
  const queryable = (tx?: number): Queryable => ({
    async query(text, params = [], options) {
      const blob = options?.blob ? await options.blob.arrayBuffer() : undefined;
      const results = call<WireResults>({ op: 'query', tx, text, params, options: wireOptions(options, blob) }, blob ? [blob] : []);
      return fromWire(await results);
    },
    async exec(text, options) {
      const blob = options?.blob ? await options.blob.arrayBuffer() : undefined;
      const results = call<WireResults[]>({ op: 'exec', tx, text, options: wireOptions(options, blob) }, blob ? [blob] : []);
      return (await results).map(fromWire);
    },
  });

  return {
    ...queryable(),
    async transaction(callback) {
      const tx = nextTransaction++;
      await call({ op: 'begin', tx });
      let closed = false;
      const inside = queryable(tx);
      const end = async (op: 'commit' | 'rollback') => {
        closed = true;
        await call({ op, tx });
      };
      const handle: ThreadTransaction = {
        query: (...args) => (closed ? Promise.reject(new Error('Transaction is closed')) : inside.query(...args)),
        exec: (...args) => (closed ? Promise.reject(new Error('Transaction is closed')) : inside.exec(...args)),
        rollback: () => end('rollback'),
        get closed() {
          return closed;
        },
      };
      try {
        const result = await callback(handle);
        if (!closed) await end('commit');
        return result;
      } catch (error) {
        if (!closed) await end('rollback');
        throw error;
      }
    },
    async listen(channel, callback) {
      let channelListeners = listeners.get(channel);
      if (!channelListeners) {
        channelListeners = new Set();
        listeners.set(channel, channelListeners);
        await call({ op: 'listen', channel });
      }
      channelListeners.add(callback);
      return async () => {
        listeners.get(channel)?.delete(callback);
      };
    },
    async dumpDataDir(compression = 'auto') {
      return new Blob([await call<ArrayBuffer>({ op: 'dump', compression })]);
    },
    get restarts() {
      return restarts;
    },
    async terminate() {
      await worker?.terminate();
    },
    async close() {
      if (closing) return;
      closing = true;
      await restarting;
      if (stopped || !worker) return;
      const thread = worker;
      // The thread closes PGlite and ends; its exit code says how the close went. Held until then:
      // a caller may open the directory again right after.
      const exited = new Promise<number>((resolve) => thread.once('exit', resolve));
      thread.ref();
      thread.postMessage({ op: 'close' });
      const code = await exited;
      unlock();
      stopped = new Error('The database is closed.');
      if (code !== 0) throw new Error(`The database did not close cleanly (exit code ${code}).`);
    },
  };
}
