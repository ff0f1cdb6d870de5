import { and, eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { changeFeedFor } from './change-feed.ts';
import { listDataVersions } from './schema.ts';
import { Lru } from '../lru.ts';

/** The lists whose tables carry a version trigger (migration 0021). */
export type VersionedList = 'users' | 'verifications';

/** The tenant's version of `list`: from the change feed where there is one (PGlite), else from the database. */
async function currentVersion(db: Database, list: VersionedList, tenantId: string): Promise<number> {
  const feed = await changeFeedFor(db);
  const announced = feed?.listVersion(list, tenantId);
  if (announced !== undefined) return announced;
  const [row] = await db
    .select({ version: listDataVersions.version })
    .from(listDataVersions)
    .where(and(eq(listDataVersions.tenantId, tenantId), eq(listDataVersions.list, list)));
  const version = row?.version ?? 0;
  feed?.noteListVersion(list, tenantId, version);
  return version;
}

/**
 * A list's answers (one page and its count, per tenant and request) kept until the tenant's list
 * data version moves: twenty people paging one search cost one count, and the same request at once
 * shares one read. The version is read before the answer, so a kept answer is never older than the
 * version it is kept under; a write in between only makes the next request read again.
 */
export function versionedAnswers<Answer>(db: Database, list: VersionedList, capacity = 1_000) {
  const answers = new Lru<{ version: number; answer: Promise<Answer> }>();
  return async (tenantId: string, request: string, read: () => Promise<Answer>): Promise<Answer> => {
    const version = await currentVersion(db, list, tenantId);
    const key = `${tenantId}\u0000${request}`;
    const kept = answers.get(key);
    if (kept?.version === version) return kept.answer;
    const answer = read();
    answers.set(key, { version, answer });
    answers.evict(() => answers.size > capacity);
    // A failed read is not kept: the next request tries again.
    answer.catch(() => {
      if (answers.get(key)?.answer === answer) answers.delete(key);
    });
    return answer;
  };
}
