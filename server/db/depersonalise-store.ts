import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Actor } from './applications-store.ts';
import type { ActionApplication, Tx } from './application-actions-store.ts';
import { recordActivity } from './application-actions-store.ts';
import {
  applicationActivity,
  applicationApplicants,
  applicationComments,
  applicationDocuments,
  applicationIps,
  applicationListChanges,
  applicationOutstandingDocuments,
  applicationRequirements,
  applications,
  outbox,
  pendingScrubs,
  storedFileChunks,
} from './schema.ts';

/**
 * Depersonalise (AM §4 irreversible, ARCHITECTURE §5): the applicants' personal data leaves the
 * database in one transaction, and what is kept (the audit trail, approvals, exceptions, amounts,
 * products, the staff who acted) no longer names the person.
 *
 * Scrubbed: names, e-mail, phone, date of birth, TFN and address of every applicant; the
 * application's account and client name, e-mail, account number and External ID (the list's search words follow
 * through the triggers of migration 0003); the IP addresses and names of the VPN summary; the text
 * of comments; documents with their stored bytes; the recipient and text of the messages sent about
 * it (the outbox keeps that a message went, and when). Text that repeats those values (requirement and
 * outstanding-document names, activity entries, which are kept) has every occurrence replaced, and
 * every e-mail address and phone number, so that values it held earlier go too.
 */

/** What stands where a name was, as the seeded depersonalised applications show it. */
export const depersonalisedName = 'Depersonalised';
/** What stands in kept text where a personal value was. */
export const removedValue = '[removed]';
export const removedComment = 'Comment removed when the application was depersonalised.';
export const removedMessage = 'Message removed when the application was depersonalised.';
export const depersonalisedActivity = (actor: string) => `Application depersonalised by ${actor}`;

/**
 * What a depersonalised application's row holds in place of its personal values: the product
 * writes it, and the seed's depersonalised applications are generated with it (issue 27 point 5).
 */
export const depersonalisedApplicationColumns = {
  accountName: depersonalisedName,
  clientName: '',
  primaryEmail: '',
  accountNumber: '',
  externalId: '',
  documentCount: 0,
  userUploadCount: 0,
  lastDocumentUpload: null,
} as const satisfies Partial<typeof applications.$inferInsert>;

/** Shorter values are not looked for in kept text: two letters would match inside ordinary words. */
const shortestScrubbed = 3;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * E-mail addresses and phone numbers of any time (issue 27 point 3): kept text may repeat a value
 * the application no longer holds (an address changed before a link was e-mailed to it), which the
 * current values cannot find. Kept texts name staff by their display names, never by an address or
 * number, so every address and number in them is the applicant's.
 */
