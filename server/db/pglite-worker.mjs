// The PGlite database on its own thread (see pglite-thread.ts, which talks to it). Plain JavaScript:
// it runs unchanged under tsx, Vitest and the bundled server, none of which compile a worker's file.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread.');
const port = parentPort;

// fsync is off in PGlite (it has no separate process to survive a crash of this one), so full-page
// images in the WAL protect nothing; left on, they write a whole page per index a write touches
// (about 190 KB per application update, measured) and bring the next checkpoint, which stops every
// request while it writes out the buffer pool, 60 times sooner.
const pg = await PGlite.create(workerData.dataDir, {
  startParams: [...PGlite.defaultStartParams, '-c', 'full_page_writes=off'],
});

/** Our answer to the message `id`; ArrayBuffers in `transfer` move instead of being copied. */
const reply = (id, result, transfer = []) => port.postMessage({ id, result }, transfer);

/** The fields of a Postgres error that callers look at; all plain strings, so they always cross the thread. */
const errorFields = ['code', 'severity', 'detail', 'hint', 'position', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'];

/**
 * Answers `id` with an error as plain data. PGlite's errors also carry the query, its parameters and
 * its options (parser functions), which cannot be cloned: posting them whole threw DataCloneError
 * and ended this thread. Nothing about an error may ever stop the thread, so the last resort is a
 * bare message.
 */
function replyError(id, error) {
  const described = { message: error instanceof Error ? error.message : String(error) };
  if (typeof error === 'object' && error !== null) {
    for (const field of errorFields) {
      const value = error[field];
      if (typeof value === 'string' || typeof value === 'number') described[field] = value;
    }
  }
  try {
    port.postMessage({ id, error: described });
  } catch {
    port.postMessage({ id, error: { message: 'The database failed and its error could not be described.' } });
  }
}

const identity = (value) => value;

/** Query options rebuilt from their message form: `rawTypes` are the types whose text is kept as is. */
function queryOptions(options) {
  if (!options) return undefined;
  const { rawTypes, blob, ...rest } = options;
  return {
    ...rest,
    ...(rawTypes ? { parsers: Object.fromEntries(rawTypes.map((type) => [type, identity])) } : {}),
    ...(blob ? { blob: new Blob([blob]) } : {}),
  };
}

/**
 * PGLITE_PROFILE=<file>: where the database thread's time goes, by statement (the first 120
 * characters of its text; calls, total and longest time), written to <file>.<pid> every 2 s. PGlite runs one statement at a time, so a
 * statement's own time is from its start or the previous statement's end, whichever is later.
 */
const profilePath = process.env.PGLITE_PROFILE;
const profile = new Map();
let lastEnd = 0;
if (profilePath) {
  const { writeFileSync } = await import('node:fs');
  setInterval(() => {
    const rows = [...profile].sort((a, b) => b[1].ms - a[1].ms).map(([text, figures]) => ({ text, ...figures, ms: Math.round(figures.ms) }));
    writeFileSync(`${profilePath}.${process.pid}`, JSON.stringify(rows, null, 1));
  }, 2_000).unref();
}
async function profiled(text, work) {
  if (!profilePath) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    const end = performance.now();
    const key = String(text).replace(/\s+/g, ' ').slice(0, 120);
    const figures = profile.get(key) ?? { calls: 0, ms: 0, maxMs: 0 };
    const own = end - Math.max(started, lastEnd);
    figures.calls++;
    figures.ms += own;
    figures.maxMs = Math.max(figures.maxMs, Math.round(own));
    profile.set(key, figures);
    lastEnd = end;
  }
}

/** Runs one query or exec on `target` (the database or an open transaction) and answers it. */
async function run(target, message) {
  return profiled(message.text, () => runNow(target, message));
}

async function runNow(target, message) {
  const options = queryOptions(message.options);
  if (message.op === 'exec') return reply(message.id, await target.exec(message.text, options));
  const result = await target.query(message.text, message.params, options);
  if (!result.blob) return reply(message.id, result);
  const bytes = await result.blob.arrayBuffer();
  return reply(message.id, { ...result, blob: bytes }, [bytes]);
}

/** Open transactions by id: the messages still to run in each, and how to hand it the next one. */
const transactions = new Map();
/** Thrown inside a transaction to make PGlite roll it back. */
const rollback = Symbol('rollback');

function begin(message) {
  const inbox = [];
  let wake;
  const next = () => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise((resolve) => (wake = resolve)));
  transactions.set(message.tx, {
    post(item) {
      if (wake) {
        const resolve = wake;
        wake = undefined;
        resolve(item);
      } else inbox.push(item);
    },
  });
  // Who hears how it ended: the begin message until BEGIN succeeded, then the commit or rollback.
  let answerTo = message.id;
  // Queries from outside the transaction wait on PGlite's own lock until it ends, as in-process.
  pg.transaction(async (tx) => {
    reply(message.id, null);
    for (;;) {
      const item = await next();
      if (item.op === 'commit' || item.op === 'rollback') answerTo = item.id;
      if (item.op === 'commit') return;
      if (item.op === 'rollback') throw rollback;
      await run(tx, item).catch((error) => replyError(item.id, error));
    }
  }).then(
    () => {
      transactions.delete(message.tx);
      reply(answerTo, null);
    },
    (error) => {
      transactions.delete(message.tx);
      if (error === rollback) reply(answerTo, null);
      else replyError(answerTo, error);
    },
  );
}

/** Channels listened to: each notification goes to the main thread before the statement's answer. */
const channels = new Set();

async function handle(message) {
  if (message.tx !== undefined && message.op !== 'begin') {
    const transaction = transactions.get(message.tx);
    if (!transaction) throw new Error('The transaction is closed.');
    return transaction.post(message);
  }
  switch (message.op) {
    case 'query':
    case 'exec':
      return run(pg, message);
    case 'begin':
      return begin(message);
    case 'listen':
      if (!channels.has(message.channel)) {
        channels.add(message.channel);
        await pg.listen(message.channel, (payload) => port.postMessage({ notify: message.channel, payload }));
      }
      return reply(message.id, null);
    case 'dump': {
      const bytes = await (await pg.dumpDataDir(message.compression)).arrayBuffer();
      return reply(message.id, bytes, [bytes]);
    }
    case 'close':
      // The main thread waits for this thread's exit: code 0 when PGlite closed, 1 when it failed.
      try {
        await pg.close();
      } catch (error) {
        console.error('PGlite did not close cleanly:', error);
        process.exit(1);
      }
      return port.close();
    default:
      throw new Error(`Unknown operation ${message.op}.`);
  }
}

/** Operations still running: a close lets them answer first. */
const running = new Set();

port.on('message', (message) => {
  if (message.op === 'close') {
    void Promise.allSettled(running).then(() => handle(message));
    return;
  }
  const operation = handle(message).catch((error) => replyError(message.id, error));
  running.add(operation);
  void operation.finally(() => running.delete(operation));
});
port.postMessage({ ready: true });
