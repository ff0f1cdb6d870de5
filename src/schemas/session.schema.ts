import * as z from 'zod/mini';

/** The part of the JWT access token payload the session timer reads (SUV §3 "Signed-in user": exp, iat). */
export const AccessTokenTimesSchema = z.object({ iat: z.number(), exp: z.number() });
export type AccessTokenTimes = z.infer<typeof AccessTokenTimesSchema>;

/** What the portal round-trips through the identity provider's `state` on a sign-in redirect. */
export const SignInStateSchema = z.object({ returnTo: z.string() });
export type SignInState = z.infer<typeof SignInStateSchema>;
