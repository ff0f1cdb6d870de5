import * as z from 'zod/mini';

/**
 * Sign-in, complete (issue 31; AM §7 Account): the forms of the server-rendered identity pages and
 * the portal's two-step verification calls.
 */

/** POST /account/forgotpassword (form): the e-mail to send a reset link to. */
export const ForgotPasswordFormSchema = z.object({ email: z.string().check(z.maxLength(320, 'email is too long')) });

/** POST /account/resetpassword (form): the token from the link, the new password and its confirmation. */
export const ResetPasswordFormSchema = z.object({
  token: z.string().check(z.maxLength(200, 'token is too long')),
  password: z.string().check(z.maxLength(200, 'password is too long')),
  confirm: z.string().check(z.maxLength(200, 'confirm is too long')),
});

/** GET /account/resetpassword?token=: the link from the e-mail (opening it only shows the form). */
export const ResetPasswordQuerySchema = z.object({ token: z.optional(z.string().check(z.maxLength(200, 'token is too long'))) });

/** POST /api/account/validatetoken: whether a reset link can still be used (reading it does not use it). */
export const ValidateTokenRequestSchema = z.object({ Token: z.string().check(z.minLength(1, 'Token is required'), z.maxLength(200, 'Token is too long')) });
export const resetTokenStates = ['valid', 'expired', 'used', 'unknown'] as const;
export const ValidateTokenResponseSchema = z.object({ Valid: z.boolean(), Reason: z.enum(resetTokenStates) });
export type ValidateTokenResponse = z.infer<typeof ValidateTokenResponseSchema>;

/**
 * POST /api/account/initiatemfa: a new TOTP secret to confirm (enrolment; nothing changes until
 * confirmed). Replacing: the account has two-step verification already, which confirming replaces.
 */
export const InitiateMfaResponseSchema = z.object({ Secret: z.string(), OtpAuthUri: z.string(), Replacing: z.boolean() });
export type InitiateMfa = z.infer<typeof InitiateMfaResponseSchema>;

/** POST /api/account/confirmmfa: one code from the app confirms enrolment and returns ten recovery codes, shown once. */
export const ConfirmMfaRequestSchema = z.object({ Code: z.string().check(z.regex(/^\d{6}$/, 'Code must be 6 digits')) });
export const ConfirmMfaResponseSchema = z.object({
  Success: z.boolean(),
  Message: z.string(),
  RecoveryCodes: z.array(z.string()),
});
export type ConfirmMfa = z.infer<typeof ConfirmMfaResponseSchema>;

/** GET /api/account/mfa: whether two-step verification is on, and whether the tenant requires it of this person. */
export const MfaStatusSchema = z.object({ Enabled: z.boolean(), Required: z.boolean() });
export type MfaStatus = z.infer<typeof MfaStatusSchema>;

/** POST /interaction/:uid/loginmfa (form): the code of the second step, or a recovery code. */
export const LoginMfaFormSchema = z.object({ code: z.string().check(z.maxLength(64, 'code is too long')) });
