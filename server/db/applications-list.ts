import { columnField, type SortField } from '../../src/domain/list-columns.ts';
import { arrayFilterParams, dateFilterParams, filtersKey, maxPage, type ListFilters, type ListRequest, type ListSort } from '../../src/domain/list-request.ts';
import type { Database } from './client.ts';
import { applicationSearchDocument, applicationSortKeys, type ApplicationSortKey } from './schema.ts';
import { Lru } from '../lru.ts';
import { pgArray, sqlRunner, type SqlParam, type SqlRunner } from './sql-runner.ts';
import { changeColumns, createListRows, keptRowsColumns, namedChanges, rowsSql, versionSql, type ListPage, type ListRowOptions } from './list-rows.ts';
import { changeFeedFor } from './change-feed.ts';

/**
 * The application list (AM §7) over the denormalised `applications` table, built to answer any
 * filter + sort + search page in a few milliseconds on a million rows (docs/decisions/001):
 *
 * - TotalRows is counted once per (tenant, visibility scope, normalised filters) and cached for the
 *   tenant's data version, which triggers bump in the same transaction as every write.
 * - Page positions come from "seek lists": the ordered ids of a (filters, sort), read in keyset
 *   chunks from the sort index (from the front, or from the back for the last pages) and kept for
 *   the same data version. A page is then a slice of ids and one primary-key fetch.
 * - Nothing here is authoritative: every answer is checked against the current data version, so
 *   any number of server instances can keep their own caches.
 * - A write does not make a list be read again: its caches are caught up by the rows the write
 *   changed (catchUp, from application_list_changes). Under a stream of writes, a page is served as
 *   the caches of an earlier version place it, its rows re-checked against the list's WHERE and
 *   ORDER BY as they are read (keptPage), and the caches are caught up in the background. While
 *   writes keep moving the version faster than a page is read through the caches otherwise, the
 *   page is read in one statement (snapshotPage): count, ids and rows of one snapshot, cached nowhere.
 */

/** Who sees what (docs/decisions/001-visibility-and-list-performance.md). */
export type ListScope =
  | { kind: 'mine'; userId: string }
  | { kind: 'instance' }
  | { kind: 'restricted'; userId: string; byLocation: boolean; byRestrictionGroup: boolean };

export function scopeKey(scope: ListScope): string {
  if (scope.kind === 'instance') return 'instance';
  if (scope.kind === 'mine') return `mine:${scope.userId}`;
  return `restricted:${scope.userId}:${scope.byLocation ? 'L' : ''}${scope.byRestrictionGroup ? 'R' : ''}`;
}

