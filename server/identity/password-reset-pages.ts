import { html, raw } from '../html.ts';
import { passwordRules, passwordsMismatchMessage } from '../../src/domain/password-policy.ts';
import type { IdentityPage } from './identity-page.ts';
import { resetLinkMinutes, type ResetTokenState } from './password-reset.ts';

const alert = (text: string | undefined, id = 'form-error') =>
  text ? raw(html`<p class="error" role="alert" id="${id}">${text}</p>`) : '';

export function forgotPasswordPage(email = '', error?: string): IdentityPage {
  return {
    title: 'Forgot password',
    body: html`${alert(error)}
  <p>Enter the e-mail address of your account. We will send you a link to set a new password.</p>
  <form method="post" action="/account/forgotpassword" novalidate>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${email}" autofocus
      ${error ? raw('aria-describedby="form-error"') : ''}>
    <button type="submit">Send reset link</button>
  </form>
  <p class="links"><a href="/">Back to sign in</a></p>`,
  };
}

/** The same answer whether or not the account exists. */
export function resetLinkSentPage(): IdentityPage {
  return {
    title: 'Check your e-mail',
    body: html`<p class="note" role="status">If an account exists for that address, we have sent it a link to set a new password.</p>
  <p>The link works once, within ${resetLinkMinutes} minutes. It can take a minute to arrive; check your spam folder too.</p>
  <p class="links"><a href="/">Back to sign in</a></p>`,
  };
}

export const resetLinkProblems: Record<Exclude<ResetTokenState, 'valid'>, string> = {
  expired: `This link has expired: a reset link works for ${resetLinkMinutes} minutes.`,
  used: 'This link was already used: each reset link works once.',
  unknown: 'This link is not valid. It may have been copied incompletely.',
};

export function resetLinkProblemPage(state: Exclude<ResetTokenState, 'valid'>): IdentityPage {
  return {
    title: 'Reset password',
    body: html`<p class="error" role="alert">${resetLinkProblems[state]}</p>
  <a class="button" href="/account/forgotpassword">Send a new link</a>
  <p class="links"><a href="/">Back to sign in</a></p>`,
  };
}

/**
 * The new-password form. The policy list updates as the person types (the same rules as Change
 * Password, AM §5); the server checks them again with src/domain/password-policy.ts on submit.
 */
export function resetPasswordPage(token: string, error?: string): IdentityPage {
  return {
    title: 'Set a new password',
    body: html`${alert(error)}
  <form method="post" action="/account/resetpassword" novalidate>
    <input type="hidden" name="token" value="${token}">
    <label for="password">New password</label>
    <input id="password" name="password" type="password" autocomplete="new-password" required autofocus aria-describedby="policy">
    <ul class="rules" id="policy" aria-label="Password rules">
      ${raw(passwordRules.map((rule) => html`<li data-rule="${rule.id}">${rule.label}<span class="sr">: not met</span></li>`).join(''))}
    </ul>
    <label for="confirm">Confirm password</label>
    <input id="confirm" name="confirm" type="password" autocomplete="new-password" required aria-describedby="mismatch">
    <p class="hint" id="mismatch" aria-live="polite"></p>
    <button type="submit">Set password</button>
  </form>`,
    script: livePolicyScript,
  };
}

// The rules of src/domain/password-policy.ts, as the page's own small script (no bundle on these pages).
const livePolicyScript = `
(function () {
  var tests = {
    length: function (p) { return p.length >= 8; },
    lowercase: function (p) { return /\\p{Ll}/u.test(p); },
    uppercase: function (p) { return /\\p{Lu}/u.test(p); },
    number: function (p) { return /\\p{Nd}/u.test(p); },
    symbol: function (p) { return /[\\p{P}\\p{S}]/u.test(p); }
  };
  var password = document.getElementById('password');
  var confirm = document.getElementById('confirm');
  var mismatch = document.getElementById('mismatch');
  function update() {
    document.querySelectorAll('[data-rule]').forEach(function (item) {
      var met = tests[item.getAttribute('data-rule')](password.value);
      item.classList.toggle('met', met);
      item.querySelector('.sr').textContent = met ? ': met' : ': not met';
    });
    mismatch.textContent = confirm.value && confirm.value !== password.value ? ${JSON.stringify(passwordsMismatchMessage)} : '';
  }
  password.addEventListener('input', update);
  confirm.addEventListener('input', update);
  update();
})();`;

export function passwordResetDonePage(): IdentityPage {
  return {
    title: 'Password changed',
    body: html`<p class="note" role="status">Your password has been changed, and every session of your account has been signed out.</p>
  <a class="button" href="/">Sign in</a>`,
  };
}

export const tooManyResetRequests = (wait: string) => `Too many password reset attempts. Please try again in ${wait}.`;
