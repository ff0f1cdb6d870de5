import type { Database } from '../db/client.ts';
import { sqlRunner, type SqlParam } from '../db/sql-runner.ts';
import { Params, listWhere } from '../db/applications-list.ts';
import { visibleScopes, type Actor } from '../db/applications-store.ts';
import { emptyFilters } from '../../src/domain/list-request.ts';
import type { LiveEvent } from '../../src/schemas/live-events.schema.ts';
import type { LiveNotifications } from './notifications.ts';

/**
 * The live event streams of one server instance (docs/decisions/012-live-changes.md). An event is
 * one tenant data version's changed application ids, as the list's triggers recorded them
 * (application_list_changes, migrations 0022-0023), narrowed to what the stream's person may see by
 * the list's own WHERE (decision 001), over the row as it is now and as it was before the change.
 * The event id is that data version, so a stream resumed with Last-Event-ID reads the same table
 * from there and loses nothing while the table still holds it (10,000 versions per tenant).
 */
export interface LiveStream {
  readonly tenantId: string;
  readonly userId: string;
  /** The grant the token was issued under: when it ends, so does the stream. */
  readonly grantId: string;
  /** The last version this stream has been brought to (sent or seen to hold nothing for it). */
  lastVersion: number;
  /** Writes SSE messages (`sseMessage`'s text, the same for every stream it goes to); false when the connection cannot take more now. */
  send(text: string): boolean;
  /** The person's access is to be checked again (their user record changed). */
  recheck(): void;
  end(): void;
}

