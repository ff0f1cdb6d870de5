import { html, raw } from '../html.ts';
import type { Tenant } from '../tenancy.ts';
import { identityPageStyles } from './identity-page.ts';

export interface LoginPageModel {
  tenant: Tenant;
  action: string;
  email: string;
  error?: string;
  nonce: string;
}

/** The server-rendered, tenant-branded sign-in page: labelled fields Email and Password, button Sign in. */
export function renderLoginPage({ tenant, action, email, error, nonce }: LoginPageModel): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · ${tenant.name}</title>
<style nonce="${nonce}">${raw(identityPageStyles(tenant))}</style>
</head>
<body>
<main>
  <header><img src="${tenant.logoUrl}" alt=""><h1>Sign in to ${tenant.name}</h1></header>
  ${error ? raw(html`<p class="error" role="alert" id="sign-in-error">${error}</p>`) : ''}
  <form method="post" action="${action}" novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${email}"
      ${error ? raw('aria-describedby="sign-in-error"') : ''} autofocus>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>
  <p class="links"><a href="/account/forgotpassword">Forgot password?</a></p>
  <footer>Need help? ${tenant.supportEmail} · ${tenant.supportPhone}</footer>
</main>
</body>
</html>`;
}
