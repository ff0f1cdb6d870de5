import { Lru } from '../lru.ts';

/**
 * Counts attempts per key in a fixed window, in this instance's memory like the other abuse limits
 * (docs/decisions/003-abuse-limits.md). Bounded: the oldest keys are forgotten first.
 */
export function windowCounter({ max, windowMs, maxKeys = 10_000 }: { max: number; windowMs: number; maxKeys?: number }) {
  const windows = new Lru<{ count: number; endsAt: number }>();
  return {
    /** Counts one attempt; answers the seconds to wait when this one is over the limit, else 0. */
    hit(key: string, now = Date.now()): number {
      const current = windows.get(key);
      const entry = current && current.endsAt > now ? current : { count: 0, endsAt: now + windowMs };
      entry.count += 1;
      windows.set(key, entry);
      windows.evict(() => windows.size > maxKeys);
      return entry.count > max ? Math.max(1, Math.ceil((entry.endsAt - now) / 1000)) : 0;
    },
  };
}