/** One SSE message: the data version as its id, the kind as its event name. */
export const sseMessage = (version: number, event: LiveEvent) =>
  `id: ${version}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;

interface Visibility {
  /** Equal keys see the same applications: their streams share one read. */
  key: string;
  /** "This row is listed and visible" over an `applications` row, and its parameters ($2 on). */
  where: string;
  params: SqlParam[];
}

/** The list's visibility (decision 001) as one condition; the tenant is $1 of the statements below. */
export function visibilityOf(actor: Actor): Visibility {
  const scopes = visibleScopes(actor);
  const params = new Params();
  params.add(actor.tenantId);
  const parts = scopes.map((scope) => `(${listWhere(params, actor.tenantId, scope, emptyFilters)})`);
  const where = parts.length === 0 ? 'false' : parts.join(' or ');
  const rest = params.values.slice(1);
  return { key: `${where}\u0000${JSON.stringify(rest)}`, where, params: rest };
}

/** listWhere numbers its own tenant parameter; the statements pass the tenant once, as $1. */
function renumbered(visibility: Visibility): string {
  return visibility.where.replace(/\$(\d+)/g, (_match, index: string) => (Number(index) === 1 ? '$1' : `$${Number(index) + 1}`));
}

/**
 * Each change after `$2`, with whether the person sees the application now (listed and in their
 * scope) and saw it before the change (its old row, NULL for an insert). A version recorded with
 * no id (owners or visibility moved, or more than 1,000 rows) names nothing: a reset.
 */
const changesSql = (condition: string) => `
  select c.version::text, c.application_id::text,
    exists (select 1 from applications where applications.id = c.application_id and (${condition}))::text,
    (c.old_row is not null and exists (
      select 1 from jsonb_populate_record(null::applications, c.old_row) as applications where (${condition})))::text
  from application_list_changes c
  where c.tenant_id = $1 and c.version > $2
  order by c.version, c.application_id`;

const versionSql = `select coalesce((select version from application_data_versions where tenant_id = $1), 0)::text`;
const oldestSql = `select min(version)::text from application_list_changes where tenant_id = $1`;

/** Events per version of one stream's reading: each kind with its ids, in version order. */
function eventsOf(rows: readonly (string | null)[][]): { version: number; events: LiveEvent[] }[] {
  const byVersion = new Map<number, { added: number[]; changed: number[]; removed: number[]; reset: boolean }>();
  for (const [versionText, idText, nowText, wasText] of rows) {
    const version = Number(versionText);
    const entry = byVersion.get(version) ?? { added: [], changed: [], removed: [], reset: false };
    byVersion.set(version, entry);
    if (idText === null) {
      entry.reset = true;
      continue;
    }
    const id = Number(idText);
    const now = nowText === 'true';
    const was = wasText === 'true';
    if (now && was) entry.changed.push(id);
    else if (now) entry.added.push(id);
    else if (was) entry.removed.push(id);
  }
  return [...byVersion].map(([version, entry]) => ({
    version,
    events: entry.reset
      ? [{ kind: 'reset', ApplicationIDs: [] }]
      : (['changed', 'added', 'removed'] as const)
          .filter((kind) => entry[kind].length > 0)
          .map((kind) => ({ kind, ApplicationIDs: entry[kind] })),
  }));
}

interface Registered {
  stream: LiveStream;
  visibility: Visibility;
}

/** How often streams look for changes where notifications can be missed (PostgreSQL). */
export const lossyLookEveryMs = 15_000;

export function createLiveChanges(db: Database, notifications: LiveNotifications) {
  const runner = sqlRunner(db);
  const tenants = new Map<string, Set<Registered>>();
  /** One delivery at a time per tenant; a wake during one runs another after it. */
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();

  async function deliver(tenantId: string) {
    const registered = tenants.get(tenantId);
    if (!registered || registered.size === 0) return;
    const groups = new Map<string, Registered[]>();
    for (const entry of registered) {
      const group = groups.get(entry.visibility.key) ?? [];
      group.push(entry);
      groups.set(entry.visibility.key, group);
    }
    for (const group of groups.values()) {
      const first = group[0];
      if (!first) continue;
      const from = Math.min(...group.map(({ stream }) => stream.lastVersion));
      const rows = await runner.textRows(changesSql(renumbered(first.visibility)), [tenantId, from, ...first.visibility.params]);
      // Each message is written once as text and sent as is to every stream of the group.
      const versions = eventsOf(rows).map(({ version, events }) => ({ version, text: events.map((event) => sseMessage(version, event)).join('') }));
      const last = versions.at(-1)?.version;
      for (const { stream } of group) {
        const text = versions
          .filter(({ version, text: messages }) => version > stream.lastVersion && messages !== '')
          .map(({ text: messages }) => messages)
          .join('');
        if (text !== '') stream.send(text);
        if (last !== undefined && last > stream.lastVersion) stream.lastVersion = last;
      }
    }
  }

  /** Brings every stream of the tenant up to the data (coalesced: at most one more run queued). */
  function wake(tenantId: string) {
    if (running.has(tenantId)) {
      again.add(tenantId);
      return;
    }
    const run = deliver(tenantId)
      .catch(() => undefined)
      .finally(() => {
        running.delete(tenantId);
        if (again.delete(tenantId)) wake(tenantId);
      });
    running.set(tenantId, run);
  }

  const streamsWhere = (test: (stream: LiveStream) => boolean) =>
    [...tenants.values()].flatMap((set) => [...set].map(({ stream }) => stream).filter(test));

  notifications.onDataVersion(wake);
  notifications.onResumed(() => tenants.forEach((_set, tenantId) => wake(tenantId)));
  notifications.onUserChanged((userId) => streamsWhere((stream) => stream.userId === userId).forEach((stream) => stream.recheck()));
  notifications.onGrantEnded((grantId) => streamsWhere((stream) => stream.grantId === grantId).forEach((stream) => stream.end()));
  const look = notifications.lossy ? setInterval(() => tenants.forEach((_set, tenantId) => wake(tenantId)), lossyLookEveryMs) : undefined;
  look?.unref();

  return {
    /** The tenant's data version now: where a new stream starts. */
    async currentVersion(tenantId: string): Promise<number> {
      const [row] = await runner.textRows(versionSql, [tenantId]);
      return Number(row?.[0] ?? 0);
    },
    /** Whether the changes after `version` are all still recorded (a resume from there loses nothing). */
    async canResumeFrom(tenantId: string, version: number): Promise<boolean> {
      const current = await this.currentVersion(tenantId);
      if (version > current) return false;
      if (version === current) return true;
      const [row] = await runner.textRows(oldestSql, [tenantId]);
      const oldest = row?.[0];
      return oldest !== null && oldest !== undefined && Number(oldest) <= version + 1;
    },
    add(stream: LiveStream, actor: Actor) {
      const set = tenants.get(stream.tenantId) ?? new Set();
      tenants.set(stream.tenantId, set);
      const entry = { stream, visibility: visibilityOf(actor) };
      set.add(entry);
      // A resumed stream may be behind already.
      wake(stream.tenantId);
      return () => {
        set.delete(entry);
        if (set.size === 0) tenants.delete(stream.tenantId);
      };
    },
    /** Open streams of this instance, and of one account. */
    count: (userId?: string) => streamsWhere((stream) => userId === undefined || stream.userId === userId).length,
    endAll() {
      for (const stream of streamsWhere(() => true)) stream.end();
    },
    async close() {
      clearInterval(look);
      this.endAll();
      await Promise.all([...running.values()]);
      await notifications.close();
    },
  };
}

export type LiveChanges = ReturnType<typeof createLiveChanges>;
