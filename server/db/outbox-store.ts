import { desc, eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { applicationActivity, outbox } from './schema.ts';
import type { Mailer, MailMessage } from '../providers/mail/mailer.ts';

/** The action an e-mail belongs to: whose application, who sent it, and the activity-feed text. */
export interface MailContext {
  tenantId: string;
  applicationId: number;
  userId: string;
  activity: string;
}

/**
 * Sends an e-mail and records it: its outbox row and the action's activity item in one transaction.
 * Delivery comes first (a no-op in the sandbox): a server that refuses the message fails the action
 * before anything is written, so a failure changes nothing. The one gap left, a delivered message
 * whose transaction then fails, is logged by the caller's 5xx (docs/decisions/006-outbox.md).
 */
export async function sendRecordedEmail(db: Database, mailer: Mailer, message: MailMessage, context: MailContext) {
  const { transportId } = await mailer.deliver(message);
  await db.transaction(async (tx) => {
    await tx.insert(outbox).values({
      tenantId: context.tenantId,
      channel: 'email',
      recipient: message.to,
      subject: message.subject,
      body: message.text,
      html: message.html,
      transport: mailer.transport,
      transportId,
      applicationId: context.applicationId,
      userId: context.userId,
    });
    await tx.insert(applicationActivity).values({
      tenantId: context.tenantId,
      applicationId: context.applicationId,
      userId: context.userId,
      activity: context.activity,
    });
  });
}

/** How many messages the outbox page shows: the newest ones (older rows stay in the table). */
export const outboxPageSize = 200;

/** A tenant's newest messages, newest first. */
export async function latestOutbox(db: Database, tenantId: string, limit = outboxPageSize) {
  return db
    .select({
      channel: outbox.channel,
      recipient: outbox.recipient,
      subject: outbox.subject,
      body: outbox.body,
      transport: outbox.transport,
      applicationId: outbox.applicationId,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .where(eq(outbox.tenantId, tenantId))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit);
}
