import * as z from 'zod';

/**
 * One message of the live event stream (`GET /api/events`, docs/decisions/012-live-changes.md): what
 * changed, as application ids and a kind, never the data itself. The portal reads the rows through
 * the ordinary routes, so every claim, visibility and tenant rule stays where it is.
 * `added` and `removed` are as the person's lists see it: a cancelled application or one that
 * left their scope is removed; `reset` names nothing (the lists' scope moved, or the changes since
 * the stream's Last-Event-ID are no longer kept): read everything on the screen again.
 */
export const LiveEventSchema = z.object({
  kind: z.enum(['changed', 'added', 'removed', 'reset']),
  ApplicationIDs: z.array(z.int()),
});
export type LiveEvent = z.infer<typeof LiveEventSchema>;

/** Last-Event-ID: the tenant data version the client last received. */
export const LastEventIdSchema = z.string().regex(/^\d{1,15}$/, 'Last-Event-ID must be a data version (digits)');
