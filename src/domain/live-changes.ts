/**
 * The list's banner for colleagues' changes (issue 42): rows that arrive or leave are counted, not
 * placed under the pointer, until the person chooses Show. `stale`: the stream said the list's
 * scope moved (a reset), so what changed cannot be counted.
 */
export interface LiveArrivals {
  added: readonly number[];
  removed: readonly number[];
  stale: boolean;
}

export const noArrivals: LiveArrivals = { added: [], removed: [], stale: false };

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/** '3 new applications', '1 application removed', '2 new applications, 1 removed', or undefined when nothing waits. */
export function liveBannerText({ added, removed, stale }: LiveArrivals): string | undefined {
  const newText = `${added.length} new ${plural(added.length, 'application', 'applications')}`;
  if (added.length > 0 && removed.length > 0) return `${newText}, ${removed.length} removed`;
  if (added.length > 0) return newText;
  if (removed.length > 0) return `${removed.length} ${plural(removed.length, 'application', 'applications')} removed`;
  return stale ? 'This list has changed' : undefined;
}

/**
 * The page's rows with the values of a fresh read of the same page, each in its place: a row the
 * fresh read no longer holds stays as it was (the banner counts it), and a row it holds that the
 * page did not is not placed (the banner counts it), so nothing moves under the pointer.
 */
export function rowsUpdatedInPlace<Row extends { ApplicationGuid: string }>(shown: readonly Row[], fresh: readonly Row[]): Row[] {
  const byGuid = new Map(fresh.map((row) => [row.ApplicationGuid, row]));
  return shown.map((row) => byGuid.get(row.ApplicationGuid) ?? row);
}

/** How long ago a change was, in the words of the detail's notice: 'just now', '5 minutes ago'. */
function ago(seconds: number): string {
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} ${plural(minutes, 'minute', 'minutes')} ago`;
  const hours = Math.floor(minutes / 60);
  return `${hours} ${plural(hours, 'hour', 'hours')} ago`;
}

/**
 * The detail's notice of a colleague's change, from the activity entry it wrote: 'Assigned to Sam
 * Lee by Avery Admin, just now'. Undefined for the viewer's own change (their screen already shows
 * it) and when there is none. `now` in milliseconds; TimeStamp in seconds (AM §3).
 */
/**
 * The activity entries a colleague's change added: those after `since` (the newest entry shown when
 * the change was announced). Timestamps are whole seconds, so an entry of that same second is new
 * unless it was shown already: a label set and a cancel within one second would lose the cancel.
 */
export function activitySince<T extends { Activity: string; TimeStamp: number }>(activity: readonly T[], shown: readonly T[], since: number): T[] {
  const wasShown = (item: T) => shown.some((known) => known.TimeStamp === item.TimeStamp && known.Activity === item.Activity);
  return activity.filter((item) => item.TimeStamp > since || (item.TimeStamp === since && !wasShown(item)));
}

export function liveChangeText(
  change: { Activity: string; TimeStamp: number } | undefined,
  viewerName: string | undefined,
  now: number,
): string | undefined {
  if (!change) return undefined;
  if (viewerName && change.Activity.endsWith(` by ${viewerName}`)) return undefined;
  return `${change.Activity}, ${ago(Math.max(0, Math.floor(now / 1000) - change.TimeStamp))}`;
}

/** An open editor's note when someone else changed its value meanwhile (the person's input stays). */
export const changedUnderneathText = (now: string) =>
  `Someone else changed this while you were editing; it is now ${now || 'empty'}. Your changes here are kept until you save or cancel.`;
