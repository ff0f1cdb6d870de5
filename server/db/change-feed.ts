import type { Database } from './client.ts';

/**
 * What writers announce as they commit (migration 0002: NOTIFY from the tables' triggers), for
 * caches that would otherwise ask the database on every request.
 *
 * Only on PGlite: one process owns a PGlite data directory (data-dir-lock.ts refuses a second), so
 * every writer is in this process and a notification is handed over while the writer's COMMIT is
 * still being answered, before the writer (a route, the seed) can tell anyone it is done. The feed is then complete and never late. On
 * PostgreSQL other instances write too, and a notification can be late or lost with a dropped
 * connection: there is no feed, and callers ask the database.
 */
export interface ChangeFeed {
  /** The tenant's list data version as last announced or noted; undefined until one of them. */
  dataVersion(tenantId: string): number | undefined;
  /** Records a version read from the database (versions only grow, so an older read never wins). */
  noteDataVersion(tenantId: string, version: number): void;
  /** A smaller list's data version (migration 0021) as last announced or noted; undefined until one of them. */
  listVersion(list: string, tenantId: string): number | undefined;
  noteListVersion(list: string, tenantId: string, version: number): void;
  /** Calls `listener` with the id of each user record updated or deleted. */
  onUserChanged(listener: (userId: string) => void): void;
  /** Calls `listener` with the id of each identity-provider grant that ends (migration 0005). */
  onGrantEnded(listener: (grantId: string) => void): void;
  /** Calls `listener` with each tenant's new list data version as it is announced (the live event streams, server/live). */
  onDataVersion(listener: (tenantId: string, version: number) => void): void;
}

interface ListeningClient {
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
  dumpDataDir: unknown;
}

const isPglite = (client: unknown): client is ListeningClient =>
  typeof client === 'object' && client !== null && 'dumpDataDir' in client && 'listen' in client;

const feeds = new WeakMap<object, Promise<ChangeFeed | undefined>>();

function parseVersion(payload: string): { tenant: string; version: number; list?: string } | undefined {
  const parsed: unknown = JSON.parse(payload);
  if (typeof parsed !== 'object' || parsed === null || !('tenant' in parsed) || !('version' in parsed)) return undefined;
  const { tenant, version } = parsed;
  const list = 'list' in parsed && typeof parsed.list === 'string' ? parsed.list : undefined;
  return typeof tenant === 'string' && typeof version === 'number' ? { tenant, version, list } : undefined;
}

/** Versions that only grow: an older read never replaces a newer announcement. */
function growingVersions() {
  const versions = new Map<string, number>();
  return {
    get: (key: string) => versions.get(key),
    note: (key: string, version: number) => versions.set(key, Math.max(versions.get(key) ?? 0, version)),
  };
}

async function listenTo(client: ListeningClient): Promise<ChangeFeed> {
  const versions = growingVersions();
  const listVersions = growingVersions();
  const listKey = (list: string, tenantId: string) => `${list}\u0000${tenantId}`;
  const userListeners: ((userId: string) => void)[] = [];
  const grantListeners: ((grantId: string) => void)[] = [];
  const versionListeners: ((tenantId: string, version: number) => void)[] = [];
  const noteDataVersion = (tenantId: string, version: number) => versions.note(tenantId, version);
  const noteListVersion = (list: string, tenantId: string, version: number) => listVersions.note(listKey(list, tenantId), version);
  await client.listen('application_data_version', (payload) => {
    const announced = parseVersion(payload);
    if (!announced) return;
    noteDataVersion(announced.tenant, announced.version);
    for (const listener of versionListeners) listener(announced.tenant, announced.version);
  });
  await client.listen('list_data_version', (payload) => {
    const announced = parseVersion(payload);
    if (announced?.list) noteListVersion(announced.list, announced.tenant, announced.version);
  });
  await client.listen('user_changed', (userId) => {
    for (const listener of userListeners) listener(userId);
  });
  await client.listen('grant_ended', (grantId) => {
    for (const listener of grantListeners) listener(grantId);
  });
  return {
    dataVersion: (tenantId) => versions.get(tenantId),
    noteDataVersion,
    listVersion: (list, tenantId) => listVersions.get(listKey(list, tenantId)),
    noteListVersion,
    onUserChanged: (listener) => userListeners.push(listener),
    onGrantEnded: (listener) => grantListeners.push(listener),
    onDataVersion: (listener) => versionListeners.push(listener),
  };
}

/** The database's change feed (one per database handle), or undefined where there cannot be a complete one. */
export function changeFeedFor(db: Database): Promise<ChangeFeed | undefined> {
  const client: unknown = Reflect.get(db, '$client');
  if (!isPglite(client)) return Promise.resolve(undefined);
  let feed = feeds.get(client);
  if (!feed) {
    // Without a feed (LISTEN failed, or the database closed first) callers read versions from the
    // database, as on PostgreSQL.
    feed = listenTo(client).catch(() => undefined);
    feeds.set(client, feed);
  }
  return feed;
}
