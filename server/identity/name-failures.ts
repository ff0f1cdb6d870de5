import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { signInNameFailures } from '../db/schema.ts';

/**
 * Counts a failed sign-in of a name with no lockable account (unknown or deactivated) and returns
 * its count so far. Kept in the database, as a real account's failedAttempts are, so that neither a
 * restart nor a flood of other names makes an unknown name stop looking locked (issue 27 point 9).
 */
export async function recordNameFailure(db: Database, tenantId: string, email: string): Promise<number> {
  const [row] = await db
    .insert(signInNameFailures)
    .values({ tenantId, email: email.trim().toLowerCase(), failedAttempts: 1 })
    .onConflictDoUpdate({
      target: [signInNameFailures.tenantId, signInNameFailures.email],
      set: { failedAttempts: sql`${signInNameFailures.failedAttempts} + 1`, updatedAt: sql`now()` },
    })
    .returning({ failedAttempts: signInNameFailures.failedAttempts });
  return row?.failedAttempts ?? 1;
}
