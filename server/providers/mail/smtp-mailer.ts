import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

/** How long each step of an SMTP conversation may take before the action fails (and changes nothing). */
const smtpTimeoutMs = 10_000;

/** What the SMTP mailer needs of a nodemailer transporter (tests give it nodemailer's JSON transport). */
export interface MailTransporter {
  sendMail(message: { from: { name: string; address: string }; to: string; subject: string; text: string; html: string }): Promise<{
    messageId?: unknown;
    accepted?: unknown;
    rejected?: unknown;
  }>;
}

/**
 * A nodemailer transporter for SMTP_URL: smtp:// or smtps://, credentials and nodemailer's options
 * in the URL (`?requireTLS=true`). Unless the URL says otherwise, an unreachable or silent server
 * fails the request within seconds rather than the library's minutes.
 */
export function smtpTransporter(url: string): MailTransporter {
  const parsed = new URL(url);
  for (const name of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
    if (!parsed.searchParams.has(name)) parsed.searchParams.set(name, String(smtpTimeoutMs));
  }
  return nodemailer.createTransport(parsed.toString());
}

/** Delivery through nodemailer: resolves once the server accepted the message, throws otherwise. */
export function smtpMailer(transporter: MailTransporter, from: string): Mailer {
  return {
    transport: 'smtp',
    async deliver(message) {
      const info = await transporter.sendMail({ from: { name: message.fromName, address: from }, to: message.to, subject: message.subject, text: message.text, html: message.html });
      // A server that accepted none of the recipients has delivered nothing.
      if (Array.isArray(info.rejected) && info.rejected.length > 0 && !(Array.isArray(info.accepted) && info.accepted.length > 0)) {
        throw new Error('The mail server refused the recipient.');
      }
      return { transportId: typeof info.messageId === 'string' ? info.messageId : '' };
    },
  };
}
