import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  ErrorNoResultSchema,
  InviteUserRequestSchema,
  InviteUserResponseSchema,
  ModifyPermissionsQuerySchema,
  RoleListSchema,
  UserActionRequestSchema,
  UserActionResultSchema,
  UserExportQuerySchema,
  UserListQuerySchema,
  UserListResponseSchema,
  inviteTexts,
  permissionTexts,
  userActionTexts,
  userExportFileName,
  type UserListRow,
} from '../../src/schemas/users.schema.ts';
import { userClaimNames } from '../../src/domain/user-claims.ts';
import { csvRecord } from '../../src/domain/list-csv.ts';
import { isAdminStaffRole, userStatusDisplay, type UserAction } from '../../src/domain/user-status.ts';
import { australianMobileOnlyText, isAustralianMobile } from '../../src/domain/australian-mobile.ts';
import { cleanPersonalisedMessage } from '../providers/mail/compose.ts';
import { attachmentHeader } from '../content-disposition.ts';
import { HttpError, badRequest, forbidden, notFound } from '../http-error.ts';
import type { Mailer } from '../providers/mail/mailer.ts';
import { users } from '../db/schema.ts';
import { versionedAnswers } from '../db/versioned-answers.ts';
import {
  findTenantRole,
  findTenantUser,
  listUsers,
  recordUserAudit,
  setApplicationAccess,
  tenantRoleList,
  touchUserRow,
  usersForExport,
} from '../db/users-store.ts';
import { applyAccountAction } from '../identity/account-status.ts';
import { hashPassword } from '../identity/passwords.ts';
import {
  invitationMessage,
  invitationPath,
  newInvitationToken,
  revokeInvitations,
  sendInvitation,
  storeInvitation,
} from '../identity/invitations.ts';
import type { AccessRule } from './auth.ts';
import { linkOrigin } from '../tenancy.ts';
import { principalOf, tenantOf, type RouteContext } from './context.ts';
import { tenantSettingsOf } from './configuration.routes.ts';

/** SUV §6 user-management claims (shared with the page). */
export const userClaims = userClaimNames;

const rule = (...claims: string[]): AccessRule => ({
  scope: 'applicationmanager',
  claims: [userClaims.access, ...claims],
});

export const defaultRowsPerPage = 20;
export const maxRowsPerPage = 100;

export const ownPermissionsMessage = 'You cannot edit your own permissions.';
export const ownAccountMessage = 'You cannot deactivate your own account.';
export const unknownUserMessage = 'This user does not exist in this tenant.';
export const notAdminStaffMessage = 'Application access applies only to the admin staff roles.';
export const deactivatedAccessMessage = 'A deactivated user’s application access cannot be changed.';
export const notInvitedMessage = 'This user has already accepted their invitation.';

const actionVerb: Record<UserAction, string> = {
  unlock: 'unlocked',
  reactivate: 'reactivated',
  deactivate: 'deactivated',
};
export const transitionRefusal = (status: string, action: UserAction) =>
  `The user is ${userStatusDisplay(status).label}: they cannot be ${actionVerb[action]}.`;

const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Names are shown back: no direction controls or other control characters (ARCHITECTURE §3). */
const cleanName = (value: string) =>
  cleanPersonalisedMessage(value).replace(bidiControls, '').replace(/\s+/g, ' ').trim();

const pageNumber = (value: string | undefined, field: string, fallback: number, max: number) => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (number < 1 || number > max) throw badRequest(`${field}: must be between 1 and ${max}`);
  return number;
};

/** The export's columns: what the users page shows, with the e-mail. */
const exportColumns = [
  'First Name',
  'Last Name',
  'Email',
  'Role',
  'Status',
  'Application Access',
  'Last Activity (UTC)',
];

/** One CSV record of a user, in `exportColumns` order. */
const exportRow = (row: UserListRow) => [
  row.FirstName,
  row.LastName,
  row.Email,
  row.RoleName,
  userStatusDisplay(row.Status).label,
  isAdminStaffRole(row.RoleName) ? (row.HasApplicationAccess ? 'Yes' : 'No') : '',
  row.LastSuccessfulLoginTimestamp === null ? 'Never logged in' : new Date(row.LastSuccessfulLoginTimestamp * 1000).toISOString().slice(0, 16).replace('T', ' '),
];

const uniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ((error as { code?: unknown }).code === '23505' || uniqueViolation((error as { cause?: unknown }).cause));

/**
 * User management (SUV §2–§9, issue 28): the tenant's identity-provider accounts. Every route needs
 * usermanagement.access and its own claim; a user of another tenant is a 404; every change is
 * audited in its transaction (server/db/users-store.ts).
 */
