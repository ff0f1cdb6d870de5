import { html, raw } from '../html.ts';
import type { Tenant } from '../tenancy.ts';

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
<style nonce="${nonce}">
  :root { --brand: ${tenant.primaryColor}; --accent: ${tenant.secondaryColor}; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f5f8;
    font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; }
  main { width: min(400px, calc(100vw - 32px)); background: #fff; border-radius: 12px; padding: 32px;
    box-shadow: 0 4px 24px rgb(16 24 40 / 0.08); border-top: 4px solid var(--brand); }
  header { display: flex; align-items: center; gap: 12px; margin-bottom: 24px; }
  header img { width: 40px; height: 40px; }
  h1 { font-size: 1.4rem; margin: 0; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; padding: 10px 12px; border: 1px solid #b8c0cc; border-radius: 8px; font: inherit; }
  input:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  button { margin-top: 24px; width: 100%; padding: 12px; border: 0; border-radius: 8px; background: var(--brand);
    color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
  .error { margin: 0 0 8px; padding: 10px 12px; border-radius: 8px; background: #fdecec; color: #9b1c1c; }
  .links { margin-top: 16px; } .links a { color: #0b4f94; }
  a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  footer { margin-top: 24px; font-size: 0.85rem; color: #5b6675; }
</style>
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
