import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { hasClaim } from '../../src/domain/permissions.ts';
import { findUserById, sessionStatuses } from '../identity/accounts.ts';
import { latestOutbox, outboxPageSize } from '../db/outbox-store.ts';
import { html, raw } from '../html.ts';
import { linkOrigin, type Tenant } from '../tenancy.ts';
import type { RouteContext } from './context.ts';

export const outboxPath = '/outbox';
export const outboxAdminClaim = 'admin';
export const outboxSignInText = 'Sign in to the portal as an administrator, then open this page again.';
export const outboxForbiddenText = 'Only an administrator of this tenant can see the outbox.';
export const outboxEmptyText = 'Nothing has been sent yet.';

type ProviderFor = (request: FastifyRequest) => Promise<Provider>;

/**
 * Who opens /outbox in a browser: the person signed in to this tenant's identity provider. A page
 * cannot carry the portal's bearer token (it lives in the portal's memory), so the page reads the
 * provider's own session cookie (signed, HttpOnly, SameSite=Lax, set at sign-in), finds the session
 * in the shared store, and re-checks the user record: active, this tenant, the admin claim now
 * (docs/decisions/006-outbox.md). Undefined when no one is signed in on this browser.
 */
async function signedInUser(providerFor: ProviderFor, request: FastifyRequest, reply: FastifyReply, db: RouteContext['db']) {
  const provider = await providerFor(request);
  const session = await provider.Session.get(provider.createContext(request.raw, reply.raw));
  if (!session.accountId) return undefined;
  const user = await findUserById(db, session.accountId);
  if (!user || user.tenantId !== request.tenant?.id || !sessionStatuses.has(user.status)) return undefined;
  return user;
}

const timeFormat = new Intl.DateTimeFormat('en-AU', {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function page(tenant: Tenant, nonce: string, main: string) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Outbox · ${tenant.name}</title>
<style nonce="${nonce}">
  :root { --brand: ${tenant.primaryColor}; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; background: #f3f5f8; }
  main { max-width: 960px; margin: 32px auto; padding: 0 16px; }
  h1 { border-bottom: 4px solid var(--brand); padding-bottom: 8px; }
  article { background: #fff; border-radius: 12px; padding: 16px 24px; margin: 16px 0; box-shadow: 0 2px 8px rgb(16 24 40 / 0.06); }
  article h2 { font-size: 1.1rem; margin: 0 0 8px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 12px; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f7f8fa; padding: 12px; border-radius: 8px; margin: 0; font: inherit; }
  .note { color: #5b6675; }
</style>
</head>
<body>
<main>
${raw(main)}
</main>
</body>
</html>`;
}

/** A message body as text, with links into this portal (the resume link) clickable; everything else escaped. */
function bodyWithLinks(body: string, origin: string): string {
  return body
    .split(/(https?:\/\/[^\s<>"]+)/)
    .map((part, index) => (index % 2 === 1 && part.startsWith(`${origin}/`) ? html`<a href="${part}">${part}</a>` : html`${part}`))
    .join('');
}

function send(reply: FastifyReply, status: number, body: (nonce: string) => string) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
    )
    // The page shows live resume links: no cache keeps it, no link from it tells another site where it was.
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(body(nonce));
}

/**
 * The admin-only outbox page (ARCHITECTURE "The outside world"): the tenant's messages, newest
 * first, so a person trying the demo sees what was sent (to, subject, body, time). Server-rendered,
 * every value escaped by the html template.
 */
export function registerOutboxRoutes({ app, db, config }: RouteContext, providerFor: ProviderFor) {
  app.get(outboxPath, async (request, reply) => {
    const tenant = request.tenant;
    if (!tenant) return reply.redirect('/tenantnotfound');
    const user = await signedInUser(providerFor, request, reply, db);
    if (!user) {
      return send(reply, 401, (nonce) =>
        page(tenant, nonce, html`<h1>Outbox</h1><p role="alert">${outboxSignInText}</p><p><a href="/">Go to the portal</a></p>`),
      );
    }
    if (!hasClaim(user.claims, outboxAdminClaim)) {
      return send(reply, 403, (nonce) => page(tenant, nonce, html`<h1>Outbox</h1><p role="alert">${outboxForbiddenText}</p>`));
    }
    const messages = await latestOutbox(db, tenant.id);
    const items = messages.map(
      (message) => html`<article>
  <h2>${message.subject || (message.channel === 'sms' ? 'SMS' : '(no subject)')}</h2>
  <dl>
    <dt>To</dt><dd>${message.recipient}</dd>
    <dt>Time</dt><dd><time datetime="${message.createdAt.toISOString()}">${timeFormat.format(message.createdAt)} UTC</time></dd>
    <dt>Channel</dt><dd>${message.channel === 'sms' ? 'SMS' : 'E-mail'}${message.transport === 'smtp' ? ' (delivered by SMTP)' : ' (sandbox: not delivered)'}</dd>
    ${message.applicationId === null ? '' : raw(html`<dt>Application</dt><dd>${message.applicationId}</dd>`)}
  </dl>
  <pre>${raw(bodyWithLinks(message.body, linkOrigin(tenant, config)))}</pre>
</article>`,
    );
    return send(reply, 200, (nonce) =>
      page(
        tenant,
        nonce,
        html`<h1>Outbox</h1>
<p class="note">What ${tenant.name} sent, newest first (the latest ${outboxPageSize}).</p>
${items.length === 0 ? raw(html`<p>${outboxEmptyText}</p>`) : raw(items.join('\n'))}`,
      ),
    );
  });
}
