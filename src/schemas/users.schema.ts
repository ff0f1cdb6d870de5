import * as z from 'zod/mini';

/** SUV §3 Role: the list comes from the server (GET /api/roles). */
export const RoleSchema = z.object({ TenantRoleId: z.int(), RoleName: z.string() });
export type Role = z.infer<typeof RoleSchema>;
export const RoleListSchema = z.array(RoleSchema);

const wholeNumberText = z.string().check(z.regex(/^\d{1,6}$/, 'must be a whole number'));

/** SUV §7 GET /users/list: PageNo and RowsPerPage from 1, SearchQuery over name and e-mail. */
export const UserListQuerySchema = z.object({
  PageNo: z.optional(wholeNumberText),
  RowsPerPage: z.optional(wholeNumberText),
  SearchQuery: z.optional(z.string().check(z.maxLength(200))),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

/** GET /users/exportall: the same rows the search shows. */
export const UserExportQuerySchema = z.object({ SearchQuery: z.optional(z.string().check(z.maxLength(200))) });

/** SUV §3 User (list row); LastSuccessfulLoginTimestamp is unix seconds, null when never signed in. */
export const UserListRowSchema = z.object({
  GlobalUserId: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string(),
  RoleName: z.string(),
  /** Free text: an unknown status renders as plain text. */
  Status: z.string(),
  HasApplicationAccess: z.boolean(),
  LastSuccessfulLoginTimestamp: z.nullable(z.int()),
  /** When the current lock began (unix seconds), null when not locked: the row says why and when. */
  LockedTimestamp: z.nullable(z.int()),
  /** An Invited row whose invitation an administrator revoked (issue 39 point 17); the list sets it, the export leaves it out. */
  InvitationRevoked: z.optional(z.boolean()),
});
export type UserListRow = z.infer<typeof UserListRowSchema>;

/** SUV §3 User list response. */
export const UserListResponseSchema = z.object({
  Users: z.array(UserListRowSchema),
  TotalRows: z.int(),
  MaxPage: z.int(),
});
export type UserListResponse = z.infer<typeof UserListResponseSchema>;

const visibleText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'is required'), z.maxLength(max), z.regex(/[^\s\p{Cc}\p{Cf}]/u, 'must hold visible characters'));

/** The invite's length limits: the server refuses longer, and the modal's fields stop at them (issue 39 point 12). */
export const inviteFieldLimits = { name: 100, email: 254 } as const;

/** SUV §3 Invite payload: MobileNumber with spaces removed (the portal sends it so). */
export const InviteUserRequestSchema = z.object({
  firstName: visibleText(inviteFieldLimits.name),
  lastName: visibleText(inviteFieldLimits.name),
  email: z.string().check(z.trim(), z.maxLength(inviteFieldLimits.email), z.email('must be a valid e-mail address')),
  MobileNumber: z.string().check(z.regex(/^\+?\d{6,15}$/, 'must be a phone number of digits')),
  RoleId: z.int().check(z.positive()),
});
export type InviteUserRequest = z.infer<typeof InviteUserRequestSchema>;

/** SUV §3: the reply has ErrorNo (0 = sent), Message and UserGuid ('' when nobody was invited). */
export const InviteUserResponseSchema = z.object({ ErrorNo: z.int(), Message: z.string(), UserGuid: z.string() });
export type InviteUserResponse = z.infer<typeof InviteUserResponseSchema>;

export const permissionRequestTypes = ['Grant', 'Revoke'] as const;
export type PermissionRequestType = (typeof permissionRequestTypes)[number];

/** SUV §3 Permission toggle request: both in the query string. */
export const ModifyPermissionsQuerySchema = z.object({
  assigneeUserGlobalId: z.string(),
  editApplicationPermissionRequestType: z.enum(permissionRequestTypes),
});

/** SUV §3: the permission reply has ErrorNo and Message. */
export const ErrorNoResultSchema = z.object({ ErrorNo: z.int(), Message: z.string() });
export type ErrorNoResult = z.infer<typeof ErrorNoResultSchema>;

/** ARCHITECTURE §5: enable, disable and unlock take `{ GlobalUserId }`; so do resend and revoke invitation. */
export const UserActionRequestSchema = z.object({ GlobalUserId: z.string() });
export type UserActionRequest = z.infer<typeof UserActionRequestSchema>;

export const UserActionResultSchema = z.object({ Success: z.boolean(), Message: z.string() });
export type UserActionResult = z.infer<typeof UserActionResultSchema>;

/** SUV §8 invite and permission texts, letter for letter. */
export const inviteTexts = {
  sent: 'Invitation sent.',
  failed: 'An error occurred while inviting this user. Please try again later or contact support.',
  duplicate: 'A user with this e-mail address already exists in this tenant.',
  unknownRole: 'The selected role does not exist.',
} as const;

export const permissionTexts = {
  updated: 'Permissions updated successfully',
  failed: 'Edit application access failed for unknown reasons',
  /** SUV §8: in the Additional Details flow the fallback carries a trailing full stop. */
  failedAfterInvite: 'Edit application access failed for unknown reasons.',
} as const;

/** SUV §8 user-action texts: 'User reactivated successfully.' and its error, the same pattern for the others. */
export const userActionTexts = {
  reactivate: { success: 'User reactivated successfully.', failure: 'There was an error when attempting to reactivate the user.' },
  deactivate: { success: 'User deactivated successfully.', failure: 'There was an error when attempting to deactivate the user.' },
  unlock: { success: 'User unlocked successfully.', failure: 'There was an error when attempting to unlock the user.' },
  resendInvitation: { success: 'Invitation resent.', failure: 'There was an error when attempting to resend the invitation.' },
  revokeInvitation: { success: 'Invitation revoked.', failure: 'There was an error when attempting to revoke the invitation.' },
} as const;

export const noPermissionText = 'You do not have permission to view this page.';
export const unlockConfirmText = (name: string) => `Please confirm you would like to unlock user ${name}.`;

/** SUV §7 GET /users/exportall: saved as this name. */
export const userExportFileName = 'userlist.csv';
