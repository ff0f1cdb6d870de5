import { html, raw } from '../html.ts';
import type { Tenant } from '../tenancy.ts';
import { passwordRules, passwordsMismatchMessage } from '../../src/domain/password-policy.ts';

/** The invitation page's texts (tests read them from here). */
export const invitationTexts = {
  setHeading: 'Set your password',
  expired: 'This invitation link has expired.',
  used: 'This invitation link has already been used.',
  revoked: 'This invitation was withdrawn by your administrator.',
  replaced: 'A newer invitation replaced this link.',
  unknown: 'This invitation link is not valid.',
  renewButton: 'Send me a new link',
  renewed: 'A new link is on its way to your e-mail address.',
  passwordSet: 'Your password is set. You can now sign in.',
  /** AM §5's text, the one Change Password and reset give. */
  mismatch: passwordsMismatchMessage,
} as const;

export type InvitationView =
  | { kind: 'form'; email: string; error?: string }
  | { kind: 'expired' }
  | { kind: 'used' }
  | { kind: 'revoked' }
  | { kind: 'replaced' }
  | { kind: 'unknown' }
  | { kind: 'renewed' }
  | { kind: 'done' };

const contact = (tenant: Tenant) => `${tenant.supportEmail} · ${tenant.supportPhone}`;

function content(view: InvitationView, tenant: Tenant, action: string): string {
  const askAdmin = html`<p>Ask your administrator for a new invitation, or contact ${contact(tenant)}.</p>`;
  const signIn = html`<p><a class="button" href="/">Sign in</a></p>`;
  switch (view.kind) {
    case 'form':
      return html`<h1>${invitationTexts.setHeading}</h1>
  <p>Choose the password you will sign in with as <strong>${view.email}</strong>.</p>
  ${view.error ? raw(html`<p class="error" role="alert" id="form-error">${view.error}</p>`) : ''}
  <form method="post" action="${action}" novalidate>
    <label for="password">New password</label>
    <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="rules${view.error ? ' form-error' : ''}" autofocus>
    <label for="confirm">Confirm new password</label>
    <input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
    <ul id="rules">${raw(passwordRules.map((rule) => html`<li>${rule.label}</li>`).join(''))}</ul>
    <button type="submit">Set password</button>
  </form>`;
    case 'expired':
      return html`<h1>${invitationTexts.expired}</h1>
  <p>Links work for a limited time. We can send a new one to the address you were invited at.</p>
  <form method="post" action="${action}/renew"><button type="submit">${invitationTexts.renewButton}</button></form>`;
    case 'used':
      return html`<h1>${invitationTexts.used}</h1><p>Your password is already set: sign in with it.</p>${raw(signIn)}${raw(askAdmin)}`;
    case 'revoked':
      return html`<h1>${invitationTexts.revoked}</h1>${raw(askAdmin)}`;
    case 'replaced':
      return html`<h1>${invitationTexts.replaced}</h1><p>Use the link in the newest invitation e-mail.</p>${raw(askAdmin)}`;
    case 'unknown':
      return html`<h1>${invitationTexts.unknown}</h1><p>Check that you opened the whole link from the e-mail.</p>${raw(askAdmin)}`;
    case 'renewed':
      return html`<h1>${invitationTexts.renewed}</h1><p>Open the newest e-mail and follow its link. This one no longer works.</p>`;
    case 'done':
      return html`<h1>${invitationTexts.passwordSet}</h1>${raw(signIn)}`;
  }
}

/** The tenant-branded invitation page (server-rendered like the login page, same CSP: no script). */
export function renderInvitationPage(tenant: Tenant, view: InvitationView, action: string, nonce: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Invitation · ${tenant.name}</title>
<style nonce="${nonce}">
  :root { --brand: ${tenant.primaryColor}; --accent: ${tenant.secondaryColor}; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f5f8;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; }
  main { width: min(440px, calc(100vw - 32px)); background: #fff; border-radius: 12px; padding: 32px;
    box-shadow: 0 4px 24px rgb(16 24 40 / 0.08); border-top: 4px solid var(--brand); }
  header { display: flex; align-items: center; gap: 12px; margin-bottom: 16px; font-weight: 600; }
  header img { width: 40px; height: 40px; }
  h1 { font-size: 1.3rem; margin: 0 0 12px; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; padding: 10px 12px; border: 1px solid #b8c0cc; border-radius: 8px; font: inherit; }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  ul { margin: 12px 0 0; padding-left: 20px; color: #3d4756; font-size: 0.9rem; }
  button, .button { display: inline-block; margin-top: 20px; width: 100%; padding: 12px; border: 0; border-radius: 8px;
    background: var(--brand); color: #fff; font: inherit; font-weight: 600; cursor: pointer; text-align: center; text-decoration: none; }
  .error { margin: 0 0 8px; padding: 10px 12px; border-radius: 8px; background: #fdecec; color: #9b1c1c; }
  footer { margin-top: 24px; font-size: 0.85rem; color: #4b5563; }
</style>
</head>
<body>
<main>
  <header><img src="${tenant.logoUrl}" alt=""><span>${tenant.name}</span></header>
  ${raw(content(view, tenant, action))}
  <footer>Need help? ${contact(tenant)}</footer>
</main>
</body>
</html>`;
}
