import { html, raw } from '../html.ts';
import type { IdentityPage } from './identity-page.ts';

const alert = (text: string | undefined) => (text ? raw(html`<p class="error" role="alert" id="code-error">${text}</p>`) : '');

export const wrongCodeMessage = 'That code is not correct. Please try again.';
export const tooManyWrongCodesMessage = 'Too many wrong codes. Please sign in again.';
export const lockedMfaMessage =
  'Your account is locked after too many wrong verification codes. Please contact your administrator to unlock it.';
/** What a locked person can do about it besides their administrator (issue 27 point 11, SUV §4). */
export const supportContacts = (tenant: { supportEmail: string; supportPhone: string }) =>
  `You can also reach support at ${tenant.supportEmail} or ${tenant.supportPhone}.`;

/** The second step of sign-in (AM §7 loginmfa): a code from the app, or a recovery code. */
export function mfaCodePage(uid: string, error?: string): IdentityPage {
  return {
    title: 'Two-step verification',
    body: html`${alert(error)}
  <p>Enter the 6-digit code from your authenticator app.</p>
  <form method="post" action="/interaction/${uid}/loginmfa" novalidate>
    <label for="code">Verification code</label>
    <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required autofocus
      aria-describedby="${error ? 'code-error ' : ''}code-hint">
    <p class="hint" id="code-hint">Lost your phone? Enter one of your recovery codes instead (XXXXX-XXXXX).</p>
    <button type="submit">Verify</button>
  </form>
  <p class="links"><a href="/">Cancel and start again</a></p>`,
  };
}

/** A required enrolment inside the sign-in (the tenant requires a second step of this person). */
export function mfaEnrolmentPage(uid: string, secret: string, qrSvgDataUrl: string, error?: string): IdentityPage {
  return {
    title: 'Set up two-step verification',
    body: html`${alert(error)}
  <p>Your organisation requires two-step verification. Scan this code with an authenticator app, or type the key into it.</p>
  <img src="${qrSvgDataUrl}" width="200" height="200" alt="QR code of your two-step verification key">
  <p>Key: <code class="secret" id="secret">${secret}</code></p>
  <form method="post" action="/interaction/${uid}/enrolmfa" novalidate>
    <label for="code">Code from the app</label>
    <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required
      ${error ? raw('aria-describedby="code-error"') : ''}>
    <button type="submit">Confirm</button>
  </form>`,
  };
}

/** The recovery codes, shown once, before the sign-in goes on. */
export function recoveryCodesPage(uid: string, codes: readonly string[]): IdentityPage {
  return {
    title: 'Your recovery codes',
    body: html`<p class="note" role="status">Two-step verification is on.</p>
  <p>Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.</p>
  <ul id="recovery-codes">${raw(codes.map((code) => html`<li><code>${code}</code></li>`).join(''))}</ul>
  <form method="post" action="/interaction/${uid}/enrolmfa">
    <input type="hidden" name="code" value="">
    <button type="submit">Continue</button>
  </form>`,
  };
}
