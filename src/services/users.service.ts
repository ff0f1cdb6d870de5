import {
  ErrorNoResultSchema,
  InviteUserResponseSchema,
  RoleListSchema,
  UserActionResultSchema,
  UserListResponseSchema,
  userExportFileName,
  type ErrorNoResult,
  type InviteUserRequest,
  type InviteUserResponse,
  type PermissionRequestType,
  type Role,
  type UserActionResult,
  type UserListResponse,
} from '../schemas/users.schema.ts';
import { ApiErrorSchema } from '../schemas/errors.schema.ts';
import { HttpError, downloadFile, getJson, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** The list's query as the server takes it: page and rows from 1, the search only when set. */
export interface UserListRequest {
  pageNo: number;
  rowsPerPage: number;
  query: string;
}

const searchParams = (request: Pick<UserListRequest, 'query'>, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams(extra);
  if (request.query.trim() !== '') params.set('SearchQuery', request.query.trim());
  return params.toString();
};

/** SUV §7 GET /users/list. */
export function listUsers(request: UserListRequest): Promise<UserListResponse> {
  return getJson(
    api(`/users/list?${searchParams(request, { PageNo: String(request.pageNo), RowsPerPage: String(request.rowsPerPage) })}`),
    UserListResponseSchema,
  );
}

/** SUV §7 GET /roles. */
export function listRoles(): Promise<Role[]> {
  return getJson(api('/roles'), RoleListSchema);
}

/**
 * SUV §7 POST /users/invite. A refusal with the server's reason (a 4xx other than 401 whose body
 * names the field, e.g. a last name over 100 characters) is answered as a refused invite with that
 * Message, so the modal shows it (SUV §8 "otherwise the server Message is shown"; issue 39 point
 * 12); only no answer or a server failure throws, for the generic text.
 */
export async function inviteUser(request: InviteUserRequest): Promise<InviteUserResponse> {
  try {
    return await postJson(api('/users/invite'), request, InviteUserResponseSchema);
  } catch (error) {
    if (error instanceof HttpError && error.status >= 400 && error.status < 500 && error.status !== 401) {
      const refusal = ApiErrorSchema.safeParse(error.body);
      if (refusal.success) return { ErrorNo: error.status, Message: refusal.data.message, UserGuid: '' };
    }
    throw error;
  }
}

/** SUV §7 POST /users/modifypermissions?assigneeUserGlobalId=&editApplicationPermissionRequestType=. */
export function modifyPermissions(userId: string, type: PermissionRequestType): Promise<ErrorNoResult> {
  const params = new URLSearchParams({ assigneeUserGlobalId: userId, editApplicationPermissionRequestType: type });
  return postJson(api(`/users/modifypermissions?${params.toString()}`), {}, ErrorNoResultSchema);
}

const userActionPaths = {
  reactivate: '/users/enableuser',
  deactivate: '/users/disableuser',
  unlock: '/users/unlockuser',
  resendInvitation: '/users/resendinvitation',
  revokeInvitation: '/users/revokeinvitation',
} as const;
export type UserActionCall = keyof typeof userActionPaths;

/** ARCHITECTURE §5: POST /users/enableuser|disableuser|unlockuser (and the invitation's resend/revoke) with `{ GlobalUserId }`. */
export function userAction(action: UserActionCall, userId: string): Promise<UserActionResult> {
  return postJson(api(userActionPaths[action]), { GlobalUserId: userId }, UserActionResultSchema);
}

/** SUV §7 GET /users/exportall, saved as userlist.csv: every user of the tenant (SUV §1 "export the user list"), whatever the page's search. */
export function exportUsers(): Promise<void> {
  return downloadFile(api('/users/exportall'), userExportFileName, { accept: 'text/csv', timeoutMs: 120_000 });
}
