import { and, eq } from 'drizzle-orm';
import {
  ActionResultSchema,
  EmailRequestSchema,
  IndividualEmailRequestSchema,
  actionTexts,
} from '../../src/schemas/application-actions.schema.ts';
import type { ApplicationDetail } from '../../src/schemas/application-detail.schema.ts';
import { HttpError, notFound } from '../http-error.ts';
import { applicationApplicants } from '../db/schema.ts';
import { formLinkLifetimeSeconds, isUuid, signFormToken } from '../db/applications-store.ts';
import { sendRecordedEmail } from '../db/outbox-store.ts';
import type { Database } from '../db/client.ts';
import type { Mailer, MailMessage } from '../providers/mail/mailer.ts';
import { cleanPersonalisedMessage, composeEmail } from '../providers/mail/compose.ts';
import { linkOrigin, type Tenant } from '../tenancy.ts';
import type { ServerConfig } from '../config.ts';
import type { Principal } from './auth.ts';
import { ApplicationIdParamsSchema, viewApplicationRule } from './application-detail.routes.ts';
import { actionableDetail, enforceActionRule } from './application-action-checks.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';
import { applicationIdParam } from './application-write-rule.ts';

export const applicantNotFoundMessage = 'The applicant cannot be found on this application.';
export const noEmailAddressMessage = 'There is no e-mail address to send to.';

export const resumeLinkActivity = (to: string, sender: string) =>
  `Resume link e-mailed to ${to} by ${sender}`;
export const individualResumeLinkActivity = (applicant: string, to: string, sender: string) =>
  `Resume link e-mailed to ${applicant} (${to}) by ${sender}`;
export const completionEmailActivity = (to: string, sender: string) =>
  `Completion e-mail resent to ${to} by ${sender}`;

const linkHours = formLinkLifetimeSeconds / 3600;

/** The provider's application form for this application, signed for its tenant (as New application answers). */
async function resumeLink(db: Database, config: Pick<ServerConfig, 'PORT'>, tenant: Tenant, guid: string) {
  const token = await signFormToken(db, tenant.id, guid);
  return `${linkOrigin(tenant, config)}/external/application-form/${guid}?token=${encodeURIComponent(token)}`;
}

const signature = (tenant: Tenant) => [tenant.name, `${tenant.supportEmail} · ${tenant.supportPhone}`];

function resumeLinkMessage(
  tenant: Tenant,
  detail: ApplicationDetail,
  to: string,
  name: string,
  url: string,
  sender: Principal,
  personal: string,
): MailMessage {
  return {
    fromName: tenant.name,
    to,
    subject: `Continue your application with ${tenant.name}`,
    ...composeEmail({
      greeting: `Hello ${name || 'there'},`,
      paragraphs: [
        `You can continue application ${detail.ApplicationID} with ${tenant.name} where you left off:`,
      ],
      link: { url, label: 'Continue your application' },
      personalisedMessage: { from: sender.displayName, text: personal },
      closing: [`The link is valid for ${linkHours} hours. If it has expired, ask us for a new one.`],
      signature: signature(tenant),
    }),
  };
}

function completionMessage(
  tenant: Tenant,
  detail: ApplicationDetail,
  to: string,
  sender: Principal,
  personal: string,
): MailMessage {
  const completed = new Date(detail.DateCompletedTimestamp * 1000)
    .toISOString()
    .slice(0, 10)
    .split('-')
    .reverse()
    .join('/');
  return {
    fromName: tenant.name,
    to,
    subject: `Your application with ${tenant.name} is complete`,
    ...composeEmail({
      greeting: `Hello ${detail.PrimaryApplicantName || 'there'},`,
      paragraphs: [
        `Application ${detail.ApplicationID} with ${tenant.name} was completed on ${completed}. Thank you.`,
      ],
      personalisedMessage: { from: sender.displayName, text: personal },
      closing: ['There is nothing more you need to do. We will be in touch if we need anything else.'],
      signature: signature(tenant),
    }),
  };
}

const emailSent = { Success: true, Message: actionTexts.emailSent };

