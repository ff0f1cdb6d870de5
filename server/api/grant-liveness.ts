import type { Database } from '../db/client.ts';
import { sqlRunner } from '../db/sql-runner.ts';
import { changeFeedFor } from '../db/change-feed.ts';
import { Lru } from '../lru.ts';

/**
 * Whether an access token's grant is still alive. Access tokens are JWTs that live 15 minutes; a
 * sign-out, a refresh token used twice or a revocation ends their grant, and from then on the API
 * must refuse them. On PGlite the change feed announces every grant that ends (migration 0005), so a
 * live grant is remembered until then; on PostgreSQL, where other instances end grants too, for a
 * few seconds at most.
 */
const grantSql =
  `select floor(extract(epoch from coalesce(expires_at, 'infinity'::timestamptz)) * 1000)::text ` +
  `from oidc_models where kind = 'Grant' and id = $1 and (expires_at is null or expires_at > now())`;

const maxKnownGrants = 10_000;
/** How long PostgreSQL deployments trust a grant they saw alive. */
export const unannouncedGrantTrustMs = 5_000;

export function grantLiveness(db: Database) {
  const runner = sqlRunner(db);
  const known = new Lru<{ expiresAt: number; checkedAt: number }>();
  let ended = 0;
  const feed = changeFeedFor(db).then((changeFeed) => {
    changeFeed?.onGrantEnded((grantId) => {
      ended++;
      known.delete(grantId);
    });
    return changeFeed;
  });

  /** `fresh`: read the database even if the grant was seen alive (the caller knows something may have just ended it). */
  return async function isGrantAlive(grantId: string, fresh = false): Promise<boolean> {
    const announced = (await feed) !== undefined;
    const now = Date.now();
    const cached = known.get(grantId);
    if (!fresh && cached && now < cached.expiresAt && (announced || now - cached.checkedAt < unannouncedGrantTrustMs)) return true;
    const endedBefore = ended;
    const [row] = await runner.preparedTextRows('api_grant_alive', grantSql, [grantId]);
    if (!row) {
      known.delete(grantId);
      return false;
    }
    // A grant announced as ended while this read ran may or may not be in it: trust it once, keep it not.
    if (ended === endedBefore) {
      const expiresAt = Number(row[0]);
      known.set(grantId, { expiresAt: Number.isFinite(expiresAt) ? expiresAt : Number.MAX_SAFE_INTEGER, checkedAt: now });
      known.evict(() => known.size > maxKnownGrants);
    }
    return true;
  };
}
