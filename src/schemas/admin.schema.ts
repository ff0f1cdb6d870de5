import * as z from 'zod/mini';

/** AM §3 "Column configuration item". */
export const ColumnConfigItemSchema = z.object({ ColumnName: z.string(), Description: z.string(), Viewable: z.boolean() });
export type ColumnConfigItem = z.infer<typeof ColumnConfigItemSchema>;

/** AM §3 "Row configuration item". */
export const RowConfigItemSchema = z.object({
  ApplicationDetailRowName: z.string(),
  Description: z.string(),
  Viewable: z.boolean(),
});
export type RowConfigItem = z.infer<typeof RowConfigItemSchema>;

export const ColumnConfigListSchema = z.array(ColumnConfigItemSchema);
export const RowConfigListSchema = z.array(RowConfigItemSchema);

export const SaveColumnsRequestSchema = z.object({ Columns: z.array(ColumnConfigItemSchema).check(z.minLength(1)) });
export const SaveRowsRequestSchema = z.object({ Rows: z.array(RowConfigItemSchema).check(z.minLength(1)) });
export const SaveResultSchema = z.object({ Success: z.boolean(), Message: z.string() });
export type SaveResult = z.infer<typeof SaveResultSchema>;

/** GET /configuration/columns and /rows: the names the tenant shows (AM §7 "ColumnNames"). */
export const VisibleColumnsSchema = z.object({ ColumnNames: z.array(z.string()) });
export const VisibleRowsSchema = z.object({ RowNames: z.array(z.string()) });

/** AM §2: these columns are always visible and cannot be toggled. */
export const fixedColumns = ['ID', 'Email', 'AccountName', 'Status'] as const;

/** AM §3: detail rows shown only if configured. */
export const optionalDetailRows = [
  'Mode', 'TimeToComplete', 'Owner', 'PromoCode', 'ExternalID', 'AccountNumber', 'Assignee', 'Label', 'Tag',
  'SubBrand', 'InvestmentAmount', 'Products',
] as const;

/** GET /admin/cachestats (AM §7, shape not shown): the list caches of the answering server instance. */
export const CacheStatsSchema = z.object({
  /** List requests served since the instance started. */
  Requests: z.int(),
  /** TotalRows answered from the cache / counted in the database. */
  CountHits: z.int(),
  CountMisses: z.int(),
  CountEntries: z.int(),
  /** Pages answered from cached seek positions, and the keyset chunks read to build them. */
  SeekHits: z.int(),
  SeekChunks: z.int(),
  SeekEntries: z.int(),
  SeekBytes: z.int(),
  MaxSeekBytes: z.int(),
  /** Pages too far from both ends of a huge list to be worth caching, read with OFFSET. */
  OffsetFallbacks: z.int(),
  /** Requests that met a write mid-way and were answered again from fresh data. */
  StaleRetries: z.int(),
  /** Caches brought to the data's version by the rows the writes changed; lists of a small tenant read whole. */
  CatchUps: z.int(),
  WholePages: z.int(),
  /** Pages served under writes from caches of an earlier version, their rows re-checked; the background catch-ups they started. */
  KeptPages: z.int(),
  Refreshes: z.int(),
  /** Pages read in one statement because the writes outran every cached try. */
  SnapshotPages: z.int(),
  /** List rows answered from those kept, fetches of rows, and times the kept rows were carried to a newer version. */
  RowHits: z.int(),
  RowFetches: z.int(),
  RowAdvances: z.int(),
  /** The tenant's data version (bumped by every write to its applications). */
  DataVersion: z.int(),
});
export type CacheStats = z.infer<typeof CacheStatsSchema>;
