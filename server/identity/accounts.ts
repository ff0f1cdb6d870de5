import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';

export type User = typeof users.$inferSelect;

/** SUV §4: Invited, Active and Normal are enabled; locked and deactivated users cannot sign in. */
export const signInStatuses = new Set(['Invited', 'Active', 'Normal']);
export const maxFailedSignIns = 5;

export async function findUserById(db: Database, id: string): Promise<User | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findUserByEmail(db: Database, tenantId: string, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email.trim().toLowerCase())));
  return user;
}

export const displayName = (user: Pick<User, 'firstName' | 'lastName'>): string =>
  `${user.firstName} ${user.lastName}`.trim();

/** The token claims of AM §3 / SUV §3, beside the standard ones oidc-provider adds. */
export function accessTokenClaims(user: User) {
  return {
    DisplayName: displayName(user),
    GlobalId: user.id,
    Tenant: user.tenantId,
    CreatedDate: user.createdAt.toISOString(),
    Permissions: user.claims,
  };
}
