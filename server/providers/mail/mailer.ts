import type { ServerConfig } from '../../config.ts';
import { sandboxMailer } from './sandbox-mailer.ts';
import { smtpMailer, smtpTransporter } from './smtp-mailer.ts';

/** One e-mail as the server composes it: plain text (what the outbox page shows) and its HTML alternative. */
export interface MailMessage {
  /** The sender's display name (the tenant's); the address is MAIL_FROM. */
  fromName: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * How e-mail leaves the server (ARCHITECTURE "The outside world"). Every message is also kept in
 * the outbox table by the caller (server/db/outbox-store.ts), in the transaction of the action's
 * activity item; a mailer only delivers.
 */
export interface Mailer {
  /** Recorded on each outbox row: 'sandbox' keeps the message in the outbox only; 'smtp' delivered it. */
  readonly transport: 'sandbox' | 'smtp';
  /** Delivers the message or throws; resolves to the transport's id for it ('' in the sandbox). */
  deliver(message: MailMessage): Promise<{ transportId: string }>;
}

/** SMTP when SMTP_URL is set (e.g. smtp://user:pass@mail.example:587), otherwise the sandbox. */
export function mailerFor(config: Pick<ServerConfig, 'SMTP_URL' | 'MAIL_FROM'>): Mailer {
  return config.SMTP_URL ? smtpMailer(smtpTransporter(config.SMTP_URL), config.MAIL_FROM) : sandboxMailer;
}
