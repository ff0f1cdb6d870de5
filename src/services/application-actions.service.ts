import {
  ActionResultSchema,
  DepersonaliseResponseSchema,
  RequestEditResponseSchema,
  RequestViewResponseSchema,
  TriggerApiResponseSchema,
  type ActionResult,
  type DepersonaliseResponse,
  type EmailRequest,
  type ReportQuery,
  type RequestEditResponse,
  type RequestViewResponse,
  type TriggerApiRequest,
  type TriggerApiResponse,
} from '../schemas/application-actions.schema.ts';
import { explainedRefusal } from './explained-refusal.ts';
import { downloadFile, getJson, postJson, putJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

/**
 * The detail screen's Actions menu, View and Edit (AM §2, §7; ARCHITECTURE §5 for request edit,
 * request view and depersonalise). `{id}` in a path is the ApplicationID, `{guid}` the
 * ApplicationGuid. A refusal the server explains comes back as `{ Success: false, Message }`
 * (explained-refusal.ts); other failures throw the wrapper's typed errors, for which the confirm
 * modal shows 'An unknown error occurred.' (AM §8). The per-applicant calls (MFA unlock, one
 * applicant's resume link) and the Details-card editors are in application-editors.service.ts;
 * cancel is in applications.service.ts.
 */

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;
const segment = (value: string) => encodeURIComponent(value);

/** POST /application/unlockapplication/{id}: a Locked application is unlocked (AM §4). */
export function unlockApplication(applicationId: string): Promise<ActionResult> {
  return explainedRefusal(
    postJson(api(`/application/unlockapplication/${segment(applicationId)}`), {}, ActionResultSchema),
  );
}

/** POST /application/emailresumelink/{id} {PersonalisedMessage?}: the resume link to the primary applicant. */
export function emailResumeLink(applicationId: string, request: EmailRequest): Promise<ActionResult> {
  return explainedRefusal(
    postJson(api(`/application/emailresumelink/${segment(applicationId)}`), request, ActionResultSchema),
  );
}

/** POST /application/resendcompletionemail/{id} {PersonalisedMessage?}: the completion e-mail again. */
export function resendCompletionEmail(applicationId: string, request: EmailRequest): Promise<ActionResult> {
  return explainedRefusal(
    postJson(
      api(`/application/resendcompletionemail/${segment(applicationId)}`),
      request,
      ActionResultSchema,
    ),
  );
}

/** POST /application/triggerapi {ApplicationGuid, ApiName}: one of the application's ApiItems; ErrorNo 0 is success. */
export function triggerApi(request: TriggerApiRequest): Promise<TriggerApiResponse> {
  return postJson(api('/application/triggerapi'), request, TriggerApiResponseSchema);
}

const reportTimeoutMs = 120_000;

/** GET /report?ApplicationGuid=&ReportName=: the PDF, saved under the name content-disposition gives. */
export function downloadReport(query: ReportQuery): Promise<void> {
  const params = new URLSearchParams({
    ApplicationGuid: query.ApplicationGuid,
    ReportName: query.ReportName,
  });
  return downloadFile(api(`/report?${params.toString()}`), `${query.ReportName}.pdf`, {
    accept: 'application/pdf',
    timeoutMs: reportTimeoutMs,
  });
}

/**
 * POST /application/requestedit/{guid} {ConfirmationAccepted}: `{Result, Url}`. A completed
 * application answers RequireConfirmation until the person has confirmed (editing resets approvals).
 */
export function requestEdit(
  applicationGuid: string,
  confirmationAccepted: boolean,
): Promise<RequestEditResponse> {
  return postJson(
    api(`/application/requestedit/${segment(applicationGuid)}`),
    { ConfirmationAccepted: confirmationAccepted },
    RequestEditResponseSchema,
  );
}

/** GET /application/requestview/{guid}: `{Url}`, the application as the applicant sees it. */
export function requestView(applicationGuid: string): Promise<RequestViewResponse> {
  return getJson(api(`/application/requestview/${segment(applicationGuid)}`), RequestViewResponseSchema);
}

/** PUT /application/depersonalise/{guid}: scrubs the personal data irreversibly; `{OverallSuccess, ErrorMessage}`. */
export function depersonalise(applicationGuid: string): Promise<DepersonaliseResponse> {
  return putJson(
    api(`/application/depersonalise/${segment(applicationGuid)}`),
    {},
    DepersonaliseResponseSchema,
  );
}
