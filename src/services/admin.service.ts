import {
  ColumnConfigListSchema,
  RowConfigListSchema,
  SaveResultSchema,
  type ColumnConfigItem,
  type RowConfigItem,
  type SaveResult,
} from '../schemas/admin.schema.ts';
import { getJson, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** GET /admin/columns: every list column with its description and whether the tenant shows it. */
export function columnConfiguration(): Promise<ColumnConfigItem[]> {
  return getJson(api('/admin/columns'), ColumnConfigListSchema);
}

/** POST /admin/save {Columns}: 'Successfully saved' or 'Saving failed' follows from Success (AM §8). */
export function saveColumnConfiguration(columns: ColumnConfigItem[]): Promise<SaveResult> {
  return postJson(api('/admin/save'), { Columns: columns }, SaveResultSchema);
}

/** GET /admin/rows: every optional detail row with its description and visibility. */
export function rowConfiguration(): Promise<RowConfigItem[]> {
  return getJson(api('/admin/rows'), RowConfigListSchema);
}

/** POST /admin/rows/save {Rows}. */
export function saveRowConfiguration(rows: RowConfigItem[]): Promise<SaveResult> {
  return postJson(api('/admin/rows/save'), { Rows: rows }, SaveResultSchema);
}
