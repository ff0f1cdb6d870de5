import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { columnField, signingModeLabel, type DataColumnName } from '../../src/domain/list-columns.ts';
import { csvRecord } from '../../src/domain/list-csv.ts';
import type { ListFilters, ListSort } from '../../src/domain/list-request.ts';
import type { Database } from './client.ts';
import { applicationSortKeys } from './schema.ts';
import { listWhere, Params, type ListScope } from './applications-list.ts';
import { rowFieldReaders } from './list-rows.ts';
import { quoteLiteral, sqlRunner, unescapeCopyText } from './sql-runner.ts';
import { csvOfCopyLines } from './copy-text-csv.ts';
import { productOptions } from './applications-store.ts';

const utf8 = new TextDecoder();
const newline = 0x0a;

export interface ExportRequest {
  tenantId: string;
  scope: ListScope;
  filters: ListFilters;
  sort: ListSort;
  /** The tenant's visible data columns, in list order. */
  columns: readonly DataColumnName[];
}

export interface ExportOptions {
  /** Rows per query (default: batchSizes by database). */
  batchSize?: number;
  /** Rows written between two yields to the event loop. */
  sliceSize?: number;
}

/**
 * Rows per query. PGlite has one connection: a list request waiting behind a batch of 2,500 is
 * served within ~50 ms. A PostgreSQL batch holds one of the pool's connections, and each costs a
 * plan (1–3 ms on a table with this many indexes): 20,000 rows a batch export the million rows in
 * 1.9 s against 2.5–3.4 s with 2,500. The two batches held at a time stay a few MiB either way.
 */
const batchSizes = { pglite: 2_500, postgres: 20_000 };

/** A date cell: ISO 8601 in UTC to the whole second; empty for none and before 1970 ("never", AM §3). */
const isoDateSql = (column: string) =>
  `case when ${column} >= '1970-01-01T00:00:00Z' then to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') else '' end`;

/**
 * The text of a column's cell, before CSV escaping, as the database writes it. The rows then come
 * as COPY text, and most lines become CSV records by writing commas for tabs (copy-text-csv.ts):
 * no JavaScript string is made per cell. Reading each cell and formatting it in JavaScript took
 * 5.1 s of the server's CPU in the 5.3 s export of the million rows on PostgreSQL (issue 40).
 * `catalogue` is the SQL of the tenant's product names by code (jsonb).
 */
function cellTextSql(column: DataColumnName, catalogue: string): string {
  const field = columnField[column];
  switch (field) {
    case 'DateCreatedTimestamp':
      return isoDateSql('date_created');
    case 'DateCompletedTimestamp':
      return isoDateSql('date_completed');
    case 'LastDocumentUploadTimestamp':
      return isoDateSql('last_document_upload');
    case 'ApplicationModeCode':
      // AM §4: the code Pin shows as Online, any other code as Print & Sign.
      return `case when application_mode_code = 'Pin' then ${quoteLiteral(signingModeLabel('Pin'))} else ${quoteLiteral(signingModeLabel(''))} end`;
    case 'ProductDisplayNameList':
      // By name in the application's order; a code missing from the catalogue shows as itself.
      return `coalesce((select string_agg(coalesce(${catalogue} ->> code, code), ', ' order by n) from unnest(product_codes) with ordinality as product(code, n)), '')`;
    default:
      return `(${rowFieldReaders[field].json})::text`;
  }
}

/**
 * The list as CSV (RFC 4180, formula cells neutralised), in the list's order, as a stream of
 * chunks. It walks the sort index in keyset batches: memory stays at two batches whatever the size
 * (one being formatted, the next being read), and other requests' queries run between batches
 * instead of waiting for one long query.
 */
export async function* exportApplicationsCsv(db: Database, request: ExportRequest, options: ExportOptions = {}): AsyncGenerator<string | Buffer> {
  const runner = sqlRunner(db);
  const batchSize = options.batchSize ?? batchSizes[runner.kind];
  const sliceSize = options.sliceSize ?? 500;
  const key = applicationSortKeys[columnField[request.sort.sortBy]];
  const idOnly = key.sql === 'id';
  const ascending = request.sort.sortType === 'asc';
  const direction = ascending ? 'asc' : 'desc';
  const comparison = ascending ? '>' : '<';
  const order = idOnly ? `id ${direction}` : `${key.sql} ${direction}, id ${direction}`;
  const catalogue = request.columns.includes('Products')
    ? Object.fromEntries((await productOptions(db, request.tenantId)).map((option) => [option.Value, option.Name]))
    : {};
  // COPY takes no parameters (the runner writes them in as literals): the catalogue is one already.
  const catalogueSql = `${quoteLiteral(JSON.stringify(catalogue))}::jsonb`;
  // Output columns get neutral names: ORDER BY must see the table's columns, not text copies of them.
  const select = [`(${key.sql})::text`, 'id::text', ...request.columns.map((column) => cellTextSql(column, catalogueSql))]
    .map((expression, index) => `${expression} as c${index}`)
    .join(', ');

  /** The batch after `after` (from the start when null): per row its sort key, its id, then its cells. */
  const batchAfter = (after: { key: string; id: string } | null) => {
    const params = new Params();
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    let seek = '';
    if (after) {
      seek = idOnly
        ? ` and id ${comparison} ${params.add(after.id)}::bigint`
        : ` and (${key.sql}, id) ${comparison} (${params.add(after.key)}::${key.type}, ${params.add(after.id)}::bigint)`;
    }
    const batch = runner.copyText(`select ${select} from applications where ${where}${seek} order by ${order} limit ${params.add(batchSize)}`, params.values);
    // Handled here too: if the download stops early, nobody awaits the batch read ahead.
    batch.catch(() => undefined);
    return batch;
  };

  let next = batchAfter(null);
  // The header waits for the first batch, so that a query that fails does so before the first chunk.
  await next;
  yield csvRecord(request.columns);
  for (;;) {
    const bytes = await next;
    const ends: number[] = [];
    for (let end = bytes.indexOf(newline); end !== -1; end = bytes.indexOf(newline, end + 1)) ends.push(end);
    const more = ends.length === batchSize;
    if (more) {
      // The next batch is read (by the database) while this one is written.
      const [lastKey, lastId] = utf8.decode(bytes.subarray((ends.at(-2) ?? -1) + 1, ends.at(-1))).split('\t');
      next = batchAfter({ key: unescapeCopyText(lastKey ?? '') ?? '', id: lastId ?? '0' });
    }
    for (let first = 0; first < ends.length; first += sliceSize) {
      // Writing runs on the event loop too: hand it back every slice so list requests get in.
      if (first > 0) await yieldToEventLoop();
      const from = first === 0 ? 0 : (ends[first - 1] ?? 0) + 1;
      yield csvOfCopyLines(bytes, from, ends[Math.min(first + sliceSize, ends.length) - 1] ?? from, 2);
    }
    if (!more) return;
    await yieldToEventLoop();
  }
}
