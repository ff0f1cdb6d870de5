import type { ApplicationListResponse, ApplicationListRow } from '../../src/schemas/applications.schema.ts';
import { Lru } from '../lru.ts';
import type { SqlRunner } from './sql-runner.ts';
import type { ChangeFeed } from './change-feed.ts';

/**
 * The rows of list pages, by id. A page of a warm list is a slice of ids (applications-list.ts); its
 * rows are the rest of the work. Rows read once are kept for the data version they were read at, so
 * a page whose rows are all known costs a version check (in memory on PGlite, see change-feed.ts)
 * instead of a fetch and a decode.
 */

/** The tenant's data version: statement triggers bump it in the transaction of every write. */
export const versionSql = (tenantParam: string) =>
  `(select coalesce(max(version), 0) from application_data_versions where tenant_id = ${tenantParam})`;

/** How each list row field is read, as text, and turned back into its wire value. */
type FieldReader = { sql: string; parse: (text: string | null) => string | number | null };
const text = (sql: string): FieldReader => ({ sql, parse: (value) => value ?? '' });
const int = (sql: string): FieldReader => ({ sql: `(${sql})::text`, parse: (value) => (value === null ? 0 : Number(value)) });
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
  LastDocumentUploadTimestamp: { sql: `${epoch('last_document_upload')}::text`, parse: (value) => (value === null ? null : Number(value)) },
  ApplicationType: text('application_type'),
  ShortApplicationType: text('short_application_type'),
  PromoCode: text('promo_code'),
  InvestmentAmount: int('investment_amount'),
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
  AssigneeUserId: { sql: 'assignee_user_id::text', parse: (value) => value },
} satisfies Partial<Record<keyof ApplicationListRow, FieldReader>>;
type ScalarField = keyof typeof rowFieldReaders;
const scalarFields = Object.keys(rowFieldReaders) as ScalarField[];

/** Product codes, in the application's order, separated by US (codes are [A-Z0-9_]). */
export const productCodesSql = 'array_to_string(product_codes, chr(31))';
export const splitProductCodes = (value: string | null): string[] => (value ? value.split('\u001f') : []);

/** Code to display name; a code missing from the catalogue shows as itself. */
export type ProductCatalogue = ReadonlyMap<string, string>;

function productFields(codes: readonly string[], catalogue: ProductCatalogue): Pick<ApplicationListRow, 'ProductDisplayNameList' | 'ProductDictionary'> {
  const names = codes.map((code) => catalogue.get(code) ?? code);
  return {
    ProductDisplayNameList: names,
    ProductDictionary: codes.map((code, index) => ({ Name: names[index] ?? code, Value: code })),
  };
}

/** Builds a wire row from the text cells of `rowJson` (in `scalarFields` order, products last). */
function rowFromText(cells: readonly (string | null)[], catalogue: ProductCatalogue): ApplicationListRow {
  const row: Record<string, unknown> = {};
  scalarFields.forEach((field, index) => {
    row[field] = rowFieldReaders[field].parse(cells[index] ?? null);
  });
  const codes = splitProductCodes(cells[scalarFields.length] ?? null);
  return { ...(row as Omit<ApplicationListRow, 'ProductDisplayNameList' | 'ProductDictionary'>), ...productFields(codes, catalogue) };
}

/**
 * The rows fetched as one JSON text (an array of arrays of text): PGlite decodes each field of a
 * result row separately in JavaScript, so one field for the whole page halves the cost of a page.
 */
const rowJson = `json_agg(json_build_array(${[...scalarFields.map((field) => rowFieldReaders[field].sql), productCodesSql].join(', ')}))::text`;
const isTextCells = (value: unknown): value is (string | null)[] =>
  Array.isArray(value) && value.every((cell) => cell === null || typeof cell === 'string');

/** Rows are never changed once read, so each one kept is turned into JSON text once. */
const rowText = new WeakMap<ApplicationListRow, string>();

/** The list response as JSON text (the list routes' serializer). */
export function listResponseJson(page: ApplicationListResponse): string {
  const rows = page.Applications.map((row) => {
    let text = rowText.get(row);
    if (text === undefined) {
      text = JSON.stringify(row);
      rowText.set(row, text);
    }
    return text;
  });
  return `{"Applications":[${rows.join(',')}],"MaxPage":${page.MaxPage},"TotalRows":${page.TotalRows}}`;
}

export interface ListRowOptions {
  /** How long a tenant's product catalogue (code to name) is reused; products change only by seeding. */
  catalogueMaxAgeMs?: number;
  /** Rows kept per server instance (about 2 KB each with their JSON text). */
  maxCachedRows?: number;
}

interface TenantRows {
  version: number;
  catalogue: ProductCatalogue;
  rows: Lru<ApplicationListRow, number>;
}

const sameCatalogue = (a: ProductCatalogue, b: ProductCatalogue) =>
  a.size === b.size && [...a].every(([code, name]) => b.get(code) === name);

