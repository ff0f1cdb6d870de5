import {
  AccountInfoSchema,
  ChangePasswordResponseSchema,
  LogoutSchema,
  PingSchema,
  type AccountInfo,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  type Ping,
} from '../schemas/account.schema.ts';
import { getJson, postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** GET /account/info: the signed-in user's claims, display name and e-mail. */
export function accountInfo(): Promise<AccountInfo> {
  return getJson(api('/account/info'), AccountInfoSchema);
}

/** GET /account/ping: keeps the server session alive while the list is open (AM §4). */
export function ping(): Promise<Ping> {
  return getJson(api('/account/ping'), PingSchema);
}

/** GET /account/logout: ends this browser's identity session and its grants on the server. */
export async function logout(): Promise<void> {
  await getJson(api('/account/logout'), LogoutSchema);
}

/** AM §7: the identity service's change password; `result` 2 means changed and signed out everywhere. */
export function changePassword(request: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return postJson(
    `${runtimeConfig().identityBase}/account/changepassword`,
    request,
    ChangePasswordResponseSchema,
  );
}
