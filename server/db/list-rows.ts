import type { ApplicationListRow } from '../../src/schemas/applications.schema.ts';
import { Lru } from '../lru.ts';
import { pgArray, type SqlRunner } from './sql-runner.ts';
import type { ChangeFeed } from './change-feed.ts';
import { batchedReads } from './read-batches.ts';

/**
 * The rows of list pages, by id. A page of a warm list is a slice of ids (applications-list.ts); its
 * rows are the rest of the work. Rows read once are kept for the data version they were read at, so
 * a page whose rows are all known costs a version check (in memory on PGlite, see change-feed.ts)
 * instead of a fetch.
 *
 * A row is kept as its JSON text, which the database writes: the server never decodes a row into an
 * object only to encode it again (that was a quarter of the server's time on pages not yet kept).
 */

/** The tenant's data version: statement triggers bump it in the transaction of every write. */
export const versionSql = (tenantParam: string) =>
  `(select coalesce(max(version), 0) from application_data_versions where tenant_id = ${tenantParam})`;

/**
 * Of the changes `from` (rows of application_list_changes, migration 0022, with a condition): how
 * many versions, how many rows without an id, and the ids. namedChanges reads them.
 */
export const changeColumns = (from: string) =>
  `(select count(distinct version) from ${from})::text, (select count(*) from ${from} and application_id is null)::text, ` +
  `(select string_agg(distinct application_id::text, ',') from ${from})`;

/** A statement reads the changes since the kept rows' version up to this many versions back. */
const maxAdvanceVersions = 1000;

/**
 * The data version and the changes since version `sinceParam` (NULL: none asked), as columns of a
 * statement that reads rows: with them the rows kept for an earlier version are carried forward
 * (listRows.absorb) instead of dropped because the data moved on.
 */
export const keptRowsColumns = (tenantParam: string, sinceParam: string) =>
  `${versionSql(tenantParam)}::text, ` +
  changeColumns(
    `application_list_changes where tenant_id = ${tenantParam} and version > ${sinceParam}::bigint and version <= ${sinceParam}::bigint + ${maxAdvanceVersions}`,
  );

/** The ids changeColumns read, if each of the `versions` versions is there and names its ids. */
export function namedChanges([versionsThere, unnamed, ids]: readonly (string | null)[], versions: number): Set<number> | undefined {
  if (versions < 0 || Number(versionsThere ?? 0) !== versions || Number(unnamed ?? 0) !== 0) return undefined;
  return new Set((ids ?? '').split(',').filter(Boolean).map(Number));
}

/** How each list row field is read: its wire value as SQL (the list rows; the export's cells). */
type FieldReader = { json: string };
const text = (sql: string): FieldReader => ({ json: `coalesce(${sql}, '')` });
const int = (sql: string): FieldReader => ({ json: `coalesce(${sql}, 0)` });
const nullable = (sql: string): FieldReader => ({ json: sql });
const epoch = (sql: string) => `floor(date_part('epoch', ${sql}))::bigint`;

export const rowFieldReaders = {
  ApplicationID: int('id'),
  ApplicationGuid: text('guid::text'),
  AccountName: text('account_name'),
  PrimaryEmail: text('primary_email'),
  SubBrandName: text('sub_brand_name'),
  ExternalID: text('external_id'),
  AccountNumber: text('account_number'),
  DateCreatedTimestamp: int(epoch('date_created')),
  DateCompletedTimestamp: int(`coalesce(${epoch('date_completed')}, -1)`),
  LastDocumentUploadTimestamp: nullable(epoch('last_document_upload')),
  ApplicationType: text('application_type'),
  ShortApplicationType: text('short_application_type'),
  PromoCode: text('promo_code'),
  // numeric(14,2) as a double: JSON 250000, not 250000.00.
  InvestmentAmount: int('investment_amount::float8'),
  Language: text('language'),
  AdviserName: text('adviser_name'),
  ClientName: text('client_name'),
  LowDocStatus: text('low_doc_status'),
  DocumentCount: int('document_count'),
  UserUploadCount: int('user_upload_count'),
  ApplicationModeCode: text('application_mode_code'),
  Status: text('status'),
  PercentageComplete: int('percentage_complete'),
  AssigneeDisplayName: text('assignee_display_name'),
  Label: text('label'),
  SystemLabel: text('system_label'),
  AssigneeUserId: nullable('assignee_user_id'),
} satisfies Partial<Record<keyof ApplicationListRow, FieldReader>>;
type ScalarField = keyof typeof rowFieldReaders;
const scalarFields = Object.keys(rowFieldReaders) as ScalarField[];

