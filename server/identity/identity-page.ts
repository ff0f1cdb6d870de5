import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, raw } from '../html.ts';
import type { Tenant } from '../tenancy.ts';

/**
 * The frame of the server-rendered identity pages beside the login page (forgot and reset password,
 * the second step, a refused SSO link): the same tenant branding and look, a nonce-based CSP, and
 * script only where a page brings its own (the live password policy).
 */
export interface IdentityPage {
  title: string;
  /** The page's markup inside <main>, after the branded heading; already escaped. */
  body: string;
  /** A script of the page itself, allowed by the nonce. */
  script?: string;
}

/** The identity pages' one stylesheet, the sign-in page's too (login-page.ts). */
export const identityPageStyles = (tenant: Tenant) => `
  :root { --brand: ${tenant.primaryColor}; --accent: ${tenant.secondaryColor}; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f5f8;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; }
  main { width: min(440px, calc(100vw - 32px)); background: #fff; border-radius: 12px; padding: 32px;
    box-shadow: 0 4px 24px rgb(16 24 40 / 0.08); border-top: 4px solid var(--brand); }
  header { display: flex; align-items: center; gap: 12px; margin-bottom: 24px; }
  header img { width: 40px; height: 40px; }
  h1 { font-size: 1.4rem; margin: 0; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; padding: 10px 12px; border: 1px solid #b8c0cc; border-radius: 8px; font: inherit; }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  button, .button { display: block; text-align: center; text-decoration: none; margin-top: 24px; width: 100%; padding: 12px;
    border: 0; border-radius: 8px; background: var(--brand); color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
  a { color: #0b4f94; }
  .error { margin: 0 0 8px; padding: 10px 12px; border-radius: 8px; background: #fdecec; color: #9b1c1c; }
  .note { margin: 0 0 8px; padding: 10px 12px; border-radius: 8px; background: #eaf4ea; color: #1d4d24; }
  .hint { color: #4a5565; font-size: 0.9rem; }
  .rules { list-style: none; padding: 0; margin: 8px 0 0; font-size: 0.9rem; }
  .rules li::before { content: "○ "; }
  .rules li.met { color: #1d6b2c; }
  .rules li.met::before { content: "✓ "; }
  .links { margin-top: 16px; font-size: 0.95rem; }
  code.secret { display: block; word-break: break-all; padding: 8px; background: #f3f5f8; border-radius: 6px; }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  footer { margin-top: 24px; font-size: 0.85rem; color: #4a5565; }
`;

export function renderIdentityPage(tenant: Tenant, page: IdentityPage, nonce: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · ${tenant.name}</title>
<style nonce="${nonce}">${raw(identityPageStyles(tenant))}</style>
</head>
<body>
<main>
  <header><img src="${tenant.logoUrl}" alt=""><h1>${page.title}</h1></header>
  ${raw(page.body)}
  <footer>Need help? ${tenant.supportEmail} · ${tenant.supportPhone}</footer>
</main>
${page.script ? raw(html`<script nonce="${nonce}">${raw(page.script)}</script>`) : ''}
</body>
</html>`;
}

/** Answers with an identity page under its own nonce-based CSP (the portal's CSP has no inline code). */
export function sendIdentityPage(reply: FastifyReply, tenant: Tenant, page: IdentityPage, status = 200) {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'`,
    )
    .type('text/html; charset=utf-8')
    .send(renderIdentityPage(tenant, page, nonce));
}
