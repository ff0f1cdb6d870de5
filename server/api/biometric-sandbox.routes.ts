import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import * as z from 'zod/mini';
import { html, raw } from '../html.ts';
import type { Database } from '../db/client.ts';
import { completeBiometric, findByInviteToken } from '../db/verifications-store.ts';
import type { IdentityVerificationProvider } from '../providers/identity-verification/identity-verification-provider.ts';
import { tenantOf, type TypedApp } from './context.ts';
import { overallResultText } from '../../src/domain/verifications.ts';
import {
  overallResultOf,
  providerReferenceOf,
  statusOfResult,
} from '../providers/identity-verification/overall-result.ts';

/**
 * The biometric invite's sandbox page (README "Biometric SMS invite"): the SMS in the outbox links
 * here. Opening the link (GET) only shows the page, so a link preview or a mail scanner completes
 * nothing; its button (POST) stands in for the document-and-selfie capture and completes the check
 * once, with the identity-verification sandbox's outcome for the person's name.
 */
export const biometricInvitePath = (token: string) => `/entity-verification/sandbox/biometric/${token}`;

/**
 * How long the SMS's link works (issue 38 point 11): the portal tells staff to check back "in the
 * next 48 hours" (SUV §9), so the link lasts that long, and no longer.
 */
export const biometricInviteLifetimeHours = 48;
/** The link of a record sent after this instant still works. */
const sentAfter = () => new Date(Date.now() - biometricInviteLifetimeHours * 3_600_000);
export const biometricCompleteLabel = 'Complete verification';
export const biometricDoneText =
  'Thank you. Your identity verification is complete; you can close this page.';
export const biometricUsedText = 'This verification link has already been used or is no longer valid.';

const InviteParamsSchema = z.object({
  token: z.string().check(z.regex(/^[A-Za-z0-9_-]{32}$/, 'token: must be an invite token')),
});

function send(reply: FastifyReply, status: number, title: string, main: string) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta name="robots" content="noindex" />
            <title>${title}</title>
            <style nonce="${nonce}">
              body {
                margin: 0;
                font:
                  16px/1.5 system-ui,
                  -apple-system,
                  'Segoe UI',
                  Roboto,
                  sans-serif;
                color: #1d2430;
                background: #f3f5f8;
              }
              main {
                max-width: 560px;
                margin: 32px auto;
                padding: 24px;
                background: #fff;
                border-radius: 12px;
              }
              button {
                font: inherit;
                padding: 10px 20px;
                border-radius: 8px;
                border: 0;
                background: #0b5cad;
                color: #fff;
                cursor: pointer;
              }
              button:focus-visible {
                outline: 3px solid #f0a202;
                outline-offset: 2px;
              }
              .note {
                color: #5b6675;
              }
            </style>
          </head>
          <body>
            <main>${raw(main)}</main>
          </body>
        </html>`,
    );
}

export function registerBiometricSandboxRoutes(
  app: TypedApp,
  db: Database,
  identity: IdentityVerificationProvider,
) {
  const title = 'Identity verification (sandbox)';

  app.get(
    '/entity-verification/sandbox/biometric/:token',
    { schema: { params: InviteParamsSchema } },
    async (request, reply) => {
      // Only on the tenant's own hosts: the token is the credential, the host says whose it may be.
      const record = await findByInviteToken(db, tenantOf(request).id, request.params.token, sentAfter());
      if (!record || record.status !== 'Pending')
        return send(
          reply,
          404,
          title,
          html`<h1>${title}</h1>
            <p role="alert">${biometricUsedText}</p>`,
        );
      return send(
        reply,
        200,
        title,
        html`<h1>${title}</h1>
          <p>
            Hello ${record.subjectName}. A real provider would now ask for a photo of your ID document and a
            selfie.
          </p>
          <p class="note">
            Sandbox: the result follows from the name (README "Identity verification sandbox").
          </p>
          <form method="post"><button type="submit">${biometricCompleteLabel}</button></form>`,
      );
    },
  );

  app.post(
    '/entity-verification/sandbox/biometric/:token',
    { config: { application: 'none' }, schema: { params: InviteParamsSchema } },
    async (request, reply) => {
      // Only on the tenant's own hosts: the token is the credential, the host says whose it may be.
      const record = await findByInviteToken(db, tenantOf(request).id, request.params.token, sentAfter());
      if (!record || record.status !== 'Pending')
        return send(
          reply,
          404,
          title,
          html`<h1>${title}</h1>
            <p role="alert">${biometricUsedText}</p>`,
        );
      const [firstName = '', ...rest] = record.subjectName.split(' ');
      const result = await identity.verify({
        mode: 'NewEnquiry',
        individual: { firstName, lastName: rest.at(-1) ?? '', dateOfBirth: '', address: '' },
      });
      const overallResult = overallResultOf(result.outcome);
      const completed = await completeBiometric(
        db,
        { tenantId: record.tenantId, token: request.params.token, sentAfter: sentAfter() },
        {
          status: statusOfResult(overallResult),
          overallResult,
          providerReference: providerReferenceOf(identity.name, record.id),
        },
        new Date(Math.floor(Date.now() / 1000) * 1000),
      );
      if (!completed)
        return send(
          reply,
          404,
          title,
          html`<h1>${title}</h1>
            <p role="alert">${biometricUsedText}</p>`,
        );
      return send(
        reply,
        200,
        title,
        html`<h1>${title}</h1>
          <p role="status">${biometricDoneText}</p>
          <p class="note">Sandbox result: ${overallResultText(overallResult)}</p>`,
      );
    },
  );
}
