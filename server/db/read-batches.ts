import DataLoader from 'dataloader';

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
