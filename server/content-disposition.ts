/*
 * The one way a download is named (ARCHITECTURE §3: every file download goes through this helper,
 * so a name in any script or with emoji can never make a header invalid).
 */

/**
 * content-disposition for a download: an ASCII fallback in `filename` (quotes, backslashes and
 * anything outside printable ASCII replaced) and the real name in RFC 5987 `filename*`.
 */
export function attachmentHeader(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'document';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
