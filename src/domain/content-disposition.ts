/**
 * AM §7: downloaded files are named from the content-disposition header. `filename*` (RFC 6266,
 * UTF-8 percent-encoded) wins over `filename`; path separators are dropped so a name can never
 * point outside the download folder; without a usable name the fallback is used.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  let name: string | undefined;
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = undefined;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/.exec(header);
    name = plain?.[2]?.replace(/\\(.)/g, '$1') ?? plain?.[1]?.trim();
  }
  const safe = name?.replace(/[/\\]/g, '').trim();
  return safe ? safe : fallback;
}