/** Collects bound parameters while a statement is written. */
export class Params {
  readonly values: SqlParam[] = [];
  add(value: SqlParam): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A run of words of q as a prefix tsquery: `smi:* & jo:*` (the words are [a-z0-9]+ only). */
export const searchQuery = (words: readonly string[]) => words.map((word) => `${word}:*`).join(' & ');

/** The listed applications of a tenant whose words match every word of the search (migration 0003). */
const searchMatches = (params: Params, tenant: string, words: readonly string[]) =>
  `select id from application_search where tenant_id = ${tenant} and document @@ to_tsquery('simple', ${params.add(searchQuery(words))})`;

/** A search alone over the whole tenant: the search table answers it without the applications rows. */
const isSearchOnly = (scope: ListScope, filters: ListFilters): boolean =>
  scope.kind === 'instance' &&
  filters.search.length > 0 &&
  arrayFilterParams.every((param) => filters[param].length === 0) &&
  dateFilterParams.every((param) => filters[param] === null) &&
  filters.completed === null;

/** The start of a day (YYYY-MM-DD) in the tenant's time zone, as a timestamptz expression. */
export const tenantDayStart = (tenant: string, dayParam: string) =>
  `((${dayParam})::date::timestamp at time zone (select t.time_zone from tenants t where t.id = ${tenant}))`;

/** `column` within the days [from, to] (either open) of the tenant's time zone. */
function dayRange(params: Params, tenant: string, column: string, from: string | null, to: string | null): string[] {
  const clauses: string[] = [];
  if (from !== null) clauses.push(`${column} >= ${tenantDayStart(tenant, params.add(from))}`);
  if (to !== null) clauses.push(`${column} < ${tenantDayStart(tenant, `${params.add(to)}::date + 1`)}`);
  return clauses;
}

/**
 * The WHERE clause of a list: the tenant, rows that are listed, the caller's scope and the filters.
 * `listed` false keeps cancelled rows: cancel takes an application out of every listing (AM §4), but
 * its own address still opens it, read-only (issue 32), so one application's reads ask for it.
 */
export function listWhere(params: Params, tenantId: string, scope: ListScope, filters: ListFilters, listed = true): string {
  const tenant = params.add(tenantId);
  const clauses = [`tenant_id = ${tenant}`];
  if (listed) clauses.push(`status <> 'Cancelled'`);

  if (scope.kind === 'mine') {
    const user = params.add(scope.userId);
    clauses.push(
      `(owner_id = any(array(select o.id from application_owners o where o.tenant_id = ${tenant} and o.global_user_id = ${user}::uuid)) or assignee_user_id = ${user}::uuid)`,
    );
  } else if (scope.kind === 'restricted') {
    const user = params.add(scope.userId);
    const visibility = (column: string) =>
      `coalesce((select v.${column} from user_visibility v where v.user_id = ${user}::uuid and v.tenant_id = ${tenant}), '{}'::text[])`;
    const parts: string[] = [];
    if (scope.byLocation) parts.push(`location = any(${visibility('locations')})`);
    if (scope.byRestrictionGroup) parts.push(`restriction_group = any(${visibility('restriction_groups')})`);
    clauses.push(parts.length > 0 ? `(${parts.join(' or ')})` : 'false');
  }

  const textIn = (column: string, values: readonly string[]) => {
    if (values.length > 0) clauses.push(`${column} = any(${params.add(pgArray(values))}::text[])`);
  };
  textIn('status', filters.status);
  textIn('label', filters.label);
  textIn('system_label', filters.sysLabel);
  textIn('sub_brand_name', filters.subBrand);
  textIn('application_type', filters.applicationType);
  clauses.push(...dayRange(params, tenant, 'date_created', filters.createdFrom, filters.createdTo));
  clauses.push(...dayRange(params, tenant, 'date_completed', filters.completedFrom, filters.completedTo));
  if (filters.completed !== null) clauses.push(`date_completed is ${filters.completed ? 'not ' : ''}null`);

  if (filters.assignee.length > 0) {
    const ids = filters.assignee.filter((value) => value !== '');
    const parts: string[] = [];
    if (ids.length > 0) parts.push(`assignee_user_id = any(${params.add(pgArray(ids))}::uuid[])`);
    if (ids.length < filters.assignee.length) parts.push('assignee_user_id is null');
    clauses.push(`(${parts.join(' or ')})`);
  }

  if (filters.products.length > 0) {
    const codes = filters.products.filter((value) => value !== '');
    const none = codes.length < filters.products.length;
    const codesParam = codes.length > 0 ? params.add(pgArray(codes)) : '';
    if (filters.mustHaveAllSelectedProducts) {
      if (codes.length > 0) clauses.push(`product_codes @> ${codesParam}::text[]`);
      if (none) clauses.push('cardinality(product_codes) = 0');
    } else {
      const parts: string[] = [];
      if (codes.length > 0) parts.push(`product_codes && ${codesParam}::text[]`);
      if (none) parts.push('cardinality(product_codes) = 0');
      clauses.push(`(${parts.join(' or ')})`);
    }
  }

  if (filters.search.length > 0) {
    // Beside other filters the applications GIN index serves (the planner combines it with theirs);
    // a search alone reads application_search instead (see extend).
    clauses.push(`${applicationSearchDocument} @@ to_tsquery('simple', ${params.add(searchQuery(filters.search))})`);
  }
  return clauses.join(' and ');
}

/** The sort key of a column and the direction a seek list walks in. */
interface SortPlan {
  key: ApplicationSortKey;
  /** The id is the key itself: no tie-break needed. */
  idOnly: boolean;
}

const sortPlanFor = (sort: ListSort): SortPlan => {
  const field: SortField = columnField[sort.sortBy];
  const key = applicationSortKeys[field];
  return { key, idOnly: key.sql === 'id' };
};

/** ORDER BY and the keyset condition for walking in `ascending` order. */
function orderAndSeek(plan: SortPlan, ascending: boolean, params: Params, after: { key: string; id: number } | null) {
  const direction = ascending ? 'asc' : 'desc';
  const comparison = ascending ? '>' : '<';
  if (plan.idOnly) {
    return {
      order: `id ${direction}`,
      seek: after ? `id ${comparison} ${params.add(after.id)}::bigint` : '',
    };
  }
  return {
    order: `${plan.key.sql} ${direction}, id ${direction}`,
    seek: after
      ? `(${plan.key.sql}, id) ${comparison} (${params.add(after.key)}::${plan.key.type}, ${params.add(after.id)}::bigint)`
      : '',
  };
}

/** Ordered ids, grown in place (doubling) as chunks arrive. */
class IdList {
  private ids = new Float64Array(0);
  length = 0;
  after: { key: string; id: number } | null = null;
  done = false;
  get bytes() {
    return this.ids.byteLength;
  }
  push(values: ArrayLike<number>) {
    if (this.length + values.length > this.ids.length) {
      const grown = new Float64Array(Math.max(1024, (this.length + values.length) * 2));
      grown.set(this.ids.subarray(0, this.length));
      this.ids = grown;
    }
    this.ids.set(values, this.length);
    this.length += values.length;
  }
  at(index: number) {
    return this.ids[index] ?? 0;
  }
}

/** How many of the list's ids are not among `changed`. */
function countKept(list: IdList, changed: ReadonlySet<number>): number {
  let kept = 0;
  for (let index = 0; index < list.length; index++) if (!changed.has(list.at(index))) kept++;
  return kept;
}

/**
 * The seek list without the `changed` ids, and with each of `placements` ("id:anchor,...", in the
 * list's walking order) right after its anchor, the unchanged row it follows (none: first);
 * undefined if an anchor is not in the list.
 */
function replaced(list: IdList, changed: ReadonlySet<number>, placements: string): IdList | undefined {
  const following = new Map<string, number[]>();
  const placed = placements ? placements.split(',') : [];
  for (const text of placed) {
    const [id = '', anchor = ''] = text.split(':');
    following.set(anchor, [...(following.get(anchor) ?? []), Number(id)]);
  }
  const ids = new Float64Array(countKept(list, changed) + placed.length);
  let next = 0;
  const put = (anchor: string) => {
    for (const id of following.get(anchor) ?? []) ids[next++] = id;
  };
  put('');
  for (let index = 0; index < list.length; index++) {
    const id = list.at(index);
    if (changed.has(id)) continue;
    ids[next++] = id;
    put(String(id));
  }
  if (next !== ids.length) return undefined;
  const rebuilt = new IdList();
  rebuilt.push(ids);
  rebuilt.done = list.done;
  rebuilt.after = list.after;
  return rebuilt;
}

/** The ids in order, sorted in place. A bitmap scan returns them in table order, mostly by id already. */
function sortedIds(ids: Float64Array, ascending: boolean): Float64Array {
  let inOrder = true;
  for (let index = 1; index < ids.length && inOrder; index++) inOrder = (ids[index - 1] ?? 0) <= (ids[index] ?? 0);
  if (!inOrder) ids.sort();
  return ascending ? ids : ids.reverse();
}

interface SeekEntry {
  version: number;
  /**
   * The newest version a chunk of it was read at: above `version`, its lists place the rows past
   * where they had read as that version does, and the entry is caught up before a page is served
   * from them without a check of the version (recheckedPage).
   */
  newestChunk: number;
  total: number;
  /** When its version was read (Date.now()): how stale a kept page may be (keptPage). */
  at: number;
  forward: IdList;
  backward: IdList;
  /** Speed of the last chunk read for this list (its rows per millisecond). */
  rowsPerMs: number | null;
  /** Extensions run one at a time per entry; concurrent requests wait for the same chunk. */
  lock: Promise<unknown>;
}

const seekEntry = (version: number, total: number, forward = new IdList()): SeekEntry => ({
  version,
  newestChunk: version,
  total,
  at: Date.now(),
  forward,
  backward: new IdList(),
  rowsPerMs: null,
  lock: Promise.resolve(),
});

interface CountEntry {
  version: number;
  total: number;
  /** When it was counted (Date.now()): how stale a kept page may be (keptPage). */
  at: number;
}

export interface ListEngineOptions extends ListRowOptions {
  /** Upper bound of memory held by seek lists, in bytes. */
  maxSeekBytes?: number;
  maxCountEntries?: number;
  /**
   * Seek chunks are sized to take about `chunkTargetMs` each (from the speed of the last chunk), so
   * that on PGlite, where one query holds the only thread, other requests get in between chunks.
   */
  chunkTargetMs?: number;
  minChunk?: number;
  maxChunk?: number;
  /** Past this many rows to read, a page is fetched with OFFSET and not cached. */
  maxExtension?: number;
  /**
   * Lists up to this many rows are read whole in one query that lets the planner use the filters'
   * own indexes (bitmap scans) and sort: walking a sort index to find sparse matches costs more.
   */
  materializeMax?: number;
  /**
   * Under writes, a page of caches read at an earlier version is served, re-checked, while they are
   * younger than this (keptPage); older ones are read again before answering.
   */
  maxStaleMs?: number;
  /** A kept page's caches are caught up (or read again) in the background once they are this old. */
  refreshAfterMs?: number;
  /**
   * Kept pages are served only once the data is this many versions past the caches: a single
   * write (someone saving a form) is caught up at once; a stream of them is what keeps pages.
   */
  keptAfterVersions?: number;
}

export interface ListPageRequest extends ListRequest {
  tenantId: string;
  scope: ListScope;
  /** Who asks (a user id): the next page is read ahead for a reader paging forward. */
  reader?: string;
}

/** The caches were read at an earlier version than `current` (when the reader learnt it). */
class StaleVersion extends Error {
  constructor(readonly current?: number) {
    super('The data moved on.');
  }
}

/**
 * Attempts through the caches (the first believing them, the others reading the version first)
 * before a page is read in one statement (snapshotPage). Each attempt that meets a newer version
 * has spent its reads for nothing; under a stream of writes the next one most likely will too.
 */
const cachedAttempts = 3;

/** How long a tenant's number of applications is believed (smallTenant). */
const tenantSizeMaxAgeMs = 60_000;
/** A catch-up re-places at most this many changed rows; more, and the list is read again. */
const maxCatchUpRows = 200;

/** The next page is read ahead only for pages up to this size (the default page is 20 rows). */
const maxReadAheadRows = 25;
/** Readers whose last page of each list is remembered (to tell who is paging forward). */
const maxReaderPages = 10_000;

export function createListEngine(db: Database, options: ListEngineOptions = {}) {
  const runner: SqlRunner = sqlRunner(db);
  const maxSeekBytes = options.maxSeekBytes ?? 64 * 1024 * 1024;
  const maxCountEntries = options.maxCountEntries ?? 10_000;
  const chunkTargetMs = options.chunkTargetMs ?? 15;
  const minChunk = options.minChunk ?? 500;
  const maxChunk = options.maxChunk ?? 50_000;
  const maxExtension = options.maxExtension ?? 100_000;
  const materializeMax = options.materializeMax ?? 40_000;
  const maxStaleMs = options.maxStaleMs ?? 10_000;
  const refreshAfterMs = options.refreshAfterMs ?? 250;
  const keptAfterVersions = options.keptAfterVersions ?? 2;
  /** When each user last wrote (Date.now()): a reader is never given a kept page older than their own write. */
  const lastWriteBy = new Lru<number>();
  const changes = changeFeedFor(db);
  const listRows = createListRows(runner, changes, options);

  const counts = new Lru<CountEntry>();
  const pendingCounts = new Map<string, Promise<CountEntry>>();
  const seeks = new Lru<SeekEntry>();
  const lastPageRead = new Lru<number>();
  /** Background reads of lists whose kept pages were served, by seek key: one at a time each. */
  const refreshing = new Map<string, Promise<unknown>>();
  /** Catch-ups under way, by seek key (caughtUp). */
  const catchingUp = new Map<string, Promise<boolean>>();
  const stats = { requests: 0, countHits: 0, countMisses: 0, seekHits: 0, seekChunks: 0, offsetFallbacks: 0, staleRetries: 0, catchUps: 0, wholePages: 0, keptPages: 0, refreshes: 0, snapshotPages: 0 };

  const entryBytes = (entry: SeekEntry) => entry.forward.bytes + entry.backward.bytes;
  const seekBytes = () => {
    let bytes = 0;
    for (const entry of seeks.values()) bytes += entryBytes(entry);
    return bytes;
  };

  const currentVersion = listRows.currentVersion;

  /**
   * TotalRows of a list: the cached count if it is of `version`, else counted now, at the version the
   * count's own statement saw (which the caller then reads the list at).
   */
  async function countRows(request: ListPageRequest, key: string, version: number): Promise<CountEntry> {
    const cached = counts.get(key);
    if (cached && cached.version === version) {
      stats.countHits++;
      return cached;
    }
    let pending = pendingCounts.get(key);
    if (!pending) {
      stats.countMisses++;
      pending = (async () => {
        const params = new Params();
        const where = listWhere(params, request.tenantId, request.scope, request.filters);
        // Not prepared (textRowsByText), like the OFFSET walk: planned for its filters' own values.
        const [row] = await runner.textRows(
          `select count(*)::text, ${versionSql('$1')}::text from applications where ${where}`,
          params.values,
        );
        const entry = { total: Number(row?.[0] ?? 0), version: Number(row?.[1] ?? 0), at: Date.now() };
        counts.set(key, entry);
        counts.evict(() => counts.size > maxCountEntries);
        return entry;
      })().finally(() => pendingCounts.delete(key));
      pendingCounts.set(key, pending);
    }
    return pending;
  }

  /**
   * Small lists are read whole in one query that lets the planner use the filters' own indexes and
   * sort. So is a search, whatever its size: only its GIN index finds matches cheaply, and a walk in
   * sort order would rebuild every word of every row it passes.
   */
  const readWhole = (request: ListPageRequest, total: number) => total <= materializeMax || request.filters.search.length > 0;

  /** Reads the next chunk of a seek list in its direction. */
  async function extend(request: ListPageRequest, entry: SeekEntry, list: IdList, ascending: boolean, need = 0) {
    const plan = sortPlanFor(request.sort);
    const params = new Params();
    if (readWhole(request, entry.total) && list.length === 0) {
      // A list read whole is of the version its statement saw, whatever the request started from:
      // the entry takes that version and its length as TotalRows. A request of an earlier version
      // then finds its row fetch stale and is answered from this entry (keptPage); catchUp carries
      // the entry forward from there. (Refusing a newer version dropped the entry: under a stream of
      // writes most whole reads did, and the list was read again and again.)
      let version: number | null;
      if (plan.idOnly) {
        // By id alone the ids are sorted here: sorting a Float64Array is far cheaper than PGlite
        // sorting the rows (a quarter of a million: about 35 ms against 250 ms). The version comes
        // once, as a negative first "id", not with every id (a quarter of a million copies of it
        // cost 50-80 ms).
        const tenant = params.add(request.tenantId);
        const read = await runner.idList(
          `select -${versionSql(tenant)} union all ` +
            (isSearchOnly(request.scope, request.filters)
              ? searchMatches(params, tenant, request.filters.search)
              : `select id from applications where ${listWhere(params, request.tenantId, request.scope, request.filters)}`),
          params.values,
        );
        const ids = sortedIds(read, true);
        version = -(ids[0] ?? 0);
        list.push(sortedIds(ids.subarray(1), ascending));
      } else {
        const direction = ascending ? 'asc' : 'desc';
        const where = listWhere(params, request.tenantId, request.scope, request.filters);
        const whole = await runner.idChunk(
          `with listed as materialized (select id, ${plan.key.sql} as sort_value from applications where ${where}) ` +
            `select id as seek_id, sort_value::text as seek_key, ${versionSql('$1')}::text as seek_version from listed order by sort_value ${direction}, id ${direction}`,
          params.values,
        );
        version = whole.version;
        list.push(whole.ids);
      }
      if (version !== null && version !== entry.version) Object.assign(entry, { version, newestChunk: version, total: list.length, at: Date.now() });
      stats.seekChunks++;
      list.done = true;
      return;
    }
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    const { order, seek } = orderAndSeek(plan, ascending, params, list.after);
    // Rows per millisecond of the previous chunk of this entry decide the size of this one.
    // Reading ahead costs little while a chunk stays within its time target, and saves later trips.
    // A page further out than that is read in one chunk: the requests behind it wait for it anyway,
    // and one query costs less than a string of them.
    const bySpeed = entry.rowsPerMs === null ? minChunk : Math.round(entry.rowsPerMs * chunkTargetMs);
    const limit = Math.min(maxChunk, Math.max(minChunk, bySpeed, need));
    const started = performance.now();
    const chunk = await runner.idChunk(
      `select id as seek_id, (${plan.key.sql})::text as seek_key, ${versionSql('$1')}::text as seek_version from applications where ${where}${seek ? ` and ${seek}` : ''} order by ${order} limit ${params.add(limit)}`,
      params.values,
    );
    stats.seekChunks++;
    entry.rowsPerMs = chunk.ids.length / Math.max(1, performance.now() - started);
    // A chunk of a newer version is kept: it holds every row past the last one read that no write
    // since the entry's version changed, and a catch-up from that version removes and re-places
    // each changed row (catchUp). Dropping the entry instead made a big list be counted again.
    if (chunk.version !== null && chunk.version < entry.version) throw new StaleVersion();
    entry.newestChunk = Math.max(entry.newestChunk, chunk.version ?? entry.version);
    list.push(chunk.ids);
    const lastId = chunk.ids[chunk.ids.length - 1];
    if (chunk.ids.length < limit || lastId === undefined || chunk.lastKey === null) list.done = true;
    else list.after = { key: chunk.lastKey, id: lastId };
  }

  /** Runs `task` after the entry's earlier extensions; a failure drops the entry so the next request starts afresh. */
  async function underLock(entry: SeekEntry, seekKey: string, task: () => Promise<void>): Promise<void> {
    const work = entry.lock.then(task);
    entry.lock = work.catch(() => undefined);
    try {
      await work;
    } catch (error) {
      seeks.delete(seekKey);
      throw error;
    }
  }

  /**
   * A search is read whole (see readWhole), so the list itself gives TotalRows: one pass over the
   * GIN index instead of a count and then the list.
   */
  async function searchRows(request: ListPageRequest, key: string, seekKey: string, version: number): Promise<CountEntry> {
    const cached = counts.get(key);
    if (cached && cached.version === version) {
      stats.countHits++;
      return cached;
    }
    stats.countMisses++;
    let entry = seeks.get(seekKey);
    if (!entry || entry.version !== version) {
      entry = seekEntry(version, Number.POSITIVE_INFINITY);
      seeks.set(seekKey, entry);
    }
    const current = entry;
    await underLock(current, seekKey, async () => {
      if (!current.forward.done) await extend(request, current, current.forward, request.sort.sortType === 'asc');
    });
    current.total = current.forward.length;
    const counted = { version: current.version, total: current.total, at: current.at };
    counts.set(key, counted);
    counts.evict(() => counts.size > maxCountEntries);
    return counted;
  }

  /** The ids of rows [start, end) if the entry's seek lists hold them already. */
  function knownIds(entry: SeekEntry, total: number, start: number, end: number): number[] | undefined {
    const ids: number[] = [];
    if (entry.forward.length >= end || entry.forward.done) {
      for (let index = start; index < end; index++) ids.push(entry.forward.at(index));
      return ids;
    }
    // The backward list holds the rows from the last one backwards: row i is backward[total - 1 - i].
    if (entry.backward.length >= total - start || entry.backward.done) {
      for (let index = start; index < end; index++) ids.push(entry.backward.at(total - 1 - index));
      return ids;
    }
    return undefined;
  }

  /** The ids of rows [start, end) of the list, from its seek lists, reading chunks as needed. */
  async function pageIds(request: ListPageRequest, seekKey: string, version: number, total: number, start: number, end: number): Promise<number[] | undefined> {
    let entry = seeks.get(seekKey);
    if (!entry || entry.version !== version) {
      entry = seekEntry(version, total);
      seeks.set(seekKey, entry);
    }
    const current = entry;
    const covered = () => knownIds(current, total, start, end);

    const ready = covered();
    if (ready) {
      stats.seekHits++;
      return ready;
    }
    await underLock(current, seekKey, async () => {
      for (;;) {
        if (covered()) return;
        const forwardNeed = end - current.forward.length;
        const backwardNeed = total - start - current.backward.length;
        const useForward = forwardNeed <= backwardNeed;
        if (Math.min(forwardNeed, backwardNeed) > maxExtension && !readWhole(request, total)) return;
        const ascending = request.sort.sortType === 'asc' ? useForward : !useForward;
        await extend(request, current, useForward ? current.forward : current.backward, ascending, Math.min(forwardNeed, backwardNeed));
      }
    });
    seeks.evict(() => seekBytes() > maxSeekBytes);
    return covered();
  }

  /** A page far from both ends of a huge list: OFFSET on the sort index, not worth caching. */
  async function offsetIds(request: ListPageRequest, total: number, start: number, end: number): Promise<number[]> {
    stats.offsetFallbacks++;
    const plan = sortPlanFor(request.sort);
    const params = new Params();
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    // Walk from whichever end is nearer.
    const fromEnd = total - end < start;
    const ascending = (request.sort.sortType === 'asc') !== fromEnd;
    const { order } = orderAndSeek(plan, ascending, params, null);
    const offset = fromEnd ? total - end : start;
    // Not prepared (textRowsByText): prepared, the bench's deep pages of a filtered list took
    // 541-727 ms instead of 336-406 ms.
    const rows = await runner.textRows(
      `select id::text as page_id from applications where ${where} order by ${order} offset ${params.add(offset)} limit ${params.add(end - start)}`,
      params.values,
    );
    const ids = rows.map((row) => Number(row[0]));
    return fromEnd ? ids.reverse() : ids;
  }

  /**
   * Whether the reader is paging forward: on the first page, or on the page after the last one they
   * were given of this list. Only then do the next page's rows come along with a fetch: for a reader
   * jumping around, the database would read a page nobody asks for, while others wait for it.
   */
  function readsForward(request: ListPageRequest, seekKey: string): boolean {
    const { pageNo, rowsPerPage } = request.paging;
    const key = `${request.reader ?? ''}|${seekKey}`;
    const previous = lastPageRead.get(key);
    lastPageRead.set(key, pageNo);
    lastPageRead.evict(() => lastPageRead.size > maxReaderPages);
    // Not for long pages: they would double a fetch that is already the cost of the request.
    return rowsPerPage <= maxReadAheadRows && (pageNo === 1 || previous === pageNo - 1);
  }

  /** The ids of the page after `end`, if the list's seek lists know them. */
  function nextIds(seekKey: string, version: number, total: number, end: number, rowsPerPage: number): number[] {
    const entry = seeks.get(seekKey);
    return (entry?.version === version ? knownIds(entry, total, end, Math.min(end + rowsPerPage, total)) : undefined) ?? [];
  }

  async function attempt(request: ListPageRequest, key: string, seekKey: string, readAhead: boolean, optimistic: boolean): Promise<ListPage> {
    const { pageNo, rowsPerPage } = request.paging;
    const start = (pageNo - 1) * rowsPerPage;

    let version: number;
    let total: number;
    let ids: number[] | undefined;
    // A seek list knows its own version and TotalRows; a count alone serves a page past its end.
    const cachedCount = counts.get(key);
    const cachedSeek = seeks.get(seekKey);
    const believed =
      cachedSeek && Number.isFinite(cachedSeek.total) ? cachedSeek : cachedCount && start >= cachedCount.total ? cachedCount : undefined;
    if (optimistic && believed) {
      // The change feed (PGlite) tells for free when the caches are of an earlier version.
      const announced = (await changes)?.dataVersion(request.tenantId);
      if (announced !== undefined && announced !== believed.version) throw new StaleVersion(announced);
      // Believe the caches, and let the row fetch tell whether the data moved since.
      stats.countHits++;
      version = believed.version;
      total = believed.total;
      const end = Math.min(start + rowsPerPage, total);
      ids = start >= end ? [] : await pageIds(request, seekKey, version, total, start, end);
    } else {
      // Read at the version the count (or the search) saw, which may be newer than the one known.
      const known = await currentVersion(request.tenantId);
      const counted = request.filters.search.length > 0 ? await searchRows(request, key, seekKey, known) : await countRows(request, key, known);
      version = counted.version;
      total = counted.total;
      const end = Math.min(start + rowsPerPage, total);
      ids = start >= end ? [] : await pageIds(request, seekKey, version, total, start, end);
    }
    const end = Math.min(start + rowsPerPage, total);
    if (ids === undefined) ids = await offsetIds(request, total, start, end);
    const fetched = await listRows.rows(request.tenantId, ids, readAhead ? nextIds(seekKey, version, total, end, rowsPerPage) : []);
    if (fetched.version !== version) throw new StaleVersion(fetched.version);
    return { rows: fetched.rows, MaxPage: maxPage(total, rowsPerPage), TotalRows: total };
  }

  /**
   * Brings a list's seek entry from its version to the data's by re-placing only the rows the writes
   * since then changed (migrations 0022 and 0023) instead of counting and reading the list again:
   * a changed row leaves each seek list, and goes back into it right after the unchanged row it now
   * follows in the list's ORDER BY (one step back along the sort index) if it is listed now within
   * what that seek list has read; TotalRows moves by the changed rows listed now less those listed
   * before, which their old rows tell (the list's WHERE over what each row was). One statement
   * reads the changes, the version, the places and the delta, so they are of one snapshot. The
   * result is exactly the list at that version, as far as each seek list had read. False when a
   * change has no id (owners, visibility, a large statement), more than `maxCatchUpRows` rows
   * changed or the entry is further behind than the changes are kept: it is then read again.
   * Concurrent requests for one list share one catch-up; it waits for the entry's chunk reads.
   */
  function caughtUp(request: ListPageRequest, key: string, seekKey: string): Promise<boolean> {
    let pending = catchingUp.get(seekKey);
    if (!pending) {
      const seek = seeks.get(seekKey);
      pending = (async () => {
        if (!seek || !Number.isFinite(seek.total)) return false;
        let caught = false;
        await underLock(seek, seekKey, async () => {
          caught = seeks.get(seekKey) === seek && (await catchUp(request, key, seekKey, seek));
        });
        return caught;
      })().finally(() => catchingUp.delete(seekKey));
      catchingUp.set(seekKey, pending);
    }
    return pending;
  }

  async function catchUp(request: ListPageRequest, key: string, seekKey: string, seek: SeekEntry): Promise<boolean> {
    const plan = sortPlanFor(request.sort);
    const ascending = request.sort.sortType === 'asc';
    const sortKey = plan.idOnly ? 'id' : plan.key.sql;
    const params = new Params();
    const tenant = params.add(request.tenantId);
    const since = params.add(seek.version);
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    // Each seek list walks its own way (the backward one from the last row); once the forward one
    // holds the whole list, the backward one is of no more use.
    const walks = [{ list: seek.forward, ascending }, ...(seek.forward.done ? [] : [{ list: seek.backward, ascending: !ascending }])];
    const placements = walks.map(({ list, ascending: walksUp }) => {
      if (list.length === 0 && !list.done) return `''`;
      const direction = walksUp ? 'asc' : 'desc';
      // The unchanged row a changed one now follows in the walk (none: it comes first).
      const anchor =
        `(select id from applications where ${where} and not exists (select 1 from changed where changed.application_id = applications.id) ` +
        `and (${sortKey}, id) ${walksUp ? '<' : '>'} (placed.sort_value, placed.id) order by ${orderAndSeek(plan, !walksUp, params, null).order} limit 1)`;
      // Only the rows up to where the list has read: the next chunk reads those after.
      const read =
        list.done || !list.after
          ? ''
          : ` where (sort_value, id) ${walksUp ? '<=' : '>='} (${params.add(list.after.key)}::${plan.idOnly ? 'bigint' : plan.key.type}, ${params.add(list.after.id)}::bigint)`;
      return `(select string_agg(id::text || ':' || coalesce(${anchor}::text, ''), ',' order by sort_value ${direction}, id ${direction}) from placed${read})`;
    });
    // What each changed row was at the entry's version: the old row of its first change since (none: inserted since).
    const before = `(select distinct on (application_id) old_row from changed where application_id is not null order by application_id, version) as first_change`;
    // A list held whole gives its length as TotalRows: only one held in part needs the old rows.
    const whole = walks.some(({ list }) => list.done);
    const wasListed = whole
      ? 'null'
      : `(select count(*) from ${before}, jsonb_populate_record(null::applications, first_change.old_row) as applications where first_change.old_row is not null and ${where})::text`;
    const [row] = await runner.textRowsByText(
      `with changed as (select version, application_id, old_row from application_list_changes where tenant_id = ${tenant} and version > ${since}), ` +
        `placed as materialized (select id, ${sortKey} as sort_value from applications where ${where} and id in (select application_id from changed) ` +
        `and (select count(distinct application_id) from changed) <= ${params.add(maxCatchUpRows)}) ` +
        `select ${versionSql(tenant)}::text, ${changeColumns(`changed where version > ${since}`)}, (select count(*) from placed)::text, ${wasListed}, ` +
        placements.join(', '),
      params.values,
    );
    const version = Number(row?.[0] ?? 0);
    if (version === seek.version) return true;
    const changed = namedChanges(row?.slice(1, 4) ?? [], version - seek.version);
    // The same bound as the statement's (distinct ids): past it, nothing was placed.
    if (!changed || changed.size > maxCatchUpRows) return false;
    // The kept rows are carried forward too, if they are of the entry's version or later.
    listRows.advance(request.tenantId, seek.version, version, changed);

    const [forward, backward = new IdList()] = walks.map(({ list }, index) => replaced(list, changed, row?.[6 + index] ?? ''));
    if (!forward || !backward) return false;
    const total = whole ? Math.max(forward.length, backward.length) : seek.total + Number(row?.[4] ?? 0) - Number(row?.[5] ?? 0);
    Object.assign(seek, { version, newestChunk: version, total, at: Date.now(), forward, backward });
    const count = counts.get(key);
    if (!count || count.version < version) counts.set(key, { version, total, at: Date.now() });
    stats.catchUps++;
    return true;
  }

  /**
   * Under a stream of writes: the page as the caches of an earlier version place it, with its rows
   * read now and re-checked in the same statement against the list's WHERE (tenant, scope, filters)
   * and ORDER BY. Served only if every row still belongs there, in that order, so a row a write
   * moved out of the list, or along it, never shows where its new values do not belong; what the
   * caches cannot know yet (a row added since, a changed TotalRows) waits until they are caught up
   * (or read again), which starts in the background once they are `refreshAfterMs` old; a page
   * older than `maxStaleMs` is not served. Nor is one older than the reader's own last write. One
   * statement, where reading the list at the current version takes several, each waiting its turn
   * on a busy database. Undefined when there is no such page.
   */
  async function keptPage(request: ListPageRequest, key: string, seekKey: string, current: number, versionsBehind: number): Promise<ListPage | undefined> {
    const seek = seeks.get(seekKey);
    if (!seek || !Number.isFinite(seek.total) || current - seek.version < versionsBehind || Date.now() - seek.at > maxStaleMs) return undefined;
    if ((lastWriteBy.get(`${request.tenantId}|${request.reader ?? ''}`) ?? 0) >= seek.at) return undefined;
    const page = await recheckedPage(request, key, seekKey, seek);
    if (!page) return undefined;
    stats.keptPages++;
    if (Date.now() - seek.at >= refreshAfterMs && !refreshing.has(seekKey)) {
      stats.refreshes++;
      const refresh = caughtUp(request, key, seekKey)
        .then((caught) => (caught ? undefined : attempt(request, key, seekKey, false, false)))
        .catch(() => undefined)
        .finally(() => refreshing.delete(seekKey));
      refreshing.set(seekKey, refresh);
    }
    return page;
  }

  /**
   * The page as the seek entry places it, its rows re-checked (recheckedRows); a page past what its
   * seek lists hold is read into them first (a chunk of a newer version is kept: see extend).
   * Undefined if it cannot.
   */
  async function recheckedPage(request: ListPageRequest, key: string, seekKey: string, seek: SeekEntry): Promise<ListPage | undefined> {
    const { pageNo, rowsPerPage } = request.paging;
    const start = (pageNo - 1) * rowsPerPage;
    // The ids and TotalRows of one state of the entry (a catch-up moves it on in place).
    const slice = () => {
      const { total } = seek;
      if (seek.newestChunk > seek.version) return undefined;
      const end = Math.min(start + rowsPerPage, total);
      const ids = start >= end ? [] : knownIds(seek, total, start, end);
      return ids && { ids, total };
    };
    if (!slice() && seeks.get(seekKey) === seek) {
      // A chunk that cannot be kept (older than the entry) leaves no page here; the caller reads on.
      const read = await pageIds(request, seekKey, seek.version, seek.total, start, Math.min(start + rowsPerPage, seek.total)).catch((error: unknown) => {
        if (error instanceof StaleVersion) return undefined;
        throw error;
      });
      if (!read) return undefined;
      // A chunk of a newer version places rows as that version does: the entry is caught up to it.
      if (seek.newestChunk > seek.version && !(await caughtUp(request, key, seekKey))) return undefined;
    }
    // Read again: a catch-up may have moved the entry on while the chunks were read.
    const known = slice();
    if (!known) return undefined;
    const rows = known.ids.length === 0 ? [] : await recheckedRows(request, known.ids);
    return rows && { rows, MaxPage: maxPage(known.total, rowsPerPage), TotalRows: known.total };
  }

  /** The page as a seek entry of the announced version places it, if its rows are all kept (no trip); else undefined. */
  async function currentPage(request: ListPageRequest, seek: SeekEntry): Promise<ListPage | undefined> {
    const announced = (await changes)?.dataVersion(request.tenantId);
    // One state of the entry, read at once (a catch-up moves it on in place).
    const { version, total } = seek;
    if (announced !== version || seek.newestChunk > version) return undefined;
    const { pageNo, rowsPerPage } = request.paging;
    const start = (pageNo - 1) * rowsPerPage;
    const end = Math.min(start + rowsPerPage, total);
    const ids = start >= end ? [] : knownIds(seek, total, start, end);
    const rows = ids && (await listRows.kept(request.tenantId, version, ids));
    return rows && { rows, MaxPage: maxPage(total, rowsPerPage), TotalRows: total };
  }

  /** The rows of `ids` as of now if each still meets the list's WHERE, in the list's order; else undefined. */
  async function recheckedRows(request: ListPageRequest, ids: readonly number[]): Promise<string[] | undefined> {
    const params = new Params();
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    const { order } = orderAndSeek(sortPlanFor(request.sort), request.sort.sortType === 'asc', params, null);
    const still = `${where} and id = any(${params.add(pgArray(ids.map(String)))}::bigint[])`;
    const since = listRows.keptVersion(request.tenantId);
    const [row] = await runner.textRowsByText(
      `select (select string_agg(id::text, ',' order by ${order}) from applications where ${still}), ${rowsSql(still)}, ${keptRowsColumns('$1', params.add(since ?? null))}`,
      params.values,
    );
    if (row?.[0] !== ids.join(',')) return undefined;
    // Kept for the pages that come next, the rows kept before carried forward to their version.
    const rows = await listRows.absorb(request.tenantId, row.slice(1), since);
    return ids.map((id) => rows.get(id) ?? '');
  }

  /** Each tenant's number of listed applications, read again after a minute (smallTenant). */
  const tenantSizes = new Map<string, { rows: Promise<number>; at: number }>();

  /** Whether every list of the tenant can be read whole at once (wholePage): it lists at most `materializeMax` applications. */
  async function smallTenant(tenantId: string): Promise<boolean> {
    let known = tenantSizes.get(tenantId);
    if (!known || Date.now() - known.at > tenantSizeMaxAgeMs) {
      // Counted only up to the bound (a million-row tenant's whole count held the database for
      // seconds), over the listed rows' id index, once for all the requests that ask meanwhile
      // (twenty at once each counted a 20,000-row tenant in a quarter of a second by scanning the table).
      const rows = runner
        .preparedTextRows(
          'application_tenant_size',
          `select count(*)::text from (select 1 from applications where tenant_id = $1 and status <> 'Cancelled' limit $2) counted`,
          [tenantId, materializeMax + 1],
        )
        .then(([row]) => Number(row?.[0] ?? 0));
      known = { rows, at: Date.now() };
      tenantSizes.set(tenantId, known);
      rows.catch(() => tenantSizes.delete(tenantId));
    }
    return (await known.rows) <= materializeMax;
  }

  /**
   * A page of a small tenant's list (smallTenant) when its caches cannot answer: the whole list in
   * order, its version and the page's rows in one statement, where a count, a read of the list and
   * a row fetch take three trips, each waiting its turn on a busy database (and each likely to meet
   * another write). Exact at the version it read, and kept as the list's count and seek list.
   */
  async function wholePage(request: ListPageRequest, key: string, seekKey: string, readAhead: boolean): Promise<ListPage> {
    stats.wholePages++;
    const { pageNo, rowsPerPage } = request.paging;
    const plan = sortPlanFor(request.sort);
    const direction = request.sort.sortType === 'asc' ? 'asc' : 'desc';
    const params = new Params();
    const tenant = params.add(request.tenantId);
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    const order = `sort_value ${direction}, id ${direction}`;
    const [row] = await runner.textRowsByText(
      `with listed as materialized (select id, ${plan.idOnly ? 'id' : plan.key.sql} as sort_value from applications where ${where}), ` +
        `page as materialized (select id from listed order by ${order} offset ${params.add((pageNo - 1) * rowsPerPage)} limit ${params.add(readAhead ? 2 * rowsPerPage : rowsPerPage)}) ` +
        `select ${versionSql(tenant)}::text, (select string_agg(id::text, ',' order by ${order}) from listed), ${rowsSql('id in (select id from page)')}`,
      params.values,
    );
    const version = Number(row?.[0] ?? 0);
    const ids = row?.[1] ? row[1].split(',').map(Number) : [];
    const held = seeks.get(seekKey);
    if (!held || held.version < version) {
      const forward = new IdList();
      forward.push(ids);
      forward.done = true;
      seeks.set(seekKey, seekEntry(version, ids.length, forward));
      seeks.evict(() => seekBytes() > maxSeekBytes);
    }
    const count = counts.get(key);
    if (!count || count.version < version) {
      counts.set(key, { version, total: ids.length, at: Date.now() });
      counts.evict(() => counts.size > maxCountEntries);
    }
    // The page's rows (and the next page's, for a reader paging forward) are kept like fetched ones.
    const rows = await listRows.decode(request.tenantId, row?.[2] ?? null, version);
    const start = (pageNo - 1) * rowsPerPage;
    return { rows: ids.slice(start, start + rowsPerPage).map((id) => rows.get(id) ?? ''), MaxPage: maxPage(ids.length, rowsPerPage), TotalRows: ids.length };
  }

  /**
   * A page when the data keeps moving under the cached path: TotalRows, the page's ids and their
   * rows in one statement, so of one snapshot (PostgreSQL gives a statement one snapshot whatever
   * the isolation level; PGlite runs one statement at a time) and with the list's own WHERE: the
   * filters, the scope, the tenant. Nothing of it is cached: the caches stay with what was read at
   * one version through their own checks. It costs a count and an OFFSET walk of the sort index
   * from the front, like a cold page far from both ends of a huge list.
   */
  async function snapshotPage(request: ListPageRequest): Promise<ListPage> {
    stats.snapshotPages++;
    const { pageNo, rowsPerPage } = request.paging;
    const plan = sortPlanFor(request.sort);
    const direction = request.sort.sortType === 'asc' ? 'asc' : 'desc';
    const params = new Params();
    // The WHERE (tenant, scope, filters) serves the page and the count alike.
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    const { order } = orderAndSeek(plan, direction === 'asc', params, null);
    const [row] = await runner.textRowsByText(
      `with snapshot_page as materialized (` +
        `select id, ${plan.key.sql} as sort_value from applications where ${where} order by ${order} ` +
        `offset ${params.add((pageNo - 1) * rowsPerPage)} limit ${params.add(rowsPerPage)}) ` +
        `select (select count(*) from applications where ${where})::text, ` +
        `(select string_agg(id::text, ',' order by sort_value ${direction}, id ${direction}) from snapshot_page), ` +
        rowsSql('id in (select id from snapshot_page)'),
      params.values,
    );
    const total = Number(row?.[0] ?? 0);
    const ids = row?.[1] ? row[1].split(',').map(Number) : [];
    const rows = await listRows.decode(request.tenantId, row?.[2] ?? null);
    return { rows: ids.flatMap((id) => rows.get(id) ?? []), MaxPage: maxPage(total, rowsPerPage), TotalRows: total };
  }

  return {
    /** One page of a list with its TotalRows and MaxPage. */
    async page(request: ListPageRequest): Promise<ListPage> {
      stats.requests++;
      const key = `${request.tenantId}|${scopeKey(request.scope)}|${filtersKey(request.filters)}`;
      const seekKey = `${key}|${request.sort.sortBy}|${request.sort.sortType}`;
      const readAhead = readsForward(request, seekKey);
      const whole = await smallTenant(request.tenantId);
      let optimistic = true;
      for (let tries = 0; tries < cachedAttempts; tries++) {
        // Nothing cached to believe: a small tenant's list is read whole, page and all, at once.
        if (whole && (!optimistic || !seeks.get(seekKey))) return wholePage(request, key, seekKey, readAhead);
        try {
          return await attempt(request, key, seekKey, readAhead, optimistic);
        } catch (error) {
          if (!(error instanceof StaleVersion)) throw error;
          stats.staleRetries++;
          // After the first try, the data moved again while this request read it: a stream of writes,
          // whatever the number of versions behind.
          const kept = error.current === undefined ? undefined : await keptPage(request, key, seekKey, error.current, tries === 0 ? keptAfterVersions : 1);
          if (kept) return kept;
          // Caches brought up to the data's version are believed again; else the next try reads it.
          optimistic = await caughtUp(request, key, seekKey);
          const seek = seeks.get(seekKey);
          // Just caught up, they are no older than this reader's last write. Still of the version
          // the change feed announces, their page answers from the rows kept across the catch-up
          // if it holds them; else its rows are re-checked, where believing the caches would
          // likely meet yet another write.
          const caught = optimistic && seek ? ((await currentPage(request, seek)) ?? (await recheckedPage(request, key, seekKey, seek))) : undefined;
          if (caught) return caught;
        }
      }
      // Writes keep coming faster than the caches can be read at one version: read it all at once.
      return whole ? wholePage(request, key, seekKey, readAhead) : snapshotPage(request);
    },
    /** Someone's write has been answered: their next pages are read at the data's version (keptPage). */
    noteWrite(tenantId: string, userId: string) {
      lastWriteBy.set(`${tenantId}|${userId}`, Date.now());
      lastWriteBy.evict(() => lastWriteBy.size > maxReaderPages);
    },
    /** Resolves once the background reads started by kept pages have ended (tests). */
    async refreshed() {
      await Promise.all(refreshing.values());
    },
    /** The tenant's current data version (what every cache entry is checked against). */
    version: currentVersion,
    stats: () => ({
      ...stats,
      ...listRows.stats(),
      countEntries: counts.size,
      seekEntries: seeks.size,
      seekBytes: seekBytes(),
      maxSeekBytes,
    }),
    clear() {
      listRows.clear();
      seeks.evict(() => true);
      counts.evict(() => true);
    },
  };
}

export type ListEngine = ReturnType<typeof createListEngine>;

const engines = new WeakMap<Database, ListEngine>();

/** One engine (and so one cache) per database handle, shared by the list, export and admin routes. */
export function listEngineFor(db: Database): ListEngine {
  let engine = engines.get(db);
  if (!engine) {
    engine = createListEngine(db);
    engines.set(db, engine);
  }
  return engine;
}