/**
 * AM §2 Email resume link and Resend email, AM §7 calls: each e-mail goes through the mailer and is
 * kept in the outbox with the action's activity item, in one transaction (server/db/outbox-store.ts).
 */
export function registerApplicationMessageRoutes({ app, db, access, config }: RouteContext, mailer: Mailer) {
  /** The application as the caller reads it, once the action's rule allows it (404, 403 or 409 otherwise). */
  async function judged(
    principal: Principal,
    applicationId: number,
    action: 'emailResumeLink' | 'resendCompletionEmail',
  ) {
    const detail = await actionableDetail(db, principal, applicationId);
    enforceActionRule(action, detail, principal.claims);
    return detail;
  }

  /** Sends the e-mail and keeps it in the outbox with the action's activity item, in one transaction. */
  async function sendAndRecord(
    message: MailMessage,
    tenantId: string,
    detail: ApplicationDetail,
    principal: Principal,
    activity: string,
  ) {
    await sendRecordedEmail(db, mailer, message, {
      tenantId,
      applicationId: detail.ApplicationID,
      userId: principal.userId,
      activity,
    });
    return emailSent;
  }

  app.post(
    '/api/application/emailresumelink/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: access.requireAccess(viewApplicationRule),
      schema: {
        params: ApplicationIdParamsSchema,
        body: EmailRequestSchema,
        response: { 200: ActionResultSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const detail = await judged(principal, request.params.id, 'emailResumeLink');
      if (!detail.Email) throw new HttpError(409, noEmailAddressMessage);
      const url = await resumeLink(db, config, tenant, detail.ApplicationGuid);
      const personal = cleanPersonalisedMessage(request.body.PersonalisedMessage);
      const message = resumeLinkMessage(
        tenant,
        detail,
        detail.Email,
        detail.PrimaryApplicantName,
        url,
        principal,
        personal,
      );
      return sendAndRecord(
        message,
        tenant.id,
        detail,
        principal,
        resumeLinkActivity(detail.Email, principal.displayName),
      );
    },
  );

  app.post(
    '/api/application/resendindividualresumelinkemail/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: access.requireAccess(viewApplicationRule),
      schema: {
        params: ApplicationIdParamsSchema,
        body: IndividualEmailRequestSchema,
        response: { 200: ActionResultSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const detail = await judged(principal, request.params.id, 'emailResumeLink');
      const { IndividualId } = request.body;
      const [applicant] = isUuid(IndividualId)
        ? await db
            .select({
              firstName: applicationApplicants.firstName,
              lastName: applicationApplicants.lastName,
              email: applicationApplicants.email,
            })
            .from(applicationApplicants)
            .where(
              and(
                eq(applicationApplicants.id, IndividualId.toLowerCase()),
                eq(applicationApplicants.applicationId, detail.ApplicationID),
              ),
            )
        : [];
      if (!applicant) throw notFound(applicantNotFoundMessage);
      if (!applicant.email) throw new HttpError(409, noEmailAddressMessage);
      const name = `${applicant.firstName} ${applicant.lastName}`.trim();
      const url = await resumeLink(db, config, tenant, detail.ApplicationGuid);
      const personal = cleanPersonalisedMessage(request.body.PersonalisedMessage);
      const message = resumeLinkMessage(tenant, detail, applicant.email, name, url, principal, personal);
      return sendAndRecord(
        message,
        tenant.id,
        detail,
        principal,
        individualResumeLinkActivity(name, applicant.email, principal.displayName),
      );
    },
  );

  app.post(
    '/api/application/resendcompletionemail/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: access.requireAccess(viewApplicationRule),
      schema: {
        params: ApplicationIdParamsSchema,
        body: EmailRequestSchema,
        response: { 200: ActionResultSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const detail = await judged(principal, request.params.id, 'resendCompletionEmail');
      if (!detail.Email) throw new HttpError(409, noEmailAddressMessage);
      const personal = cleanPersonalisedMessage(request.body.PersonalisedMessage);
      const message = completionMessage(tenant, detail, detail.Email, principal, personal);
      return sendAndRecord(
        message,
        tenant.id,
        detail,
        principal,
        completionEmailActivity(detail.Email, principal.displayName),
      );
    },
  );
}
