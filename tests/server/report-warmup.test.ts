import { describe, expect, it } from 'vitest';
import { warmReports } from '../../server/pdf/report-warmup.ts';

describe('report warm-up at start (issue 29)', () => {
  it('builds a whole registry report and reports how long it took', async () => {
    const ms = await warmReports();
    expect(ms).toBeGreaterThan(0);
    expect(Number.isFinite(ms)).toBe(true);
  });
});