export function createListRows(runner: SqlRunner, changes: Promise<ChangeFeed | undefined>, options: ListRowOptions = {}) {
  const catalogueMaxAgeMs = options.catalogueMaxAgeMs ?? 30_000;
  const maxCachedRows = options.maxCachedRows ?? 25_000;
  const catalogues = new Map<string, { at: number; catalogue: Promise<ProductCatalogue> }>();
  const cached = new Map<string, TenantRows>();
  const stats = { rowHits: 0, rowMisses: 0 };

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

  /** The tenant's data version: from the change feed where there is one, else from the database. */
  async function currentVersion(tenantId: string): Promise<number> {
    const feed = await changes;
    const announced = feed?.dataVersion(tenantId);
    if (announced !== undefined) return announced;
    const [row] = await runner.preparedTextRows('application_data_version', `select ${versionSql('$1')}::text`, [tenantId]);
    const version = Number(row?.[0] ?? 0);
    feed?.noteDataVersion(tenantId, version);
    return version;
  }

  /** Reads rows by id with the version they were read at. */
  async function fetchRows(tenantId: string, ids: readonly number[], catalogue: ProductCatalogue) {
    const [result] = await runner.preparedTextRows(
      'application_list_rows',
      `select ${versionSql('$1')}::text, (select ${rowJson} from applications where tenant_id = $1::text and id = any($2::bigint[]))`,
      [tenantId, `{${ids.join(',')}}`],
    );
    const parsed: unknown = result?.[1] ? JSON.parse(result[1]) : [];
    const rows = new Map<number, ApplicationListRow>();
    for (const cells of Array.isArray(parsed) ? parsed : []) {
      if (!isTextCells(cells)) continue;
      const row = rowFromText(cells, catalogue);
      rows.set(row.ApplicationID, row);
    }
    return { version: Number(result?.[0] ?? 0), rows };
  }

  /** The tenant's cache, started afresh when the data or the catalogue moved on. */
  function cacheFor(tenantId: string, version: number, catalogue: ProductCatalogue): TenantRows {
    let tenant = cached.get(tenantId);
    if (!tenant || tenant.version !== version || tenant.catalogue !== catalogue) {
      tenant = { version, catalogue, rows: new Lru() };
      cached.set(tenantId, tenant);
    }
    return tenant;
  }

  function remember(tenant: TenantRows, rows: ReadonlyMap<number, ApplicationListRow>) {
    for (const [id, row] of rows) tenant.rows.set(id, row);
    tenant.rows.evict(() => tenant.rows.size > maxCachedRows);
  }

  const inOrder = (ids: readonly number[], rowOf: (id: number) => ApplicationListRow | undefined) => ids.flatMap((id) => rowOf(id) ?? []);

  return {
    currentVersion,
    /**
     * The rows of `ids` in that order (ids no longer listed drop out) and the data version they
     * belong to: the caller compares it with the version its ids were read at. When rows must be
     * fetched, those of `readAhead` not yet kept come in the same query.
     */
    async rows(tenantId: string, ids: readonly number[], readAhead: readonly number[] = []): Promise<{ version: number; rows: ApplicationListRow[] }> {
      const catalogue = await catalogueOf(tenantId);
      const tenant = cached.get(tenantId);
      if (tenant && tenant.catalogue === catalogue) {
        const known = new Map<number, ApplicationListRow>();
        for (const id of ids) {
          const row = tenant.rows.get(id);
          if (row !== undefined) known.set(id, row);
        }
        const missing = ids.filter((id) => !known.has(id));
        stats.rowHits += known.size;
        stats.rowMisses += missing.length;
        if (missing.length === 0) {
          const version = await currentVersion(tenantId);
          if (version === tenant.version) return { version, rows: inOrder(ids, (id) => known.get(id)) };
        } else {
          const fetched = await fetchRows(tenantId, [...missing, ...readAhead.filter((id) => tenant.rows.get(id) === undefined)], catalogue);
          if (fetched.version === tenant.version) {
            remember(tenant, fetched.rows);
            return { version: fetched.version, rows: inOrder(ids, (id) => known.get(id) ?? fetched.rows.get(id)) };
          }
        }
      } else {
        stats.rowMisses += ids.length;
      }
      // No cache for this tenant yet, or it holds an older version: start it from this page.
      const fetched = await fetchRows(tenantId, [...ids, ...readAhead], catalogue);
      remember(cacheFor(tenantId, fetched.version, catalogue), fetched.rows);
      return { version: fetched.version, rows: inOrder(ids, (id) => fetched.rows.get(id)) };
    },
    stats: () => ({ ...stats, cachedRows: [...cached.values()].reduce((sum, tenant) => sum + tenant.rows.size, 0) }),
    clear() {
      cached.clear();
    },
  };
}

export type ListRows = ReturnType<typeof createListRows>;
