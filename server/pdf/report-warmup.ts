import { sandboxCompanies } from '../providers/company-registry/sandbox-company-registry.ts';
import { buildCompanyReport } from './verification-report.ts';

/**
 * Builds one registry report and throws it away, so that the first person to generate or download
 * a report after a start does not also wait for pdf-lib's code to compile and the standard fonts'
 * metrics to unpack (the first build takes 60-90 ms against ~2 ms after it; issue 29's report budget).
 */
export async function warmReports(): Promise<number> {
  const startedAt = performance.now();
  const company = sandboxCompanies[0];
  if (!company) return 0;
  const at = new Date(0);
  await buildCompanyReport(
    { id: 0, tenantName: 'Warm-up', refCode: '', requesterName: 'Warm-up', createdAt: at, completedAt: at },
    { ...company, asAt: at.toISOString() },
  );
  return performance.now() - startedAt;
}
