import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.ts';
import { oidcModels } from '../db/schema.ts';

/**
 * oidc-provider storage in Postgres: sessions, grants, codes, refresh tokens and interactions live
 * in one table keyed by (kind, id), so any server instance can continue any flow.
 */
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

    find(id: string) {
      return this.findWhere(eq(oidcModels.id, id));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(oidcModels.userCode, userCode));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(oidcModels.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcModels)
        .set({ consumedAt: new Date() })
        .where(and(eq(oidcModels.kind, this.kind), eq(oidcModels.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.kind, this.kind), eq(oidcModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
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
