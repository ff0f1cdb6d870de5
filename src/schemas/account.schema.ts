import * as z from 'zod/mini';

/** GET /api/account/info: the signed-in user's claims (permissions plus Tenant:, GlobalId:, CreatedDate:). */
export const AccountInfoSchema = z.object({
  Claims: z.array(z.string()),
  DisplayName: z.string(),
  Email: z.string(),
});
export type AccountInfo = z.infer<typeof AccountInfoSchema>;

export const PingSchema = z.object({ Success: z.boolean() });
export type Ping = z.infer<typeof PingSchema>;

export const LogoutSchema = z.object({ Success: z.boolean() });

/** Identity service change password (AM §7): `result` 2 means changed and signed out everywhere. */
export const ChangePasswordRequestSchema = z.object({
  oldPassword: z.string().check(z.minLength(1, 'oldPassword is required')),
  newPassword: z.string().check(z.minLength(1, 'newPassword is required')),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const passwordChangedResult = 2;
export const ChangePasswordResponseSchema = z.object({ message: z.string(), result: z.int() });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;
