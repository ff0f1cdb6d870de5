import type { Database } from '../db/client.ts';
import { changeFeedFor } from '../db/change-feed.ts';

/**
 * What the database announces as writers commit (migrations 0002, 0005, 0022-0023: NOTIFY from the
 * triggers), for the live event streams. A notification only wakes a stream: what it sends is read
 * from application_list_changes, so a late or lost notification delays an event, never loses it.
 */
export interface LiveNotifications {
  onDataVersion(listener: (tenantId: string) => void): void;
  onUserChanged(listener: (userId: string) => void): void;
  onGrantEnded(listener: (grantId: string) => void): void;
  /** Called after the listening connection came back: anything announced meanwhile was missed. */
  onResumed(listener: () => void): void;
  /** True where notifications can be missed (PostgreSQL): the streams then also look on a timer. */
  readonly lossy: boolean;
  close(): Promise<void>;
}

interface Listeners {
  version: ((tenantId: string) => void)[];
  user: ((userId: string) => void)[];
  grant: ((grantId: string) => void)[];
  resumed: (() => void)[];
}

function emptyListeners(): Listeners {
  return { version: [], user: [], grant: [], resumed: [] };
}

const tenantOf = (payload: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(payload);
    return typeof parsed === 'object' && parsed !== null && 'tenant' in parsed && typeof parsed.tenant === 'string' ? parsed.tenant : undefined;
  } catch {
    return undefined;
  }
};

/** How long the PostgreSQL listener waits before connecting again, doubling to the last. */
const reconnectDelaysMs = [250, 500, 1_000, 2_000, 5_000];

/**
 * On PGlite the change feed (every writer is in this process). On PostgreSQL a dedicated
 * connection that LISTENs to the triggers' channels, outside the pool (a pooled connection is
 * handed to others between queries and would miss them), connecting again after a drop: every
 * instance hears what any instance commits.
 */
export async function liveNotificationsFor(db: Database): Promise<LiveNotifications> {
  const listeners = emptyListeners();
  const subscribe = {
    onDataVersion: (listener: (tenantId: string) => void) => void listeners.version.push(listener),
    onUserChanged: (listener: (userId: string) => void) => void listeners.user.push(listener),
    onGrantEnded: (listener: (grantId: string) => void) => void listeners.grant.push(listener),
    onResumed: (listener: () => void) => void listeners.resumed.push(listener),
  };
  const feed = await changeFeedFor(db);
  if (feed) {
    feed.onDataVersion((tenantId) => listeners.version.forEach((listener) => listener(tenantId)));
    feed.onUserChanged((userId) => listeners.user.forEach((listener) => listener(userId)));
    feed.onGrantEnded((grantId) => listeners.grant.forEach((listener) => listener(grantId)));
    return { ...subscribe, lossy: false, close: async () => undefined };
  }
  const { default: pg } = await import('pg');
  const pool: unknown = Reflect.get(db, '$client');
  if (!(pool instanceof pg.Pool)) {
    // A PGlite whose feed could not listen: streams fall back to looking on their timer.
    return { ...subscribe, lossy: true, close: async () => undefined };
  }
  let closed = false;
  let client: InstanceType<typeof pg.Client> | undefined;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (closed) return;
    const next = new pg.Client(pool.options);
    client = next;
    const dropped = () => {
      if (client !== next || closed) return;
      client = undefined;
      next.end().catch(() => undefined);
      const delay = reconnectDelaysMs[Math.min(attempt++, reconnectDelaysMs.length - 1)];
      retry = setTimeout(() => void connect(), delay);
    };
    next.on('error', dropped);
    next.on('end', dropped);
    next.on('notification', ({ channel, payload = '' }) => {
      if (channel === 'application_data_version') {
        const tenantId = tenantOf(payload);
        if (tenantId) listeners.version.forEach((listener) => listener(tenantId));
      } else if (channel === 'user_changed') listeners.user.forEach((listener) => listener(payload));
      else if (channel === 'grant_ended') listeners.grant.forEach((listener) => listener(payload));
    });
    try {
      await next.connect();
      await next.query('listen application_data_version; listen user_changed; listen grant_ended');
    } catch {
      dropped();
      return;
    }
    const resumed = attempt > 0;
    attempt = 0;
    if (resumed) listeners.resumed.forEach((listener) => listener());
  };
  await connect();
  return {
    ...subscribe,
    lossy: true,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
