/**
 * The one state rule for writes to an application (AM §4 "Depersonalise is irreversible",
 * ARCHITECTURE §3): whether an application in this status may still be written, through any route
 * or link. The server applies it to every write route (server/api/application-write-rule.ts) and
 * the portal reads it to leave out what would be refused; the action table builds on it.
 *
 * Depersonalised is final: nothing may be added or changed (a comment, a document, a verification,
 * a label, an e-mail, a save through an e-mailed link), so no personal value can come back and no
 * record can claim something happened to a person who is no longer named. Cancelled is closed
 * too (AM §4 "Cancel removes the application from listings"; its detail still opens, read-only),
 * to everything but depersonalise: erasure is still owed to the person (issue 38 point 6).
 *
 * The rule holds inside each write's own transaction, not only before it (issue 38 point 2): see
 * server/api/application-write-rule.ts.
 */

export const depersonalisedStatus = 'Depersonalised';
export const cancelledStatus = 'Cancelled';
/** The statuses no write may reach (for stores that write many applications in one statement). */
export const closedStatuses: readonly string[] = [depersonalisedStatus, cancelledStatus];

/** What staff are told (the 409's message). */
export const depersonalisedWriteMessage = 'This application has been depersonalised.';
export const cancelledWriteMessage = 'This application has been cancelled.';

/** What a person holding an e-mailed or opened link is told. */
export const depersonalisedLinkMessage = 'This application is no longer available.';
export const cancelledLinkMessage = 'This application has been cancelled and can no longer be edited.';

/** Why an application in `status` may not be written; undefined when it may. */
export function applicationWriteProblem(status: string): string | undefined {
  if (status === depersonalisedStatus) return depersonalisedWriteMessage;
  if (status === cancelledStatus) return cancelledWriteMessage;
  return undefined;
}

/** The same rule for a link's holder, in their words. */
export function applicationLinkProblem(status: string): string | undefined {
  if (status === depersonalisedStatus) return depersonalisedLinkMessage;
  if (status === cancelledStatus) return cancelledLinkMessage;
  return undefined;
}

export const isWritable = (status: string): boolean => applicationWriteProblem(status) === undefined;
