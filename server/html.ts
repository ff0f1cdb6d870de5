const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML bodies and attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => entities[ch] ?? ch);

/** Template tag: interpolated values are escaped unless wrapped in `raw()`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((out, part, i) => {
    if (i === 0) return part;
    const value = values[i - 1];
    const text = value instanceof RawHtml ? value.html : escapeHtml(String(value ?? ''));
    return out + text + part;
  }, '');
}

export class RawHtml {
  constructor(readonly html: string) {}
}
export const raw = (markup: string) => new RawHtml(markup);
