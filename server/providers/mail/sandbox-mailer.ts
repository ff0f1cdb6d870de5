import type { Mailer } from './mailer.ts';

/**
 * The default: nothing leaves the machine. The message's outbox row is the delivery, so a person
 * trying the demo reads what was sent on the /outbox page (docs/decisions/006-outbox.md).
 */
export const sandboxMailer: Mailer = {
  transport: 'sandbox',
  deliver: async () => ({ transportId: '' }),
};
