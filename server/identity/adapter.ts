import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.ts';
import { oidcModels } from '../db/schema.ts';

/**
 * oidc-provider storage in Postgres: sessions, grants, codes, refresh tokens and interactions live
 * in one table keyed by (kind, id), so any server instance can continue any flow.
 */
/**
 * Ids, uids and user codes come from the client (a refresh token, a code, a cookie). One that the
 * provider could never have issued names nothing and is not sent to the database: a NUL byte in it
 * would only be a database error, and a huge one a wasted query.
 */
const isPossibleKey = (key: string) => key.length > 0 && key.length <= 256 && /^[\x21-\x7e]+$/.test(key);

export function createPostgresAdapter(db: Database) {
  return class PostgresAdapter implements Adapter {
    constructor(readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        kind: this.kind,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcModels)
        .values(row)
        .onConflictDoUpdate({ target: [oidcModels.kind, oidcModels.id], set: row });
    }

    async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oidcModels)
        .where(
          and(
            eq(oidcModels.kind, this.kind),
            condition,
            sql`(${oidcModels.expiresAt} is null or ${oidcModels.expiresAt} > now())`,
          ),
        )
        .limit(1);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    async find(id: string) {
      return isPossibleKey(id) ? this.findWhere(eq(oidcModels.id, id)) : undefined;
    }

    async findByUserCode(userCode: string) {
      return isPossibleKey(userCode) ? this.findWhere(eq(oidcModels.userCode, userCode)) : undefined;
    }

    async findByUid(uid: string) {
      return isPossibleKey(uid) ? this.findWhere(eq(oidcModels.uid, uid)) : undefined;
    }

    async consume(id: string): Promise<void> {
      if (!isPossibleKey(id)) return;
      await db
        .update(oidcModels)
        .set({ consumedAt: new Date() })
        .where(and(eq(oidcModels.kind, this.kind), eq(oidcModels.id, id)));
    }

    async destroy(id: string): Promise<void> {
      if (!isPossibleKey(id)) return;
      await db.delete(oidcModels).where(and(eq(oidcModels.kind, this.kind), eq(oidcModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      if (!isPossibleKey(grantId)) return;
      await db.delete(oidcModels).where(eq(oidcModels.grantId, grantId));
    }
  };
}

/** Signs an account out everywhere: its sessions and grants (with their tokens) disappear. */
export async function revokeAccountSessions(db: Pick<Database, 'execute'>, accountId: string): Promise<void> {
  await db.execute(sql`
    delete from oidc_models where grant_id in (
      select id from oidc_models where kind = 'Grant' and payload->>'accountId' = ${accountId})`);
  await db.execute(sql`
    delete from oidc_models where kind in ('Session', 'Grant') and payload->>'accountId' = ${accountId}`);
}
