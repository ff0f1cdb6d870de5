/**
 * How many bulk uploads this instance reads and validates at once (issue 27 point 14). Each holds
 * its workbook inflated in a worker thread (a few hundred MB for the largest file accepted), so a
 * few at once would take the server's memory and slow every other answer; past the limit an upload
 * is answered "busy, try again" straight away rather than queued, so nobody's upload waits unseen.
 */
export function importSlots(max: number) {
  let running = 0;
  return {
    /** A release function when a slot was free, undefined when `max` imports are running. */
    tryAcquire(): (() => void) | undefined {
      if (running >= max) return undefined;
      running++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
      };
    },
  };
}
