import {
  ConfirmMfaResponseSchema,
  InitiateMfaResponseSchema,
  type ConfirmMfa,
  type InitiateMfa,
} from '../schemas/sign-in.schema.ts';
import { postJson } from './http.ts';
import { runtimeConfig } from './runtime-config.ts';

const api = (path: string) => `${runtimeConfig().apiBase}${path}`;

/** POST /account/initiatemfa: a new secret to confirm; nothing changes until a code confirms it. */
export function initiateMfa(): Promise<InitiateMfa> {
  return postJson(api('/account/initiatemfa'), {}, InitiateMfaResponseSchema);
}

/** POST /account/confirmmfa: one code from the app turns two-step verification on and returns the recovery codes. */
export function confirmMfa(code: string): Promise<ConfirmMfa> {
  return postJson(api('/account/confirmmfa'), { Code: code }, ConfirmMfaResponseSchema);
}

/** The QR code of an otpauth URI as an image URL; the QR library loads only now (the shell stays small). */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(uri, { margin: 1, width: 200 });
}
