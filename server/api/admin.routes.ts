import {
  CacheStatsSchema,
  ColumnConfigListSchema,
  RowConfigListSchema,
  SaveColumnsRequestSchema,
  SaveResultSchema,
  SaveRowsRequestSchema,
  VisibleColumnsSchema,
  VisibleRowsSchema,
} from '../../src/schemas/admin.schema.ts';
import { badRequest } from '../http-error.ts';
import { listEngineFor } from '../db/applications-list.ts';
import {
  columnConfiguration,
  columnSaveProblem,
  rowConfiguration,
  rowSaveProblem,
  saveColumnConfiguration,
  saveRowConfiguration,
  visibleColumns,
  visibleRows,
} from '../db/applications-store.ts';
import { tenantOf, type RouteContext } from './context.ts';

const saved = { Success: true, Message: 'Successfully saved' };

/** AM §2 Admin configuration page (admin claim) and the visible columns and rows every list reads. */
export function registerAdminRoutes({ app, db, access }: RouteContext) {
  const admin = access.requireAccess({ scope: 'applicationmanager', claims: ['admin'] });
  const signedIn = access.requireAccess({ scope: 'applicationmanager' });

  app.get('/api/admin/columns', { preValidation: admin, schema: { response: { 200: ColumnConfigListSchema } } }, async (request) =>
    columnConfiguration(db, tenantOf(request).id),
  );

  app.post(
    '/api/admin/save',
    { config: { application: 'none' }, preValidation: admin, schema: { body: SaveColumnsRequestSchema, response: { 200: SaveResultSchema } } },
    async (request) => {
      // ID, Email, AccountName and Status are always visible: a save that hides one is refused whole.
      const problem = columnSaveProblem(request.body.Columns);
      if (problem) throw badRequest(problem);
      await saveColumnConfiguration(db, tenantOf(request).id, request.body.Columns);
      return saved;
    },
  );

  app.get('/api/admin/rows', { preValidation: admin, schema: { response: { 200: RowConfigListSchema } } }, async (request) =>
    rowConfiguration(db, tenantOf(request).id),
  );

  app.post(
    '/api/admin/rows/save',
    { config: { application: 'none' }, preValidation: admin, schema: { body: SaveRowsRequestSchema, response: { 200: SaveResultSchema } } },
    async (request) => {
      const problem = rowSaveProblem(request.body.Rows);
      if (problem) throw badRequest(problem);
      await saveRowConfiguration(db, tenantOf(request).id, request.body.Rows);
      return saved;
    },
  );

  app.get('/api/admin/cachestats', { preValidation: admin, schema: { response: { 200: CacheStatsSchema } } }, async (request) => {
    const engine = listEngineFor(db);
    const stats = engine.stats();
    return {
      Requests: stats.requests,
      CountHits: stats.countHits,
      CountMisses: stats.countMisses,
      CountEntries: stats.countEntries,
      SeekHits: stats.seekHits,
      SeekChunks: stats.seekChunks,
      SeekEntries: stats.seekEntries,
      SeekBytes: stats.seekBytes,
      MaxSeekBytes: stats.maxSeekBytes,
      OffsetFallbacks: stats.offsetFallbacks,
      StaleRetries: stats.staleRetries,
      CatchUps: stats.catchUps,
      WholePages: stats.wholePages,
      KeptPages: stats.keptPages,
      Refreshes: stats.refreshes,
      SnapshotPages: stats.snapshotPages,
      RowHits: stats.rowHits,
      RowFetches: stats.rowFetches,
      RowAdvances: stats.rowAdvances,
      DataVersion: await engine.version(tenantOf(request).id),
    };
  });

  app.get('/api/configuration/columns', { preValidation: signedIn, schema: { response: { 200: VisibleColumnsSchema } } }, async (request) => ({
    ColumnNames: await visibleColumns(db, tenantOf(request).id),
  }));

  app.get('/api/configuration/rows', { preValidation: signedIn, schema: { response: { 200: VisibleRowsSchema } } }, async (request) => ({
    RowNames: await visibleRows(db, tenantOf(request).id),
  }));
}
