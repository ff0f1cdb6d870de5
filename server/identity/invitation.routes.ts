import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { failedPasswordRules } from '../../src/domain/password-policy.ts';
import { recordUserAudit } from '../db/users-store.ts';
import type { Mailer } from '../providers/mail/mailer.ts';
import type { ServerConfig } from '../config.ts';
import { linkOrigin, type Tenant } from '../tenancy.ts';
import { findUserById } from './accounts.ts';
import { hashPassword } from './passwords.ts';
import { renderInvitationPage, invitationTexts, type InvitationView } from './invitation-page.ts';
import {
  consumeInvitation,
  invitationByToken,
  invitationMessage,
  invitationPath,
  newInvitationToken,
  replaceExpiredInvitation,
  sendInvitation,
  storeInvitation,
} from './invitations.ts';

/** The account left Invited between the look and the write: the transaction is undone. */
class NoLongerInvited extends Error {}

const SetPasswordFormSchema = z.object({ password: z.string().default(''), confirm: z.string().default('') });

/** A token is 43 base64url characters; anything else names no invitation and is not looked up. */
const isToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * The invitation link (issue 28). GET only shows the page (mail scanners and link previews open
 * links; nothing is used up by looking); the form's POST uses the token once. An expired link can
 * ask for a new one, sent to the invited address only; used, revoked and replaced links say so.
 */
export function registerInvitationRoutes(app: FastifyInstance, db: Database, mailer: Mailer, config: Pick<ServerConfig, 'PORT'>) {
  function send(reply: FastifyReply, tenant: Tenant, token: string, view: InvitationView, status = 200) {
    const nonce = randomBytes(16).toString('base64');
    return (
      reply
        .code(status)
        .header(
          'content-security-policy',
          `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
        )
        // The address holds a live token: no cache keeps the page and no link from it sends the address on.
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(renderInvitationPage(tenant, view, invitationPath(token), nonce))
    );
  }

  /** The link's state, and the invited account while it can still accept. */
  async function lookUp(request: FastifyRequest<{ Params: { token: string } }>) {
    const tenant = request.tenant;
    if (!tenant) return undefined;
    const { token } = request.params;
    if (!isToken(token))
      return { tenant, token, state: 'unknown' as const, invitation: undefined, user: undefined };
    const found = await invitationByToken(db, tenant.id, token);
    const user = found.invitation ? await findUserById(db, found.invitation.userId) : undefined;
    // An account no longer Invited (deactivated meanwhile, or activated by another link) cannot accept.
    const state = found.state === 'valid' && user?.status !== 'Invited' ? ('used' as const) : found.state;
    return { tenant, token, state, invitation: found.invitation, user };
  }

  const stateView = (state: 'expired' | 'used' | 'revoked' | 'replaced' | 'unknown'): InvitationView => ({
    kind: state,
  });
  const goneStatus = (state: string) => (state === 'unknown' ? 404 : 410);

  app.get<{ Params: { token: string } }>('/invitation/:token', async (request, reply) => {
    const found = await lookUp(request);
    if (!found) return reply.redirect('/tenantnotfound');
    if (found.state === 'valid' && found.user)
      return send(reply, found.tenant, found.token, { kind: 'form', email: found.user.email });
    return send(
      reply,
      found.tenant,
      found.token,
      stateView(found.state === 'valid' ? 'used' : found.state),
      goneStatus(found.state),
    );
  });

  app.post<{ Params: { token: string } }>(
    '/invitation/:token',
    { config: { application: 'none' } },
    async (request, reply) => {
      const found = await lookUp(request);
      if (!found) return reply.redirect('/tenantnotfound');
      const { tenant, token, invitation, user } = found;
      if (found.state !== 'valid' || !invitation || !user) {
        return send(
          reply,
          tenant,
          token,
          stateView(found.state === 'valid' ? 'used' : found.state),
          goneStatus(found.state),
        );
      }
      const { password, confirm } = SetPasswordFormSchema.parse(request.body ?? {});
      const failed = failedPasswordRules(password);
      const error =
        failed.length > 0
          ? `The password needs: ${failed.map((rule) => rule.label.toLowerCase()).join(', ')}.`
          : password !== confirm
            ? invitationTexts.mismatch
            : undefined;
      if (error) return send(reply, tenant, token, { kind: 'form', email: user.email, error }, 400);
      const passwordHash = await hashPassword(password);
      const accepted = await db
        .transaction(async (tx) => {
          // Both or neither: a link used twice at once activates once, and the loser changes nothing.
          if (!(await consumeInvitation(tx, invitation.id))) return false;
          const [activated] = await tx
            .update(users)
            .set({
              passwordHash,
              status: 'Active',
              failedAttempts: 0,
              statusChangedAt: new Date(),
              statusChangedBy: user.id,
            })
            .where(and(eq(users.id, user.id), eq(users.status, 'Invited')))
            .returning({ id: users.id });
          if (!activated) throw new NoLongerInvited();
          await recordUserAudit(tx, {
            tenantId: tenant.id,
            actorUserId: user.id,
            targetUserId: user.id,
            action: 'acceptInvitation',
          });
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof NoLongerInvited) return false;
          throw error;
        });
      if (!accepted) return send(reply, tenant, token, { kind: 'used' }, 410);
      return send(reply, tenant, token, { kind: 'done' });
    },
  );

  app.post<{ Params: { token: string } }>(
    '/invitation/:token/renew',
    { config: { application: 'none' } },
    async (request, reply) => {
      const found = await lookUp(request);
      if (!found) return reply.redirect('/tenantnotfound');
      const { tenant, token, invitation, user } = found;
      // Only an expired link of a person still invited asks for a new one, once; it goes to the invited address.
      if (found.state !== 'expired' || !invitation || !user || user.status !== 'Invited') {
        return send(
          reply,
          tenant,
          token,
          stateView(found.state === 'valid' || found.state === 'expired' ? 'used' : found.state),
          goneStatus(found.state),
        );
      }
      const fresh = newInvitationToken();
      const url = `${linkOrigin(tenant, config)}${invitationPath(fresh)}`;
      const renewed = await sendInvitation(
        db,
        mailer,
        invitationMessage(tenant, user, url, null),
        { tenantId: tenant.id, senderId: null },
        async (tx) => {
          if (!(await replaceExpiredInvitation(tx, invitation.id))) return false;
          await storeInvitation(tx, { tenantId: tenant.id, userId: user.id, token: fresh, createdBy: null });
          await recordUserAudit(tx, {
            tenantId: tenant.id,
            actorUserId: null,
            targetUserId: user.id,
            action: 'renewInvitation',
          });
          return true;
        },
      );
      if (!renewed) return send(reply, tenant, token, { kind: 'replaced' }, 410);
      return send(reply, tenant, token, { kind: 'renewed' });
    },
  );
}