/** Product codes, in the application's order, separated by US (codes are [A-Z0-9_]). */
const productCodesSql = 'array_to_string(product_codes, chr(31))';
const splitProductCodes = (value: string | null): string[] => (value ? value.split('\u001f') : []);

/** Code to display name; a code missing from the catalogue shows as itself. */
export type ProductCatalogue = ReadonlyMap<string, string>;

/** A row's JSON text without its products: the catalogue names them (below). */
const scalarJson = `row_to_json(wire)::text`;
const wireColumns = scalarFields.map((field) => `${rowFieldReaders[field].json} as "${field}"`).join(', ');

/**
 * The rows as one text: per row its id, its product codes and its JSON, separated by RS, rows by GS.
 * One field for the whole page, because PGlite decodes each field of a result in JavaScript; no
 * JSON can hold those separators (Postgres escapes every control character in JSON text).
 */
const rowsText =
  `string_agg(id::text || chr(30) || coalesce(${productCodesSql}, '') || chr(30) || ${scalarJson}, chr(29))` +
  ` from applications, lateral (select ${wireColumns}) as wire`;

/** The rows of `applications` meeting `condition` as that one text field (a scalar subquery); `decode` reads it. */
export const rowsSql = (condition: string) => `(select ${rowsText} where ${condition})`;

type ProductFields = Pick<ApplicationListRow, 'ProductDisplayNameList' | 'ProductDictionary'>;

/** The product fields of a row as JSON members, made once per set of codes and catalogue. */
const productJsonByCatalogue = new WeakMap<ProductCatalogue, (codes: string) => string>();
function productJsonOf(catalogue: ProductCatalogue): (codes: string) => string {
  const known = productJsonByCatalogue.get(catalogue);
  if (known) return known;
  const made = new Map<string, string>();
  const productJson = (codes: string) => {
    let members = made.get(codes);
    if (members === undefined) {
      const list = splitProductCodes(codes);
      const names = list.map((code) => catalogue.get(code) ?? code);
      const fields: ProductFields = {
        ProductDisplayNameList: names,
        ProductDictionary: list.map((code, index) => ({ Name: names[index] ?? code, Value: code })),
      };
      members = `,${JSON.stringify(fields).slice(1, -1)}`;
      made.set(codes, members);
    }
    return members;
  };
  productJsonByCatalogue.set(catalogue, productJson);
  return productJson;
}

/** One page of a list: its rows as JSON texts, in order. */
export interface ListPage {
  rows: readonly string[];
  MaxPage: number;
  TotalRows: number;
}

/** The list response as JSON text (the list routes' serializer). */
export const listPageJson = (page: ListPage): string =>
  `{"Applications":[${page.rows.join(',')}],"MaxPage":${page.MaxPage},"TotalRows":${page.TotalRows}}`;

export interface ListRowOptions {
  /** How long a tenant's product catalogue (code to name) is reused; products change only by seeding. */
  catalogueMaxAgeMs?: number;
  /** Rows kept per server instance (about 2 KB each with their JSON text). */
  maxCachedRows?: number;
}

interface FetchedRows {
  version: number;
  /** Row JSON texts by id. */
  rows: ReadonlyMap<number, string>;
  /** The ids changed since the version the fetch was asked from, if all of them are named. */
  changed?: { since: number; ids: ReadonlySet<number> };
}

interface TenantRows {
  version: number;
  catalogue: ProductCatalogue;
  rows: Lru<string, number>;
  /** Rows being fetched, by id: a request that needs one waits for that fetch instead of starting another. */
  fetching: Map<number, Promise<FetchedRows>>;
}

