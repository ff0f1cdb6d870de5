import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import {
  ApplicationListQuerySchema,
  CancelApplicationsRequestSchema,
  CancelApplicationsResponseSchema,
  ExportLinkResponseSchema,
  NewApplicationResponseSchema,
  NewOnBehalfRequestSchema,
  NewOnBehalfResponseSchema,
  newApplicationSuccess,
} from '../../src/schemas/applications.schema.ts';
import { allAppsClaims, myAppsClaim } from '../../src/domain/claims.ts';
import { parseListRequest, type ListRequest, type RawListQuery } from '../../src/domain/list-request.ts';
import type { DataColumnName } from '../../src/domain/list-columns.ts';
import { badRequest, forbidden, notFound } from '../http-error.ts';
import { visibleText } from '../../src/schemas/visible-text.ts';
import { attachmentHeader } from '../content-disposition.ts';
import { html, raw } from '../html.ts';
import { listEngineFor } from '../db/applications-list.ts';
import { listPageJson } from '../db/list-rows.ts';
import { exportApplicationsCsv } from '../db/applications-export.ts';
import type { ListScope } from '../db/applications-list.ts';
import { consumeExportLink, ExportDownloadParamsSchema, exportLinkLifetimeSeconds, issueExportLink } from './export-links.ts';
import {
  allAppsScope,
  cancelApplications,
  createApplication,
  findApplicationByGuid,
  findOwner,
  myAppsScope,
  ownerForActor,
  saveFormDetails,
  signFormToken,
  verifyFormToken,
  visibleColumns,
  type FormPurpose,
} from '../db/applications-store.ts';
import { requestOrigin } from './auth.ts';
import { cancelledLinkMessage, cancelledStatus, depersonalisedLinkMessage, depersonalisedStatus } from '../../src/domain/application-write-rule.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';
import { applicationGuidIn, applicationGuidsIn } from './application-write-rule.ts';

const applicationManager = 'applicationmanager' as const;


/** The list query, read strictly: a bad parameter is a 400 that names it. */
function listRequestOf(query: RawListQuery): ListRequest {
  const parsed = parseListRequest(query);
  if (!parsed.ok) throw badRequest(`${parsed.param}: ${parsed.message}`);
  return parsed.value;
}

/** Where the provider's application form for an application lives, signed for that tenant (read-only with purpose 'view'). */
export async function formUrl(context: Pick<RouteContext, 'db'>, request: FastifyRequest, guid: string, purpose: FormPurpose = 'edit') {
  const token = await signFormToken(context.db, tenantOf(request).id, guid, Date.now(), purpose);
  return `${requestOrigin(request)}/external/application-form/${guid}?token=${encodeURIComponent(token)}`;
}

