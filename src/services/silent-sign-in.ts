import { UserManager } from 'oidc-client-ts';
import { signInCallbackPath } from '../domain/session.ts';

/**
 * Runs inside the hidden iframe of a silent sign-in (/authentication/silent-callback): hands the
 * callback address to the parent window, which finishes the exchange. Nothing of the settings is
 * read on this path, so the runtime configuration is not fetched for it.
 */
export async function completeSilentSignIn(): Promise<void> {
  const origin = window.location.origin;
  await new UserManager({
    authority: origin,
    client_id: 'silent-callback',
    redirect_uri: `${origin}${signInCallbackPath}`,
  }).signinSilentCallback();
}
