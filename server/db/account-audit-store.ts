import type { Database } from './client.ts';
import { accountAudit, outbox } from './schema.ts';
import type { Mailer, MailMessage } from '../providers/mail/mailer.ts';

type Writer = Pick<Database, 'insert'>;

/** One line of an account's own audit trail, written in the transaction of the change it records. */
export async function auditAccount(db: Writer, entry: { tenantId: string; userId: string; activity: string }) {
  await db.insert(accountAudit).values(entry);
}

/**
 * Sends an e-mail about the account itself (a reset link, a recovery code used) and records it: the
 * outbox row and the audit line in one transaction, after delivery, as sendRecordedEmail does for
 * applications (docs/decisions/006-outbox.md).
 */
export async function sendAccountEmail(
  db: Database,
  mailer: Mailer,
  message: MailMessage,
  entry: { tenantId: string; userId: string; activity: string },
) {
  const { transportId } = await mailer.deliver(message);
  await db.transaction(async (tx) => {
    await tx.insert(outbox).values({
      tenantId: entry.tenantId,
      channel: 'email',
      recipient: message.to,
      subject: message.subject,
      body: message.text,
      html: message.html,
      transport: mailer.transport,
      transportId,
      userId: entry.userId,
    });
    await auditAccount(tx, entry);
  });
}
