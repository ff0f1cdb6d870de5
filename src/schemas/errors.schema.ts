import * as z from 'zod';

/** The body of every 4xx/5xx the portal server sends. */
export const ApiErrorSchema = z.object({ statusCode: z.number(), error: z.string(), message: z.string() });
export type ApiError = z.infer<typeof ApiErrorSchema>;
