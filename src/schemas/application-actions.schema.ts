import * as z from 'zod/mini';
import { visibleText } from './visible-text.ts';

/**
 * The application actions' API contract (AM §2 Actions dropdown and modals, §7 calls, §8 texts;
 * ARCHITECTURE §5 for request edit, request view and depersonalise). `{id}` in a path is the
 * ApplicationID, `{guid}` the ApplicationGuid. The server refuses a missing claim with 403 and a
 * state that does not allow the action with 409 and a message (src/domain/application-actions.ts).
 */

/** The answer of the actions the spec gives no shape for: assign, label save, owner, e-mail, mode, unlocks. */
export const ActionResultSchema = z.object({ Success: z.boolean(), Message: z.string() });
export type ActionResult = z.infer<typeof ActionResultSchema>;

/** POST /api/application/assign/{id}: null clears the assignee (AM §5). */
export const AssignRequestSchema = z.object({ GlobalUserId: z.nullable(z.uuid('GlobalUserId: must be an assignee id or null')) });
export type AssignRequest = z.infer<typeof AssignRequestSchema>;

/** AM §5 and §9: a label name has at most 15 characters. */
export const labelMaxLength = 15;

/** POST /api/label/add: refused past the tenant's MaximumLabelLimit with a Message (AM §8). */
export const AddLabelRequestSchema = z.object({ LabelText: visibleText('LabelText', { max: labelMaxLength }) });
export type AddLabelRequest = z.infer<typeof AddLabelRequestSchema>;

/** POST /api/label/save: ApplicationId is the ApplicationGuid; an empty Label clears it. */
export const SaveLabelRequestSchema = z.object({ ApplicationId: z.uuid('ApplicationId: must be an ApplicationGuid'), Label: z.string() });
export type SaveLabelRequest = z.infer<typeof SaveLabelRequestSchema>;

/** POST /api/application/updateowner/{id}: NewOwnerId is the owner's PublicId. */
export const UpdateOwnerRequestSchema = z.object({ NewOwnerId: z.uuid('NewOwnerId: must be an owner PublicId') });
export type UpdateOwnerRequest = z.infer<typeof UpdateOwnerRequestSchema>;

/** POST /api/application/changeprimaryemail/{id}. */
export const ChangePrimaryEmailRequestSchema = z.object({
  PrimaryEmail: z.email('PrimaryEmail: must be a valid e-mail address').check(z.maxLength(254, 'PrimaryEmail: at most 254 characters')),
});
export type ChangePrimaryEmailRequest = z.infer<typeof ChangePrimaryEmailRequestSchema>;

/** POST /api/application/changesigningmode/{id}/{mode}: AM §5 choices Online (Pin) or Print & Sign (PrintandSign). */
export const SigningModeSchema = z.enum(['Pin', 'PrintandSign']);

/** POST /api/applicant/labformmfaunlock: ApplicationId is the ApplicationGuid. */
export const UnlockApplicantRequestSchema = z.object({
  ApplicationId: z.uuid('ApplicationId: must be an ApplicationGuid'),
  IndividualId: z.string().check(z.minLength(1, 'IndividualId: required'), z.maxLength(100, 'IndividualId: too long')),
  InstanceName: z.string().check(z.maxLength(100, 'InstanceName: too long')),
});
export type UnlockApplicantRequest = z.infer<typeof UnlockApplicantRequestSchema>;

/** AM §2 Email resume link / Resend email: the optional message (sanitised by the server). */
export const personalisedMessageMaxLength = 1000;
export const EmailRequestSchema = z.object({
  PersonalisedMessage: z.optional(
    z.string().check(z.maxLength(personalisedMessageMaxLength, `PersonalisedMessage: at most ${personalisedMessageMaxLength} characters`)),
  ),
});
export type EmailRequest = z.infer<typeof EmailRequestSchema>;

/** POST /api/application/resendindividualresumelinkemail/{id}: one applicant's resume link. */
export const IndividualEmailRequestSchema = z.object({
  IndividualId: z.string().check(z.minLength(1, 'IndividualId: required'), z.maxLength(100, 'IndividualId: too long')),
  PersonalisedMessage: EmailRequestSchema.shape.PersonalisedMessage,
});
export type IndividualEmailRequest = z.infer<typeof IndividualEmailRequestSchema>;

/** POST /api/application/triggerapi: ApiName must be one of the application's ApiItems. */
export const TriggerApiRequestSchema = z.object({
  ApplicationGuid: z.uuid('ApplicationGuid: must be an ApplicationGuid'),
  ApiName: z.string().check(z.minLength(1, 'ApiName: required'), z.maxLength(100, 'ApiName: too long')),
});
export type TriggerApiRequest = z.infer<typeof TriggerApiRequestSchema>;

/** AM §7: ErrorNo 0 is success; Message says what the step answered. */
export const TriggerApiResponseSchema = z.object({ ErrorNo: z.int(), Message: z.string() });
export type TriggerApiResponse = z.infer<typeof TriggerApiResponseSchema>;

/** GET /api/report?ApplicationGuid=…&ReportName=…: a PDF attachment; ReportName one of the ReportItems. */
export const ReportQuerySchema = z.object({
  ApplicationGuid: z.uuid('ApplicationGuid: must be an ApplicationGuid'),
  ReportName: z.string().check(z.minLength(1, 'ReportName: required'), z.maxLength(100, 'ReportName: too long')),
});
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

/** POST /api/application/requestedit/{guid} (ARCHITECTURE §5). */
export const RequestEditRequestSchema = z.object({ ConfirmationAccepted: z.boolean() });
export type RequestEditRequest = z.infer<typeof RequestEditRequestSchema>;

export const requestEditSuccess = 'Success';
/** A completed application: editing resets approvals, so the person must confirm first (AM §4). */
export const requestEditRequireConfirmation = 'RequireConfirmation';
export const RequestEditResponseSchema = z.object({ Result: z.string(), Url: z.string() });
export type RequestEditResponse = z.infer<typeof RequestEditResponseSchema>;

/** GET /api/application/requestview/{guid}. */
export const RequestViewResponseSchema = z.object({ Url: z.string() });
export type RequestViewResponse = z.infer<typeof RequestViewResponseSchema>;

/** PUT /api/application/depersonalise/{guid}. */
export const DepersonaliseResponseSchema = z.object({ OverallSuccess: z.boolean(), ErrorMessage: z.string() });
export type DepersonaliseResponse = z.infer<typeof DepersonaliseResponseSchema>;

/** AM §8 texts of the action modals. */
export const actionTexts = {
  completed: 'Completed successfully.',
  unknownError: 'An unknown error occurred.',
  emailSent: 'Email has been sent.',
  depersonalised: 'Depersonalisation completed successfully.',
  depersonaliseFailed: 'The request failed for unknown reasons.',
} as const;