const sameCatalogue = (a: ProductCatalogue, b: ProductCatalogue) =>
  a.size === b.size && [...a].every(([code, name]) => b.get(code) === name);

export function createListRows(runner: SqlRunner, changes: Promise<ChangeFeed | undefined>, options: ListRowOptions = {}) {
  const catalogueMaxAgeMs = options.catalogueMaxAgeMs ?? 30_000;
  const maxCachedRows = options.maxCachedRows ?? 25_000;
  const catalogues = new Map<string, { at: number; catalogue: Promise<ProductCatalogue> }>();
  const cached = new Map<string, TenantRows>();
  const stats = { rowHits: 0, rowMisses: 0, rowFetches: 0, rowAdvances: 0 };

  function catalogueOf(tenantId: string): Promise<ProductCatalogue> {
    const known = catalogues.get(tenantId);
    if (known && Date.now() - known.at < catalogueMaxAgeMs) return known.catalogue;
    const catalogue = runner
      .textRows('select code, name from products where tenant_id = $1', [tenantId])
      .then(async (rows) => {
        const fresh: ProductCatalogue = new Map(rows.map(([code, name]) => [code ?? '', name ?? '']));
        // An unchanged catalogue stays the same object, so the rows cached with it stay valid.
        const previous = known ? await known.catalogue.catch(() => undefined) : undefined;
        return previous && sameCatalogue(previous, fresh) ? previous : fresh;
      });
    catalogues.set(tenantId, { at: Date.now(), catalogue });
    catalogue.catch(() => catalogues.delete(tenantId));
    return catalogue;
  }

  /**
   * Versions read from the database, for the requests that ask together in one statement: on
   * PostgreSQL (no change feed) every page asks, and twenty clients paging at once made twenty
   * statements where the pages themselves needed none. Each read leaves after the requests in it
   * asked (read-batches.ts), so none is answered with a version older than its own start.
   */
  const readVersions = batchedReads<string, number>(async (tenantIds) => {
    const rows = await runner.preparedTextRows(
      'application_data_versions',
      `select tenant.id, ${versionSql('tenant.id')}::text from unnest($1::text[]) as tenant(id)`,
      [pgArray(tenantIds)],
    );
    return new Map(rows.map(([tenantId, version]) => [tenantId ?? '', Number(version ?? 0)]));
  });

  /** The tenant's data version: from the change feed where there is one, else from the database. */
  async function currentVersion(tenantId: string): Promise<number> {
    const feed = await changes;
    const announced = feed?.dataVersion(tenantId);
    if (announced !== undefined) return announced;
    const version = (await readVersions(tenantId)) ?? 0;
    feed?.noteDataVersion(tenantId, version);
    return version;
  }

  /**
   * Reads rows by id with the version they were read at and, if `since` is given, the ids the
   * versions after it changed: the rows kept at `since` are then carried forward (advance), not
   * all dropped because the data moved on.
   */
  async function fetchRows(tenantId: string, ids: readonly number[], catalogue: ProductCatalogue, since?: number): Promise<FetchedRows> {
    stats.rowFetches++;
    const [result] = await runner.preparedTextRows(
      'application_list_rows',
      `select ${rowsSql('tenant_id = $1::text and id = any($2::bigint[])')}, ${keptRowsColumns('$1', '$3')}`,
      [tenantId, `{${ids.join(',')}}`, since ?? null],
    );
    return fetched(result ?? [], catalogue, since);
  }

  /** The rows field and keptRowsColumns of a statement, read. */
  function fetched([rowsField = null, versionField = null, ...changeFields]: readonly (string | null)[], catalogue: ProductCatalogue, since?: number): FetchedRows {
    const version = Number(versionField ?? 0);
    const rows = decodeRows(rowsField, catalogue);
    const changed = since === undefined ? undefined : namedChanges(changeFields, version - since);
    if (since === undefined || !changed) return { version, rows };
    return { version, rows, changed: { since, ids: changed } };
  }

  /**
   * Carries the kept rows forward to version `to` given the ids changed since `since` (at most
   * their version: the changes then cover every version in between); the others are as they were.
   * Under a stream of writes the rows were otherwise all fetched again after each one.
   */
  function advance(tenant: TenantRows, since: number, to: number, changed: Iterable<number>) {
    if (since > tenant.version || to <= tenant.version) return;
    for (const id of changed) tenant.rows.delete(id);
    tenant.version = to;
    stats.rowAdvances++;
  }

  /** The rows of a fetch are kept (after carrying the kept ones forward to its version if it can). */
  function keep(tenant: TenantRows, fetched: FetchedRows) {
    if (fetched.changed) advance(tenant, fetched.changed.since, fetched.version, fetched.changed.ids);
    if (fetched.version === tenant.version) remember(tenant, fetched.rows);
  }

  /** The same for the tenant's rows: those kept start afresh from these when they cannot be carried forward to them. */
  function keepForTenant(tenantId: string, catalogue: ProductCatalogue, fetched: FetchedRows) {
    const held = cached.get(tenantId);
    if (held?.catalogue === catalogue && fetched.changed) keep(held, fetched);
    if (!held || held.catalogue !== catalogue || held.version < fetched.version) remember(cacheFor(tenantId, fetched.version, catalogue), fetched.rows);
  }

  /** Row JSON texts by id from a `rowsSql` field, with the catalogue's product names. */
  function decodeRows(field: string | null, catalogue: ProductCatalogue): Map<number, string> {
    const productJson = productJsonOf(catalogue);
    const rows = new Map<number, string>();
    for (const record of field ? field.split('\u001d') : []) {
      const [id = '', codes = '', json = '{}'] = record.split('\u001e');
      rows.set(Number(id), `${json.slice(0, -1)}${productJson(codes)}}`);
    }
    return rows;
  }

  /** The tenant's cache, started afresh when the data or the catalogue moved on. */
  function cacheFor(tenantId: string, version: number, catalogue: ProductCatalogue): TenantRows {
    let tenant = cached.get(tenantId);
    if (!tenant || tenant.version !== version || tenant.catalogue !== catalogue) {
      tenant = { version, catalogue, rows: new Lru(), fetching: new Map() };
      cached.set(tenantId, tenant);
    }
    return tenant;
  }

  function remember(tenant: TenantRows, rows: ReadonlyMap<number, string>) {
    for (const [id, row] of rows) tenant.rows.set(id, row);
    tenant.rows.evict(() => tenant.rows.size > maxCachedRows);
  }

  /** Fetches `missing` and those of `readAhead` neither kept nor being fetched, and keeps them if still current. */
  function fetchInto(tenant: TenantRows, tenantId: string, missing: readonly number[], readAhead: readonly number[]): Promise<FetchedRows> {
    const wanted = new Set(missing);
    for (const id of readAhead) if (!tenant.fetching.has(id) && tenant.rows.get(id) === undefined) wanted.add(id);
    const fetch = fetchRows(tenantId, [...wanted], tenant.catalogue, tenant.version).then((fetched) => {
      keep(tenant, fetched);
      return fetched;
    });
    for (const id of wanted) tenant.fetching.set(id, fetch);
    const done = () => {
      for (const id of wanted) if (tenant.fetching.get(id) === fetch) tenant.fetching.delete(id);
    };
    fetch.then(done, done);
    return fetch;
  }

  const inOrder = (ids: readonly number[], rowOf: (id: number) => string | undefined) => ids.flatMap((id) => rowOf(id) ?? []);

  return {
    currentVersion,
    /**
     * Row JSON texts by id from a `rowsSql` field that the caller's own statement selected (see
     * snapshotPage in applications-list.ts). They are kept only when the caller says which data
     * version its statement read them at (`keepAt`), and none newer is kept yet.
     */
    async decode(tenantId: string, field: string | null, keepAt?: number): Promise<ReadonlyMap<number, string>> {
      const catalogue = await catalogueOf(tenantId);
      const rows = decodeRows(field, catalogue);
      const held = cached.get(tenantId);
      if (keepAt !== undefined && (!held || held.version <= keepAt)) remember(cacheFor(tenantId, keepAt, catalogue), rows);
      return rows;
    },
    /**
     * The rows of `ids` in that order (ids no longer listed drop out) and the data version they
     * belong to: the caller compares it with the version its ids were read at. When rows must be
     * fetched, those of `readAhead` not yet kept come in the same query.
     */
    async rows(tenantId: string, ids: readonly number[], readAhead: readonly number[] = []): Promise<{ version: number; rows: string[] }> {
      const catalogue = await catalogueOf(tenantId);
      const tenant = cached.get(tenantId);
      if (tenant && tenant.catalogue === catalogue) {
        const known = new Map<number, string>();
        const waits = new Set<Promise<FetchedRows>>();
        const missing: number[] = [];
        for (const id of ids) {
          const row = tenant.rows.get(id);
          const fetching = row === undefined ? tenant.fetching.get(id) : undefined;
          if (row !== undefined) known.set(id, row);
          else if (fetching) waits.add(fetching);
          else missing.push(id);
        }
        stats.rowHits += known.size;
        stats.rowMisses += ids.length - known.size;
        if (missing.length === 0 && waits.size === 0) {
          const version = await currentVersion(tenantId);
          if (version === tenant.version) return { version, rows: inOrder(ids, (id) => known.get(id)) };
        } else {
          if (missing.length > 0) waits.add(fetchInto(tenant, tenantId, missing, readAhead));
          const fetched = await Promise.all(waits);
          if (fetched.every((result) => result.version === tenant.version)) {
            // The kept rows are read again: carried forward by a fetch, they lost those the writes changed.
            const rowOf = (id: number) => tenant.rows.get(id) ?? fetched.find((result) => result.rows.has(id))?.rows.get(id);
            if (ids.every((id) => rowOf(id) !== undefined)) return { version: tenant.version, rows: inOrder(ids, rowOf) };
          }
        }
      } else {
        stats.rowMisses += ids.length;
      }
      // No rows kept for this tenant yet, or of another version: this page's are read, with the
      // changes since the kept ones' version to carry them forward; failing that, they start afresh.
      const since = tenant?.catalogue === catalogue ? tenant.version : undefined;
      const fetched = await fetchRows(tenantId, [...new Set([...ids, ...readAhead])], catalogue, since);
      keepForTenant(tenantId, catalogue, fetched);
      return { version: fetched.version, rows: inOrder(ids, (id) => fetched.rows.get(id)) };
    },
    /** The version the tenant's rows are kept for (undefined: none): a statement's keptRowsColumns start there. */
    keptVersion: (tenantId: string): number | undefined => cached.get(tenantId)?.version,
    /**
     * Row JSON texts by id from a `rowsSql` field and keptRowsColumns (from the kept version,
     * `since`) that the caller's own statement selected: the kept rows are carried forward to its
     * version and these kept beside them.
     */
    async absorb(tenantId: string, fields: readonly (string | null)[], since: number | undefined): Promise<ReadonlyMap<number, string>> {
      const catalogue = await catalogueOf(tenantId);
      const read = fetched(fields, catalogue, since);
      keepForTenant(tenantId, catalogue, read);
      return read.rows;
    },
    /** The rows of `ids` in that order if all are kept for data version `version`; else undefined. */
    async kept(tenantId: string, version: number, ids: readonly number[]): Promise<string[] | undefined> {
      const catalogue = await catalogueOf(tenantId);
      const tenant = cached.get(tenantId);
      if (tenant?.version !== version || tenant.catalogue !== catalogue) return undefined;
      const rows = ids.map((id) => tenant.rows.get(id));
      if (!rows.every((row) => row !== undefined)) return undefined;
      stats.rowHits += rows.length;
      return rows;
    },
    /** Carries the tenant's kept rows to version `to`, given the ids changed since `since` (see advance). */
    advance(tenantId: string, since: number, to: number, changed: Iterable<number>) {
      const tenant = cached.get(tenantId);
      if (tenant) advance(tenant, since, to, changed);
    },
    stats: () => ({ ...stats, cachedRows: [...cached.values()].reduce((sum, tenant) => sum + tenant.rows.size, 0) }),
    clear() {
      cached.clear();
    },
  };
}

export type ListRows = ReturnType<typeof createListRows>;