export function registerUserRoutes({ app, db, access, config }: RouteContext, mailer: Mailer) {
  const listAnswers = versionedAnswers<Awaited<ReturnType<typeof listUsers>>>(db, 'users');
  app.get(
    '/api/roles',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule()),
      schema: { response: { 200: RoleListSchema } },
    },
    async (request) => tenantRoleList(db, tenantOf(request).id),
  );

  app.get(
    '/api/users/list',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule()),
      schema: { querystring: UserListQuerySchema, response: { 200: UserListResponseSchema } },
    },
    async (request) => {
      const { PageNo, RowsPerPage, SearchQuery } = request.query;
      const tenantId = tenantOf(request).id;
      const page = {
        pageNo: pageNumber(PageNo, 'PageNo', 1, 100_000),
        rowsPerPage: pageNumber(RowsPerPage, 'RowsPerPage', defaultRowsPerPage, maxRowsPerPage),
        search: SearchQuery,
      };
      return listAnswers(tenantId, JSON.stringify(page), () => listUsers(db, tenantId, page));
    },
  );

  app.get(
    '/api/users/exportall',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule(userClaims.export)),
      schema: { querystring: UserExportQuerySchema },
    },
    async (request, reply) => {
      const batches = usersForExport(db, tenantOf(request).id, request.query.SearchQuery);
      // The first batch is read before anything is sent: a failing query is an error answer, not a short CSV.
      const first = await batches.next();
      // UTF-8 BOM so Excel reads the names as written. Every record goes through the one CSV writer
      // of every export (src/domain/list-csv.ts: formulas neutralised, separators of any locale
      // quoted; issue 38 point 7). A batch is one string (the stream is pulled a batch at a time,
      // so memory holds one batch).
      async function* csv() {
        yield `\uFEFF${csvRecord(exportColumns)}`;
        let next = first;
        while (!next.done) {
          let chunk = '';
          for (const row of next.value) chunk += csvRecord(exportRow(row));
          yield chunk;
          next = await batches.next();
        }
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentHeader(userExportFileName))
        .header('cache-control', 'no-store')
        .send(Readable.from(csv()));
    },
  );

  app.post(
    '/api/users/invite',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule(userClaims.invite)),
      schema: { body: InviteUserRequestSchema, response: { 200: InviteUserResponseSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const body = request.body;
      const firstName = cleanName(body.firstName);
      const lastName = cleanName(body.lastName);
      if (!firstName) throw badRequest('firstName: must hold visible characters');
      if (!lastName) throw badRequest('lastName: must hold visible characters');
      // The tenant's setting holds here as in the modal: the API may be called without the portal.
      if (tenantSettingsOf(tenant).AustralianMobileNumberOnly && !isAustralianMobile(body.MobileNumber))
        throw badRequest(`MobileNumber: ${australianMobileOnlyText}`);
      const email = body.email.trim().toLowerCase();
      const role = await findTenantRole(db, tenant.id, body.RoleId);
      if (!role) return { ErrorNo: 2, Message: inviteTexts.unknownRole, UserGuid: '' };
      // The e-mail is the sign-in name: unique in the tenant (the unique index catches a race).
      const [existing] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.tenantId, tenant.id), eq(users.email, email)))
        .limit(1);
      if (existing) return { ErrorNo: 1, Message: inviteTexts.duplicate, UserGuid: '' };
      const token = newInvitationToken();
      // Nobody knows this password: the invited person sets theirs through the link.
      const unusable = await hashPassword(newInvitationToken());
      const url = `${linkOrigin(tenant, config)}${invitationPath(token)}`;
      try {
        const userId = await sendInvitation(
          db,
          mailer,
          invitationMessage(tenant, { email, firstName }, url, principal.displayName),
          { tenantId: tenant.id, senderId: principal.userId },
          async (tx) => {
            const [created] = await tx
              .insert(users)
              .values({
                tenantId: tenant.id,
                email,
                firstName,
                lastName,
                roleName: role.name,
                claims: role.claims,
                passwordHash: unusable,
                status: 'Invited',
                mobileNumber: body.MobileNumber,
              })
              .returning({ id: users.id });
            const id = created!.id;
            await storeInvitation(tx, {
              tenantId: tenant.id,
              userId: id,
              token,
              createdBy: principal.userId,
            });
            await recordUserAudit(tx, {
              tenantId: tenant.id,
              actorUserId: principal.userId,
              targetUserId: id,
              action: 'invite',
              detail: `${email} as ${role.name}`,
            });
            return id;
          },
        );
        return { ErrorNo: 0, Message: inviteTexts.sent, UserGuid: userId };
      } catch (error) {
        if (uniqueViolation(error)) return { ErrorNo: 1, Message: inviteTexts.duplicate, UserGuid: '' };
        throw error;
      }
    },
  );

  /** The user named in the request, of this tenant (404 otherwise). */
  async function targetOf(request: FastifyRequest, userId: string) {
    const user = await findTenantUser(db, tenantOf(request).id, userId);
    if (!user) throw notFound(unknownUserMessage);
    return user;
  }

  app.post(
    '/api/users/modifypermissions',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule(userClaims.editAccess)),
      schema: { querystring: ModifyPermissionsQuerySchema, response: { 200: ErrorNoResultSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const { assigneeUserGlobalId, editApplicationPermissionRequestType } = request.query;
      if (assigneeUserGlobalId.toLowerCase() === principal.userId.toLowerCase())
        throw forbidden(ownPermissionsMessage);
      const target = await targetOf(request, assigneeUserGlobalId);
      if (!isAdminStaffRole(target.roleName)) throw new HttpError(409, notAdminStaffMessage);
      if (target.status === 'Deactivated') throw new HttpError(409, deactivatedAccessMessage);
      const grant = editApplicationPermissionRequestType === 'Grant';
      await db.transaction(async (tx) => {
        await setApplicationAccess(tx, target.id, grant);
        await recordUserAudit(tx, {
          tenantId: target.tenantId,
          actorUserId: principal.userId,
          targetUserId: target.id,
          action: grant ? 'grantApplicationAccess' : 'revokeApplicationAccess',
        });
      });
      return { ErrorNo: 0, Message: permissionTexts.updated };
    },
  );

  const statusRoutes: { path: string; action: UserAction; claim: string }[] = [
    { path: '/api/users/enableuser', action: 'reactivate', claim: userClaims.enableDisable },
    { path: '/api/users/disableuser', action: 'deactivate', claim: userClaims.enableDisable },
    { path: '/api/users/unlockuser', action: 'unlock', claim: userClaims.unlock },
  ];
  for (const { path, action, claim } of statusRoutes) {
    app.post(
      path,
      {
        config: { application: 'none' },
        onRequest: access.requireAccess(rule(claim)),
        schema: { body: UserActionRequestSchema, response: { 200: UserActionResultSchema } },
      },
      async (request) => {
        const principal = principalOf(request);
        const target = await targetOf(request, request.body.GlobalUserId);
        if (action === 'deactivate' && target.id === principal.userId)
          throw new HttpError(409, ownAccountMessage);
        const applied = await db.transaction(async (tx) => {
          if (!(await applyAccountAction(tx, target, action, principal.userId))) return false;
          await recordUserAudit(tx, {
            tenantId: target.tenantId,
            actorUserId: principal.userId,
            targetUserId: target.id,
            action,
            detail: `from ${target.status}`,
          });
          return true;
        });
        if (!applied) throw new HttpError(409, transitionRefusal(target.status, action));
        return { Success: true, Message: userActionTexts[action].success };
      },
    );
  }

  app.post(
    '/api/users/resendinvitation',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule(userClaims.invite)),
      schema: { body: UserActionRequestSchema, response: { 200: UserActionResultSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(request);
      const target = await targetOf(request, request.body.GlobalUserId);
      if (target.status !== 'Invited') throw new HttpError(409, notInvitedMessage);
      const token = newInvitationToken();
      const url = `${linkOrigin(tenant, config)}${invitationPath(token)}`;
      await sendInvitation(
        db,
        mailer,
        invitationMessage(tenant, target, url, principal.displayName),
        { tenantId: tenant.id, senderId: principal.userId },
        async (tx) => {
          await storeInvitation(tx, {
            tenantId: tenant.id,
            userId: target.id,
            token,
            createdBy: principal.userId,
          });
          await recordUserAudit(tx, {
            tenantId: tenant.id,
            actorUserId: principal.userId,
            targetUserId: target.id,
            action: 'resendInvitation',
          });
          // The row's invitation is live again (it may have been revoked): the list must say so.
          await touchUserRow(tx, target.id);
        },
      );
      return { Success: true, Message: userActionTexts.resendInvitation.success };
    },
  );

  app.post(
    '/api/users/revokeinvitation',
    {
      config: { application: 'none' },
      onRequest: access.requireAccess(rule(userClaims.invite)),
      schema: { body: UserActionRequestSchema, response: { 200: UserActionResultSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const target = await targetOf(request, request.body.GlobalUserId);
      if (target.status !== 'Invited') throw new HttpError(409, notInvitedMessage);
      const revoked = await db.transaction(async (tx) => {
        if (!(await revokeInvitations(tx, target.id))) return false;
        // The row now says the invitation was revoked: the list's kept answers must move on.
        await touchUserRow(tx, target.id);
        await recordUserAudit(tx, {
          tenantId: target.tenantId,
          actorUserId: principal.userId,
          targetUserId: target.id,
          action: 'revokeInvitation',
        });
        return true;
      });
      if (!revoked) throw new HttpError(409, 'This user has no open invitation to revoke.');
      return { Success: true, Message: userActionTexts.revokeInvitation.success };
    },
  );
}
