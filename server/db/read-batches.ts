import DataLoader from 'dataloader';
import { Lru } from '../lru.ts';

/**
 * Reads of one kind that arrive together go to the database as one statement. On PGlite each
 * statement has a fixed cost (the hop to the database thread and PGlite's own round: `select 1`
 * costs 0.27 ms there, and an application detail 0.7 ms in all on the million-row bench), so
 * twenty people opening applications at once paid it twenty times; read ten at a time, a detail
 * costs 0.25 ms. A batch leaves on the next turn of the event loop when none of its kind is with
 * the database, so a read alone waits for nothing, and otherwise on the turn after the one that is
 * comes back (bench:detail).
 *
 * `read` answers the keys it found; a key it leaves out is answered undefined. Nothing is cached:
 * each call reads what the database holds when its batch leaves.
 */
export function batchedReads<K, V>(read: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>, maxBatchSize = 50): (key: K) => Promise<V | undefined> {
  let inFlight: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<K, V | undefined>(
    (keys) => {
      const answers = read(keys).then((found) => keys.map((key) => found.get(key)));
      inFlight = answers.catch(() => undefined);
      return answers;
    },
    { cache: false, maxBatchSize, batchScheduleFn: (dispatch) => void inFlight.then(() => setImmediate(dispatch)) },
  );
  return (key) => loader.load(key);
}

/**
 * One batcher per owner (a database) and kind of read (a statement and its parameters but the
 * keys), made on first use; the least recently used kinds are dropped past `maxKinds`.
 */
export class ReadBatchesByKind<K, V> {
  private readonly byOwner = new WeakMap<object, Lru<(key: K) => Promise<V | undefined>>>();
  constructor(private readonly maxKinds = 1_000) {}

  /** The batched reader of `kind` for `owner`; `read` is used only when the kind is new. */
  reader(owner: object, kind: string, read: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>): (key: K) => Promise<V | undefined> {
    const readers = this.byOwner.get(owner) ?? new Lru();
    this.byOwner.set(owner, readers);
    let reader = readers.get(kind);
    if (!reader) {
      reader = batchedReads(read);
      readers.set(kind, reader);
      readers.evict(() => readers.size > this.maxKinds);
    }
    return reader;
  }
}
