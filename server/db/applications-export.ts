import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { columnField, type DataColumnName, type SortField } from '../../src/domain/list-columns.ts';
import { csvRecord, listCellFormatter } from '../../src/domain/list-csv.ts';
import type { ListFilters, ListSort } from '../../src/domain/list-request.ts';
import type { Database } from './client.ts';
import { applicationSortKeys } from './schema.ts';
import { listWhere, Params, type ListScope } from './applications-list.ts';
import { productCodesSql, rowFieldReaders, splitProductCodes } from './list-rows.ts';
import { sqlRunner } from './sql-runner.ts';
import { productOptions } from './applications-store.ts';

export interface ExportRequest {
  tenantId: string;
  scope: ListScope;
  filters: ListFilters;
  sort: ListSort;
  /** The tenant's visible data columns, in list order. */
  columns: readonly DataColumnName[];
}

export interface ExportOptions {
  /**
   * Rows per query: a list request waiting behind one is served within ~50 ms, and the two batches
   * held at a time (see below) stay a few MiB.
   */
  batchSize?: number;
  /** Rows formatted between two yields to the event loop. */
  sliceSize?: number;
}

/** How the export reads each field: the list's own readers, products as codes named in memory. */
function fieldSql(field: SortField): string {
  if (field === 'ProductDisplayNameList') return productCodesSql;
  return rowFieldReaders[field].sql;
}

/**
 * The list as CSV (RFC 4180, formula cells neutralised), in the list's order, as a stream of
 * chunks. It walks the sort index in keyset batches: memory stays at two batches whatever the size
 * (one being formatted, the next being read), and other requests' queries run between batches
 * instead of waiting for one long query.
 */
export async function* exportApplicationsCsv(db: Database, request: ExportRequest, options: ExportOptions = {}): AsyncGenerator<string> {
  const runner = sqlRunner(db);
  const batchSize = options.batchSize ?? 2_500;
  const sliceSize = options.sliceSize ?? 500;
  const productNames = new Map((await productOptions(db, request.tenantId)).map((option) => [option.Value, option.Name]));
  const fields = [...new Set(request.columns.map((column) => columnField[column]))];
  const key = applicationSortKeys[columnField[request.sort.sortBy]];
  const idOnly = key.sql === 'id';
  const ascending = request.sort.sortType === 'asc';
  const direction = ascending ? 'asc' : 'desc';
  const comparison = ascending ? '>' : '<';
  const order = idOnly ? `id ${direction}` : `${key.sql} ${direction}, id ${direction}`;
  // Output columns get neutral names: ORDER BY must see the table's columns, not text copies of them.
  const select = [...fields.map(fieldSql), `(${key.sql})::text`, 'id::text'].map((expression, index) => `${expression} as c${index}`).join(', ');

  // Per column: where its value sits in a result row, how it is read, how it is written.
  const cellsOf = request.columns.map((column) => {
    const field = columnField[column];
    const index = fields.indexOf(field);
    const format = listCellFormatter(column);
    const read =
      field === 'ProductDisplayNameList'
        ? (cell: string | null) => splitProductCodes(cell).map((code) => productNames.get(code) ?? code)
        : rowFieldReaders[field].parse;
    return (cells: readonly (string | null)[]) => format(read(cells[index] ?? null));
  });
  const texts: string[] = new Array<string>(cellsOf.length);

  /** The batch after `after` (from the start when null). */
  const batchAfter = (after: { key: string; id: string } | null) => {
    const params = new Params();
    const where = listWhere(params, request.tenantId, request.scope, request.filters);
    let seek = '';
    if (after) {
      seek = idOnly
        ? ` and id ${comparison} ${params.add(after.id)}::bigint`
        : ` and (${key.sql}, id) ${comparison} (${params.add(after.key)}::${key.type}, ${params.add(after.id)}::bigint)`;
    }
    const batch = runner.bulkTextRows(`select ${select} from applications where ${where}${seek} order by ${order} limit ${params.add(batchSize)}`, params.values);
    // Handled here too: if the download stops early, nobody awaits the batch read ahead.
    batch.catch(() => undefined);
    return batch;
  };

  let next = batchAfter(null);
  // The header waits for the first batch, so that a query that fails does so before the first chunk.
  await next;
  yield csvRecord(request.columns);
  for (;;) {
    const rows = await next;
    const more = rows.length === batchSize;
    if (more) {
      // The next batch is read (on the database's thread) while this one is formatted.
      const last = rows.row(rows.length - 1);
      next = batchAfter({ key: last[fields.length] ?? '', id: last[fields.length + 1] ?? '0' });
    }
    let chunk = '';
    for (let rowIndex = 0; rowIndex < rows.length; rowIndex++) {
      // Formatting runs on the event loop too: hand it back every slice so list requests get in.
      if (rowIndex > 0 && rowIndex % sliceSize === 0) {
        yield chunk;
        chunk = '';
        await yieldToEventLoop();
      }
      const cells = rows.row(rowIndex);
      // One reused array of cell texts: a million rows make a million fewer arrays to collect.
      for (let index = 0; index < cellsOf.length; index++) texts[index] = cellsOf[index]?.(cells) ?? '';
      chunk += csvRecord(texts);
    }
    if (chunk) yield chunk;
    if (!more) return;
    await yieldToEventLoop();
  }
}
