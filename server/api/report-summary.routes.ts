import { ReportSummaryQuerySchema, ReportSummarySchema, type ReportSummary } from '../../src/schemas/reports.schema.ts';
import { readRange, todayIn } from '../../src/domain/report-periods.ts';
import { canSeeAllApps, canSeeMyApps } from '../../src/domain/permissions.ts';
import { badRequest } from '../http-error.ts';
import { reportSummariesFor } from '../db/report-summary-store.ts';
import { allAppsScope, myAppsScope, type Actor } from '../db/applications-store.ts';
import type { ListScope } from '../db/applications-list.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';

/** SUV §6: the Reports page needs reports.login. */
export const reportsClaim = 'reports.login';

/**
 * What a report counts: the list the caller would open — All Apps with any all-apps claim, else My
 * Apps with view.myapps, else nothing at all (the store counts nothing for 'none').
 */
function reportScope(actor: Actor): { scope: ListScope; list: ReportSummary['List'] } {
  if (canSeeAllApps(actor.claims)) return { scope: allAppsScope(actor), list: 'all' };
  if (canSeeMyApps(actor.claims)) return { scope: myAppsScope(actor), list: 'my' };
  return { scope: myAppsScope(actor), list: 'none' };
}

/** GET /api/reports/summary (issue 30): the Reports page's five charts, from the tenant's own applications. */
export function registerReportSummaryRoutes({ app, db, access }: RouteContext) {
  const summaries = reportSummariesFor(db);
  app.get(
    '/api/reports/summary',
    {
      onRequest: access.requireAccess({ scope: 'applicationmanager', claims: [reportsClaim] }),
      schema: { querystring: ReportSummaryQuerySchema, response: { 200: ReportSummarySchema } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const today = todayIn(tenant.timeZone);
      const range = readRange(request.query, today);
      if (!range.ok) throw badRequest(`${range.param}: ${range.message}`);
      const summary = await summaries.summary({
        tenantId: principal.tenantId,
        timeZone: tenant.timeZone,
        ...reportScope(principal),
        from: range.from,
        to: range.to,
        today,
      });
      return reply.header('cache-control', 'no-store').send(summary);
    },
  );
}