export function registerApplicationRoutes(context: RouteContext) {
  const { app, db, access } = context;
  const engine = listEngineFor(db);

  // AM §7 list: My Apps needs view.myapps; All Apps any view.allapps.* claim (its scope decides what is in it).
  for (const view of ['my', 'all'] as const) {
    app.get(
      view === 'my' ? '/api/application/list' : '/api/application/list/all',
      {
        preValidation: access.requireAccess(
          view === 'my' ? { scope: applicationManager, claims: [myAppsClaim] } : { scope: applicationManager, anyClaim: allAppsClaims },
        ),
        schema: { querystring: ApplicationListQuerySchema },
      },
      async (request, reply) => {
        const listRequest = listRequestOf(request.query);
        const principal = principalOf(request);
        const page = await engine.page({
          ...listRequest,
          tenantId: principal.tenantId,
          scope: view === 'my' ? myAppsScope(principal) : allAppsScope(principal),
          reader: principal.userId,
        });
        // The rows are JSON text already, written by the database from typed readers (list-rows.ts):
        // the response is that text joined. It is an ApplicationListResponse; the route tests parse
        // every page they read with its schema.
        return reply.type('application/json; charset=utf-8').send(listPageJson(page));
      },
    );

    // Export never widens what the caller may list: app.export plus the claim of that list.
    const exportAccess = access.requireAccess(
      view === 'my'
        ? { scope: applicationManager, claims: ['app.export', myAppsClaim] }
        : { scope: applicationManager, claims: ['app.export'], anyClaim: allAppsClaims },
    );
    app.get(
      `/api/application/export/${view}`,
      { preValidation: exportAccess, schema: { querystring: ApplicationListQuerySchema } },
      async (request, reply) => {
        const principal = principalOf(request);
        const scope = view === 'my' ? myAppsScope(principal) : allAppsScope(principal);
        return sendExport(reply, principal.tenantId, scope, request.query);
      },
    );

    // The same export as a link the browser downloads itself (issue 16): checked like the export
    // now, used later by a plain GET with no token, so the page never holds the file.
    app.post(
      `/api/application/export/${view}/link`,
      {
        config: { application: 'none' },
        preValidation: exportAccess,
        schema: { querystring: ApplicationListQuerySchema, response: { 200: ExportLinkResponseSchema } },
      },
      async (request) => {
        listRequestOf(request.query);
        const principal = principalOf(request);
        const scope = view === 'my' ? myAppsScope(principal) : allAppsScope(principal);
        const token = await issueExportLink(db, { tenantId: principal.tenantId, scope, query: request.query });
        return { Url: `${requestOrigin(request)}/api/application/export/download/${token}`, ExpiresInSeconds: exportLinkLifetimeSeconds };
      },
    );
  }

  app.get(
    '/api/application/export/download/:token',
    { schema: { params: ExportDownloadParamsSchema } },
    async (request, reply) => {
      const link = await consumeExportLink(db, tenantOf(request).id, request.params.token);
      if (!link) throw notFound('This download link is unknown, used or expired. Export again from the list.');
      return sendExport(reply, link.tenantId, link.scope, link.query);
    },
  );

  /** export.csv of the tenant's applications in `scope` with the query's filters and sort, streamed. */
  async function sendExport(reply: FastifyReply, tenantId: string, scope: ListScope, query: RawListQuery) {
    const { filters, sort } = listRequestOf(query);
    const columns = (await visibleColumns(db, tenantId)).filter((name): name is DataColumnName => name !== 'Actions');
    const csv = exportApplicationsCsv(db, { tenantId, scope, filters, sort, columns });
    // The first batch is read before anything is sent: a query that fails is an error answer,
    // not a 200 whose CSV stops short.
    const first = await csv.next();
    async function* rest() {
      if (first.done) return;
      yield first.value;
      yield* csv;
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachmentHeader('export.csv'))
      .header('cache-control', 'no-store')
      .send(Readable.from(rest(), { highWaterMark: 2 }));
  }

  app.post(
    '/api/application/cancel',
    {
      config: { application: applicationGuidsIn('ApplicationCancellations'), cancelsApplications: true },
      preValidation: access.requireAccess({ scope: applicationManager, claims: ['app.cancel'] }),
      schema: { body: CancelApplicationsRequestSchema, response: { 200: CancelApplicationsResponseSchema } },
    },
    async (request) => {
      const guids = request.body.ApplicationCancellations.map((item) => item.ApplicationGuid);
      const results = await cancelApplications(db, principalOf(request), guids, (error, guid) =>
        request.log.error({ err: error, guid }, 'cancelling an application failed'),
      );
      return { Results: results };
    },
  );

  app.post(
    '/api/application/new',
    {
      config: { application: 'none' },
      preValidation: access.requireAccess({ scope: applicationManager, claims: ['app.create'] }),
      schema: { response: { 200: NewApplicationResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const owner = await ownerForActor(db, principal);
      const created = await createApplication(db, principal, owner);
      return { Result: newApplicationSuccess, Message: `Application ${created.id} created.`, Url: await formUrl(context, request, created.guid) };
    },
  );

  app.post(
    '/api/application/newonbehalf',
    {
      config: { application: 'none' },
      preValidation: access.requireAccess({ scope: applicationManager, claims: ['app.createonbehalf'] }),
      schema: { body: NewOnBehalfRequestSchema, response: { 200: NewOnBehalfResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const owner = await findOwner(db, principal.tenantId, request.body.OwnerId, request.body.GlobalUserId);
      if (!owner) throw notFound('OwnerId: no such owner in this tenant.');
      const created = await createApplication(db, principal, owner);
      return { Result: newApplicationSuccess, Url: await formUrl(context, request, created.guid) };
    },
  );

  registerApplicationFormPage(context);
}

const FormParamsSchema = z.object({ guid: z.string() });
const cancelled = (application: { status: string }) => application.status === cancelledStatus;
const FormQuerySchema = z.object({ token: z.string().default(''), saved: z.string().optional() });
const FormBodySchema = z.object({
  token: z.string().default(''),
  AccountName: visibleText('AccountName', { max: 200, allowEmpty: true }),
  ClientName: visibleText('ClientName', { max: 200, allowEmpty: true }),
  PrimaryEmail: z.union([z.literal(''), z.email('PrimaryEmail: must be an e-mail address')]),
});

/**
 * The provider's external application form, which New and Request edit open in a new window. The
 * window has no bearer token, so the link carries a signed, expiring token for that application;
 * another tenant's application is a 404 like any unknown one.
 */
function registerApplicationFormPage({ app, db }: RouteContext) {
  async function load(request: FastifyRequest, guid: string, token: string) {
    const tenant = request.tenant;
    if (!tenant) throw notFound('Unknown tenant.');
    const application = await findApplicationByGuid(db, tenant.id, guid);
    if (!application) throw notFound('This application cannot be found.');
    // Request view's link (purpose 'view') shows the same page without the form.
    const purpose: FormPurpose | undefined = (await verifyFormToken(db, tenant.id, application.guid, token))
      ? 'edit'
      : (await verifyFormToken(db, tenant.id, application.guid, token, Date.now(), 'view'))
        ? 'view'
        : undefined;
    if (!purpose) throw forbidden('The link is invalid or has expired.');
    return { tenant, application, purpose };
  }

  function send(reply: FastifyReply, page: (nonce: string) => string) {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      )
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page(nonce));
  }

  app.get(
    '/external/application-form/:guid',
    { schema: { params: FormParamsSchema, querystring: FormQuerySchema } },
    async (request, reply) => {
      const { tenant, application, purpose } = await load(request, request.params.guid, request.query.token);
      // Depersonalising ends every link of the application: what it showed is gone, and so is the form.
      if (application.status === depersonalisedStatus) return send(reply.code(410), (nonce) => unavailablePage(tenant.name, tenant.primaryColor, nonce));
      return send(reply, (nonce) =>
        html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Application ${application.id} · ${tenant.name}</title>
<style nonce="${nonce}">
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1d2430; background: #f3f5f8; }
  main { max-width: 560px; margin: 32px auto; background: #fff; border-radius: 12px; padding: 32px; border-top: 4px solid ${tenant.primaryColor}; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; box-sizing: border-box; padding: 10px 12px; border: 1px solid #b8c0cc; border-radius: 8px; font: inherit; }
  button { margin-top: 24px; padding: 12px 20px; border: 0; border-radius: 8px; background: ${tenant.primaryColor}; color: #fff; font: inherit; font-weight: 600; }
  .saved { padding: 10px 12px; border-radius: 8px; background: #e7f6ec; color: #145c2e; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
  dt { font-weight: 600; }
</style>
</head>
<body>
<main>
  <h1>Application ${application.id}</h1>
  ${request.query.saved ? raw('<p class="saved" role="status">Your changes have been saved.</p>') : ''}
  <dl>
    <dt>Status</dt><dd>${application.status}</dd>
    <dt>Owner</dt><dd>${application.adviserName}</dd>
    <dt>Type</dt><dd>${application.applicationType}</dd>
  </dl>
  ${cancelled(application) ? raw(`<p class="saved" role="status">${cancelledLinkMessage}</p>`) : purpose === 'view' ? raw(html`<dl>
    <dt>Account name</dt><dd>${application.accountName}</dd>
    <dt>Client name</dt><dd>${application.clientName}</dd>
    <dt>E-mail</dt><dd>${application.primaryEmail}</dd>
  </dl>`) : raw(html`<form method="post" action="/external/application-form/${application.guid}">
    <input type="hidden" name="token" value="${request.query.token}">
    <label for="AccountName">Account name</label>
    <input id="AccountName" name="AccountName" value="${application.accountName}" maxlength="200">
    <label for="ClientName">Client name</label>
    <input id="ClientName" name="ClientName" value="${application.clientName}" maxlength="200">
    <label for="PrimaryEmail">E-mail</label>
    <input id="PrimaryEmail" name="PrimaryEmail" type="email" value="${application.primaryEmail}">
    <button type="submit">Save</button>
  </form>`)}
</main>
</body>
</html>`,
      );
    },
  );

  app.post(
    '/external/application-form/:guid',
    { config: { application: applicationGuidIn('params', 'guid') }, schema: { params: FormParamsSchema, body: FormBodySchema } },
    async (request, reply) => {
      const { tenant, application, purpose } = await load(request, request.params.guid, request.body.token);
      if (purpose !== 'edit') throw forbidden('This link only shows the application.');
      // The link outlives the application: a cancelled or depersonalised one is closed to changes by
      // the write rule this route is registered with (config.application), before this handler runs.
      await saveFormDetails(db, tenant.id, application.id, {
        accountName: request.body.AccountName,
        clientName: request.body.ClientName,
        primaryEmail: request.body.PrimaryEmail,
      });
      return reply.redirect(`/external/application-form/${application.guid}?token=${encodeURIComponent(request.body.token)}&saved=1`, 303);
    },
  );
}

/** What a link of a depersonalised application opens: that it is no longer available, and nothing of it. */
function unavailablePage(tenantName: string, colour: string, nonce: string) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Application no longer available · ${tenantName}</title>
<style nonce="${nonce}">
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1d2430; background: #f3f5f8; }
  main { max-width: 560px; margin: 32px auto; background: #fff; border-radius: 12px; padding: 32px; border-top: 4px solid ${colour}; }
</style>
</head>
<body>
<main>
  <h1>${tenantName}</h1>
  <p role="status">${depersonalisedLinkMessage}</p>
</main>
</body>
</html>`;
}