const emailPattern = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** Eight or more digits with the separators phone numbers are written with; a date or a time is left alone. */
const phonePattern = /(?<![\p{L}\p{N}])\+?\(?\d[\d ()-]{6,}\d(?![\p{L}\p{N}])/gu;
const datePattern = /^\d{4}-\d{2}-\d{2}/;
const digitCount = (text: string) => text.replace(/\D/g, '').length;

function scrubAnyContact(text: string): string {
  return text
    .replace(emailPattern, removedValue)
    .replace(phonePattern, (match) => (digitCount(match) >= 8 && !datePattern.test(match) ? removedValue : match));
}

/**
 * Replaces each value (whole words, any case), longest first so that a full name goes before its
 * parts, and every e-mail address and phone number. Undefined when the text has none of them.
 */
export function scrubberFor(values: Iterable<string>): (text: string) => string | undefined {
  const wanted = [...new Set([...values].map((value) => value.trim()).filter((value) => value.length >= shortestScrubbed))].sort(
    (a, b) => b.length - a.length,
  );
  const pattern =
    wanted.length === 0 ? undefined : new RegExp(`(?<![\\p{L}\\p{N}])(?:${wanted.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return (text) => {
    // Addresses and numbers first: each goes whole, before a name inside an address is found on its own.
    const contactless = scrubAnyContact(text);
    const scrubbed = pattern ? contactless.replace(pattern, removedValue) : contactless;
    return scrubbed === text ? undefined : scrubbed;
  };
}

export interface DepersonaliseOutcome {
  /** Storage keys of this application's own documents, whose bytes go once the transaction commits (directory storage). */
  keysToDelete: string[];
}

/**
 * Scrubs the application inside the caller's transaction (which locked its row and judged the
 * action). `bytesInDatabase`: the document bytes live in stored_file_chunks, so they go in this
 * same transaction; otherwise the caller deletes `keysToDelete` from its storage after commit.
 */
export async function depersonalise(
  tx: Tx,
  actor: Actor,
  application: ActionApplication,
  { bytesInDatabase }: { bytesInDatabase: boolean },
): Promise<DepersonaliseOutcome> {
  const id = application.id;
  const [row] = await tx
    .select({
      accountName: applications.accountName,
      clientName: applications.clientName,
      primaryEmail: applications.primaryEmail,
      accountNumber: applications.accountNumber,
      externalId: applications.externalId,
    })
    .from(applications)
    .where(eq(applications.id, id));
  // Everyone a message about it went to, at any time: earlier addresses and numbers are personal too.
  const recipients = await tx.select({ recipient: outbox.recipient }).from(outbox).where(eq(outbox.applicationId, id));
  const applicants = await tx.select().from(applicationApplicants).where(eq(applicationApplicants.applicationId, id));
  const ips = await tx.select({ name: applicationIps.applicantName, ip: applicationIps.ip }).from(applicationIps).where(eq(applicationIps.applicationId, id));
  const documents = await tx
    .select({ fileName: applicationDocuments.originalFileName, key: applicationDocuments.storageKey })
    .from(applicationDocuments)
    .where(eq(applicationDocuments.applicationId, id));

  const personal = [
    row?.accountName ?? '',
    row?.clientName ?? '',
    row?.primaryEmail ?? '',
    row?.accountNumber ?? '',
    row?.externalId ?? '',
    ...recipients.map((message) => message.recipient),
    ...applicants.flatMap((person) => [
      `${person.firstName} ${person.lastName}`,
      person.firstName,
      person.lastName,
      person.email,
      person.phone,
      person.dateOfBirth,
      person.address,
      person.tfn,
    ]),
    ...ips.flatMap((visit) => [visit.name, visit.ip]),
    ...documents.map((document) => document.fileName),
  ].filter((value) => value !== depersonalisedName);
  const scrub = scrubberFor(personal);

  await tx
    .update(applicationApplicants)
    .set({ firstName: depersonalisedName, lastName: '', phone: '', email: '', dateOfBirth: '', address: '', tfn: '', isMfaLocked: false })
    .where(eq(applicationApplicants.applicationId, id));

  const requirements = await tx
    .select({ id: applicationRequirements.id, name: applicationRequirements.name, resultText: applicationRequirements.resultText, actionRequired: applicationRequirements.actionRequired })
    .from(applicationRequirements)
    .where(eq(applicationRequirements.applicationId, id));
  for (const requirement of requirements) {
    const name = scrub(requirement.name);
    const resultText = scrub(requirement.resultText);
    const actionRequired = scrub(requirement.actionRequired);
    if (name === undefined && resultText === undefined && actionRequired === undefined) continue;
    await tx
      .update(applicationRequirements)
      .set({ name: name ?? requirement.name, resultText: resultText ?? requirement.resultText, actionRequired: actionRequired ?? requirement.actionRequired })
      .where(eq(applicationRequirements.id, requirement.id));
  }

  const outstanding = await tx
    .select({ id: applicationOutstandingDocuments.id, name: applicationOutstandingDocuments.name, actionRequired: applicationOutstandingDocuments.actionRequired })
    .from(applicationOutstandingDocuments)
    .where(eq(applicationOutstandingDocuments.applicationId, id));
  for (const item of outstanding) {
    const name = scrub(item.name);
    const actionRequired = scrub(item.actionRequired);
    if (name === undefined && actionRequired === undefined) continue;
    await tx
      .update(applicationOutstandingDocuments)
      .set({ name: name ?? item.name, actionRequired: actionRequired ?? item.actionRequired })
      .where(eq(applicationOutstandingDocuments.id, item.id));
  }

  // The ISP and VPN verdict stay (the VPN summary still says a VPN was used); who and from where go.
  await tx.update(applicationIps).set({ applicantName: depersonalisedName, ip: '' }).where(eq(applicationIps.applicationId, id));
  await tx.update(applicationComments).set({ comment: removedComment }).where(eq(applicationComments.applicationId, id));

  // A message's text may hold anything (a personalised message): it goes whole; its subject is kept, scrubbed.
  const messages = await tx.select({ id: outbox.id, subject: outbox.subject }).from(outbox).where(eq(outbox.applicationId, id));
  for (const message of messages) {
    await tx
      .update(outbox)
      .set({ recipient: removedValue, subject: scrub(message.subject) ?? message.subject, body: removedMessage, html: '' })
      .where(eq(outbox.id, message.id));
  }

  // The audit trail is kept, with the personal values it repeats replaced.
  const feed = await tx
    .select({ id: applicationActivity.id, activity: applicationActivity.activity })
    .from(applicationActivity)
    .where(eq(applicationActivity.applicationId, id));
  for (const entry of feed) {
    const activity = scrub(entry.activity);
    if (activity !== undefined) await tx.update(applicationActivity).set({ activity }).where(eq(applicationActivity.id, entry.id));
  }

  // Bytes go only where no other application's document points at them (seeded rows share sample files).
  const ownKeys = await tx
    .selectDistinct({ key: applicationDocuments.storageKey })
    .from(applicationDocuments)
    .where(
      and(
        eq(applicationDocuments.applicationId, id),
        sql`${applicationDocuments.storageKey} not like 'sample/%'`,
        sql`not exists (select 1 from application_documents o where o.storage_key = ${applicationDocuments.storageKey} and o.application_id <> ${id})`,
      ),
    );
  const keys = ownKeys.map((entry) => entry.key);
  await tx.delete(applicationDocuments).where(eq(applicationDocuments.applicationId, id));
  if (bytesInDatabase && keys.length > 0) await tx.delete(storedFileChunks).where(inArray(storedFileChunks.key, keys));

  await tx
    .update(applications)
    .set({ status: 'Depersonalised', previousStatus: application.status, ...depersonalisedApplicationColumns })
    .where(eq(applications.id, id));
  // The list engine's change records keep each changed row as it was (migration 0023), this
  // update's own included: they forget the application, and name no row any more, so a list
  // catching up across them is read again instead (catchUp in applications-list.ts).
  await tx.update(applicationListChanges).set({ applicationId: null, oldRow: null }).where(eq(applicationListChanges.applicationId, id));
  // The old values stay on disk and in the statistics until the scrub (freed-space.ts): what it owes
  // is recorded with the change itself, so a server stopped before scrubbing leaves it to the next start.
  await tx.insert(pendingScrubs).values({ applicationId: id });
  await recordActivity(tx, actor, id, depersonalisedActivity(actor.displayName));
  return { keysToDelete: bytesInDatabase ? [] : keys };
}
