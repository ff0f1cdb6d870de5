import * as z from 'zod/mini';

/** The body of every 4xx/5xx the portal server sends. */
export const ApiErrorSchema = z.object({ statusCode: z.number(), error: z.string(), message: z.string() });
export type ApiError = z.infer<typeof ApiErrorSchema>;
