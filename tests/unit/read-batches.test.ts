import { describe, expect, it } from 'vitest';
import { batchedReads } from '../../server/db/read-batches.ts';

/** A read that records each batch it is given and answers the even keys as their double. */
function recordingRead() {
  const batches: number[][] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> | undefined;
  return {
    batches,
    /** Holds every batch sent from now on until `open()`. */
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    open() {
      gate = undefined;
      release();
    },
    read: async (keys: readonly number[]) => {
      batches.push([...keys]);
      await gate;
      return new Map(keys.filter((key) => key % 2 === 0).map((key) => [key, key * 2]));
    },
  };
}

describe('batchedReads', () => {
  it('answers a read alone with a batch of one, and undefined for a key the read did not find', async () => {
    const recorder = recordingRead();
    const load = batchedReads(recorder.read);
    expect(await load(4)).toBe(8);
    expect(await load(3)).toBeUndefined();
    expect(recorder.batches).toEqual([[4], [3]]);
  });

  it('sends reads made together as one batch, each answered with its own value', async () => {
    const recorder = recordingRead();
    const load = batchedReads(recorder.read);
    expect(await Promise.all([load(2), load(3), load(6), load(2)])).toEqual([4, undefined, 12, 4]);
    expect(recorder.batches).toEqual([[2, 3, 6, 2]]);
  });

  it('holds reads made while a batch is with the database and sends them together when it comes back', async () => {
    const recorder = recordingRead();
    const load = batchedReads(recorder.read);
    recorder.hold();
    const first = load(2);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(recorder.batches).toEqual([[2]]);
    const waiting = [load(4), load(8), load(10)];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(recorder.batches).toEqual([[2]]);
    recorder.open();
    expect(await first).toBe(4);
    expect(await Promise.all(waiting)).toEqual([8, 16, 20]);
    expect(recorder.batches).toEqual([[2], [4, 8, 10]]);
  });

  it('never sends more than the batch size in one read', async () => {
    const recorder = recordingRead();
    const load = batchedReads(recorder.read, 3);
    await Promise.all([0, 2, 4, 6, 8].map(load));
    expect(recorder.batches).toEqual([
      [0, 2, 4],
      [6, 8],
    ]);
  });

  it('fails every read of a failed batch, and the next batch still goes', async () => {
    let fail = true;
    const load = batchedReads(async (keys: readonly number[]) => {
      if (fail) throw new Error('database down');
      return new Map(keys.map((key) => [key, key]));
    });
    await expect(Promise.all([load(1), load(2)])).rejects.toThrow('database down');
    fail = false;
    expect(await load(5)).toBe(5);
  });
});
