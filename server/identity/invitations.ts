import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { outbox, userInvitations } from '../db/schema.ts';
import type { Mailer, MailMessage } from '../providers/mail/mailer.ts';
import { composeEmail } from '../providers/mail/compose.ts';
import type { Tenant } from '../tenancy.ts';

/** How long an invitation link stays usable. */
export const invitationLifetimeDays = 7;
const lifetimeMs = invitationLifetimeDays * 86_400_000;

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Only the sha256 of a token is stored: a copy of the database opens no account. */
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export const newInvitationToken = () => randomBytes(32).toString('base64url');

export const invitationPath = (token: string) => `/invitation/${token}`;

/**
 * Writes a new invitation for the user and ends every earlier one still open (a resend leaves one
 * live link, the newest).
 */
export async function storeInvitation(tx: Tx, entry: { tenantId: string; userId: string; token: string; createdBy: string | null }) {
  const now = new Date();
  await tx
    .update(userInvitations)
    .set({ replacedAt: now })
    .where(and(eq(userInvitations.userId, entry.userId), isNull(userInvitations.usedAt), isNull(userInvitations.revokedAt), isNull(userInvitations.replacedAt)));
  await tx.insert(userInvitations).values({
    tenantId: entry.tenantId,
    userId: entry.userId,
    tokenHash: tokenHash(entry.token),
    createdBy: entry.createdBy,
    expiresAt: new Date(now.getTime() + lifetimeMs),
  });
}

/** Ends the user's open invitation; false when there was none. */
export async function revokeInvitations(tx: Tx, userId: string): Promise<boolean> {
  const revoked = await tx
    .update(userInvitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(userInvitations.userId, userId), isNull(userInvitations.usedAt), isNull(userInvitations.revokedAt), isNull(userInvitations.replacedAt)))
    .returning({ id: userInvitations.id });
  return revoked.length > 0;
}

export type InvitationState = 'valid' | 'expired' | 'used' | 'revoked' | 'replaced' | 'unknown';

/** What a link is now, without using it (a GET may only look). */
export async function invitationByToken(db: Pick<Database, 'select'>, tenantId: string, token: string) {
  const [invitation] = await db
    .select()
    .from(userInvitations)
    .where(and(eq(userInvitations.tokenHash, tokenHash(token)), eq(userInvitations.tenantId, tenantId)));
  if (!invitation) return { state: 'unknown' as const, invitation: undefined };
  const state: InvitationState = invitation.usedAt
    ? 'used'
    : invitation.revokedAt
      ? 'revoked'
      : invitation.replacedAt
        ? 'replaced'
        : invitation.expiresAt.getTime() <= Date.now()
          ? 'expired'
          : 'valid';
  return { state, invitation };
}

/** Uses the link: true only for the one request that found it valid (single use, even under a race). */
export async function consumeInvitation(tx: Tx, invitationId: number): Promise<boolean> {
  const used = await tx
    .update(userInvitations)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userInvitations.id, invitationId),
        isNull(userInvitations.usedAt),
        isNull(userInvitations.revokedAt),
        isNull(userInvitations.replacedAt),
        gt(userInvitations.expiresAt, new Date()),
      ),
    )
    .returning({ id: userInvitations.id });
  return used.length > 0;
}

/** Marks an expired link as replaced by the one the invited person asked for. */
export async function replaceExpiredInvitation(tx: Tx, invitationId: number): Promise<boolean> {
  const replaced = await tx
    .update(userInvitations)
    .set({ replacedAt: new Date() })
    .where(and(eq(userInvitations.id, invitationId), isNull(userInvitations.usedAt), isNull(userInvitations.revokedAt), isNull(userInvitations.replacedAt)))
    .returning({ id: userInvitations.id });
  return replaced.length > 0;
}

export function invitationMessage(tenant: Tenant, to: { email: string; firstName: string }, url: string, inviter: string | null): MailMessage {
  return {
    fromName: tenant.name,
    to: to.email,
    subject: `You are invited to the ${tenant.name} portal`,
    ...composeEmail({
      greeting: `Hello ${to.firstName},`,
      paragraphs: [
        inviter
          ? `${inviter} has invited you to the ${tenant.name} staff portal. Set your password to sign in:`
          : `Here is your new link to set your password for the ${tenant.name} staff portal:`,
      ],
      link: { url, label: 'Set your password' },
      closing: [
        `The link works once and is valid for ${invitationLifetimeDays} days. If it has expired, open it anyway to ask for a new one.`,
      ],
      signature: [tenant.name, `${tenant.supportEmail} · ${tenant.supportPhone}`],
    }),
  };
}

/**
 * Delivers the invitation, then runs `write` (the action's rows and audit entry) and keeps the
 * message in the outbox in one transaction, as every sent e-mail is (docs/decisions/006-outbox.md).
 */
export async function sendInvitation<T>(
  db: Database,
  mailer: Mailer,
  message: MailMessage,
  context: { tenantId: string; senderId: string | null },
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  const { transportId } = await mailer.deliver(message);
  return db.transaction(async (tx) => {
    const result = await write(tx);
    await tx.insert(outbox).values({
      tenantId: context.tenantId,
      channel: 'email',
      recipient: message.to,
      subject: message.subject,
      body: message.text,
      html: message.html,
      transport: mailer.transport,
      transportId,
      userId: context.senderId,
    });
    return result;
  });
}
