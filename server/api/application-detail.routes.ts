import * as z from 'zod';
import {
  ActivityFeedResponseSchema,
  AddCommentRequestSchema,
  ApplicationIpsResponseSchema,
  CommentsResponseSchema,
  ReloadResponseSchema,
  commentMaxLength,
  emptyCommentMessage,
  longCommentMessage,
} from '../../src/schemas/application-detail.schema.ts';
import { allAppsClaims, myAppsClaim } from '../../src/domain/claims.ts';
import { badRequest, notFound } from '../http-error.ts';
import { hasVisibleCharacter } from '../../src/schemas/visible-text.ts';
import {
  activityFeed,
  addComment,
  applicationDetailJson,
  applicationIps,
  commentsOf,
  findVisibleApplication,
} from '../db/application-detail-store.ts';
import type { Actor } from '../db/applications-store.ts';
import type { Database } from '../db/client.ts';
import { principalOf, type RouteContext } from './context.ts';
import { applicationIdParam } from './application-write-rule.ts';

const applicationManager = 'applicationmanager' as const;

/** AM §2 detail load failure: one answer for "does not exist", "another tenant's" and "not yours to see". */
export const applicationNotFoundMessage =
  'This application cannot be found. The application may no longer exist or you might not have permission to view it.';

/** `{id}` is the ApplicationID: digits only (a bigint), anything else is a 400 naming it. */
export const ApplicationIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9]{1,15}$/, 'id: must be an ApplicationID (digits)')
    .transform(Number),
});

/** Reading any part of an application takes a claim that opens a list it could be in (AM §6). */
export const viewApplicationRule = { scope: applicationManager, anyClaim: [myAppsClaim, ...allAppsClaims] } as const;

/** The application if the actor may see it; otherwise the one 404 for every reason. */
export async function visibleApplicationOr404(db: Database, actor: Actor, id: number) {
  const application = await findVisibleApplication(db, actor, id);
  if (!application) throw notFound(applicationNotFoundMessage);
  return application;
}

/**
 * AM §7 detail calls. Each needs a list claim (the application must be visible to the caller
 * through a list they may open) plus the card's own claim; parts of the detail are left out by
 * claim (AM §6): exceptions, documents and tax.
 */
export function registerApplicationDetailRoutes({ app, db, access }: RouteContext) {
  app.get(
    '/api/application/get/:id',
    {
      preValidation: access.requireAccess(viewApplicationRule),
      schema: { params: ApplicationIdParamsSchema },
    },
    async (request, reply) => {
      const json = await applicationDetailJson(db, principalOf(request), request.params.id);
      if (json === undefined) throw notFound(applicationNotFoundMessage);
      // The database wrote the JSON from typed columns (application-detail-store.ts): it goes out as
      // written, as the list's rows do (decision 001), instead of being parsed, checked and written
      // again on the event loop every request shares. It is an ApplicationDetail: the route tests
      // parse every detail they read with ApplicationDetailSchema, and so does the portal.
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(json);
    },
  );

  app.get(
    '/api/application/get/ips/:id',
    {
      preValidation: access.requireAccess({ ...viewApplicationRule, claims: ['vpnsummary.view'] }),
      schema: { params: ApplicationIdParamsSchema, response: { 200: ApplicationIpsResponseSchema } },
    },
    async (request) => {
      const application = await visibleApplicationOr404(db, principalOf(request), request.params.id);
      return { ApplicationIps: await applicationIps(db, application.id) };
    },
  );

  app.get(
    '/api/application/activityfeed/:id',
    {
      preValidation: access.requireAccess(viewApplicationRule),
      schema: { params: ApplicationIdParamsSchema, response: { 200: ActivityFeedResponseSchema } },
    },
    async (request) => {
      const application = await visibleApplicationOr404(db, principalOf(request), request.params.id);
      return { ActivityFeedItems: await activityFeed(db, application.id) };
    },
  );

  // The application's data has no outside source in this deployment to read again from: reload
  // confirms the application is still there for the caller, and the portal refetches (AM §4).
  app.post(
    '/api/application/reload/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: access.requireAccess(viewApplicationRule),
      schema: { params: ApplicationIdParamsSchema, response: { 200: ReloadResponseSchema } },
    },
    async (request) => {
      await visibleApplicationOr404(db, principalOf(request), request.params.id);
      return { Success: true };
    },
  );

  app.get(
    '/api/comment/:id',
    {
      preValidation: access.requireAccess({ ...viewApplicationRule, claims: ['comments.view'] }),
      schema: { params: ApplicationIdParamsSchema, response: { 200: CommentsResponseSchema } },
    },
    async (request) => {
      const application = await visibleApplicationOr404(db, principalOf(request), request.params.id);
      return { Comments: await commentsOf(db, application.id) };
    },
  );

  app.post(
    '/api/comment/:id',
    {
      config: { application: applicationIdParam() },
      preValidation: access.requireAccess({ ...viewApplicationRule, claims: ['comment.add'] }),
      schema: { params: ApplicationIdParamsSchema, body: AddCommentRequestSchema, response: { 200: CommentsResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      // AM §5: the same rules as the portal's field, on the trimmed text; nothing visible is empty.
      const comment = request.body.Comment.trim();
      if (!hasVisibleCharacter(comment)) throw badRequest(emptyCommentMessage);
      if (comment.length > commentMaxLength) throw badRequest(longCommentMessage);
      const application = await visibleApplicationOr404(db, principal, request.params.id);
      await addComment(db, principal, application.id, comment);
      return { Comments: await commentsOf(db, application.id) };
    },
  );
}
