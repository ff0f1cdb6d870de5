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
  applicationOutstandingDocuments,
  applicationRequirements,
  applications,
  outbox,
  storedFileChunks,
} from './schema.ts';

/**
 * Depersonalise (AM §4 irreversible, ARCHITECTURE §5): the applicants' personal data leaves the
 * database in one transaction, and what is kept (the audit trail, approvals, exceptions, amounts,
 * products, the staff who acted) no longer names the person.
 *
 * Scrubbed: names, e-mail, phone, date of birth, TFN and address of every applicant; the
 * application's account and client name, e-mail and account number (the list's search words follow
 * through the triggers of migration 0003); the IP addresses and names of the VPN summary; the text
 * of comments; documents with their stored bytes; the recipient and text of the messages sent about
 * it (the outbox keeps that a message went, and when). Text that repeats those values (requirement and
 * outstanding-document names, activity entries, which are kept) has every occurrence replaced.
 */

/** What stands where a name was, as the seeded depersonalised applications show it. */
export const depersonalisedName = 'Depersonalised';
/** What stands in kept text where a personal value was. */
export const removedValue = '[removed]';
export const removedComment = 'Comment removed when the application was depersonalised.';
export const removedMessage = 'Message removed when the application was depersonalised.';
export const depersonalisedActivity = (actor: string) => `Application depersonalised by ${actor}`;

/** Shorter values are not looked for in kept text: two letters would match inside ordinary words. */
const shortestScrubbed = 3;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces each value (whole words, any case), longest first so that a full name goes before its
 * parts. Undefined when the text has none of them.
 */
export function scrubberFor(values: Iterable<string>): (text: string) => string | undefined {
  const wanted = [...new Set([...values].map((value) => value.trim()).filter((value) => value.length >= shortestScrubbed))].sort(
    (a, b) => b.length - a.length,
  );
  if (wanted.length === 0) return () => undefined;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${wanted.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return (text) => {
    const scrubbed = text.replace(pattern, removedValue);
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
    })
    .from(applications)
    .where(eq(applications.id, id));
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
    .set({
      status: 'Depersonalised',
      previousStatus: application.status,
      accountName: depersonalisedName,
      clientName: '',
      primaryEmail: '',
      accountNumber: '',
      documentCount: 0,
      userUploadCount: 0,
      lastDocumentUpload: null,
    })
    .where(eq(applications.id, id));
  await recordActivity(tx, actor, id, depersonalisedActivity(actor.displayName));
  return { keysToDelete: bytesInDatabase ? [] : keys };
}
