import {
  ActionResultSchema,
  type ActionResult,
  type AddLabelRequest,
  type AssignRequest,
  type IndividualEmailRequest,
  type UnlockApplicantRequest,
} from '../schemas/application-actions.schema.ts';
import { explainedRefusal } from './explained-refusal.ts';
import { postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

/**
 * The detail screen's editors (AM §2 Assignee picker, Label picker, Edit Owner, Edit Email Address,
 * Change Signing Mode, Unlock applicant, per-applicant Resend email; §7 calls). `{id}` in a path
 * is the ApplicationID, ApplicationId in a body the ApplicationGuid (application-actions.schema.ts).
 *
 * Each answers `{ Success, Message }`; a refusal the server explains comes back as
 * `{ Success: false, Message }` (explained-refusal.ts).
 */

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;
const segment = (value: string) => encodeURIComponent(value);

const post = (path: string, body: unknown) => explainedRefusal(postJson(api(path), body, ActionResultSchema));

/** POST /application/assign/{id} {GlobalUserId}: null clears the assignee (AM §5). */
export function assignApplication(applicationId: string, request: AssignRequest): Promise<ActionResult> {
  return post(`/application/assign/${segment(applicationId)}`, request);
}

/** POST /label/add {LabelText}: refused past the tenant's MaximumLabelLimit with a Message (AM §8). */
export function addLabel(request: AddLabelRequest): Promise<ActionResult> {
  return post('/label/add', request);
}

/** POST /label/save {ApplicationId (the guid), Label}: an empty Label clears it. */
export function saveLabel(applicationGuid: string, label: string): Promise<ActionResult> {
  return post('/label/save', { ApplicationId: applicationGuid, Label: label });
}

/** POST /application/updateowner/{id} {NewOwnerId}: the owner's PublicId. */
export function updateOwner(applicationId: string, newOwnerId: string): Promise<ActionResult> {
  return post(`/application/updateowner/${segment(applicationId)}`, { NewOwnerId: newOwnerId });
}

/** POST /application/changeprimaryemail/{id} {PrimaryEmail}: only while the application is incomplete. */
export function changePrimaryEmail(applicationId: string, primaryEmail: string): Promise<ActionResult> {
  return post(`/application/changeprimaryemail/${segment(applicationId)}`, { PrimaryEmail: primaryEmail });
}

/** POST /application/changesigningmode/{id}/{mode}, the mode (Pin or PrintandSign) in the path, no body. */
export function changeSigningMode(applicationId: string, mode: string): Promise<ActionResult> {
  return post(`/application/changesigningmode/${segment(applicationId)}/${segment(mode)}`, undefined);
}

/** POST /applicant/labformmfaunlock {ApplicationId (the guid), IndividualId, InstanceName}: an MFA-locked applicant. */
export function unlockApplicant(request: UnlockApplicantRequest): Promise<ActionResult> {
  return post('/applicant/labformmfaunlock', request);
}

/** POST /application/resendindividualresumelinkemail/{id} {IndividualId}: one applicant's resume link again. */
export function resendIndividualResumeLink(
  applicationId: string,
  request: IndividualEmailRequest,
): Promise<ActionResult> {
  return post(`/application/resendindividualresumelinkemail/${segment(applicationId)}`, request);
}
