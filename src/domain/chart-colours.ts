/**
 * Chart colours from the tenant's brand (issue 30), each at least 3:1 against the page background
 * (WCAG 1.4.11 non-text contrast): a brand colour too light is darkened until it is.
 */

export const minimumContrast = 3;

const hexPattern = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

/** '#1a2b3c' or '#abc' as [r, g, b] 0-255; undefined for anything else. */
export function parseHex(colour: string): number[] | undefined {
  const match = hexPattern.exec(colour.trim());
  if (!match?.[1]) return undefined;
  const hex = match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1];
  return [0, 2, 4].map((start) => parseInt(hex.slice(start, start + 2), 16));
}

const toHex = (rgb: readonly number[]) => `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
function luminance([r, g, b]: readonly number[]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r ?? 0) + 0.7152 * channel(g ?? 0) + 0.0722 * channel(b ?? 0);
}

export function contrastRatio(a: string, b: string): number {
  const first = parseHex(a);
  const second = parseHex(b);
  if (!first || !second) return 1;
  const [light, dark] = [luminance(first), luminance(second)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** The colour, darkened in steps until it reaches 3:1 against `background`; `fallback` if it is no colour. */
export function withContrast(colour: string, background: string, fallback: string): string {
  const rgb = parseHex(colour);
  if (!rgb) return fallback;
  let current = rgb;
  for (let step = 0; step < 20 && contrastRatio(toHex(current), background) < minimumContrast; step++) {
    current = current.map((value) => value * 0.9);
  }
  return toHex(current);
}

/** Dark enough on white for every slice: after the brand's two colours, these. */
const extraColours = ['#2e7d32', '#8a4b08', '#6a1b9a', '#ad1457', '#37474f'];

/** Series colours: the brand's primary and secondary first, each checked for 3:1. */
export function chartColours(primary: string, secondary: string, background = '#ffffff'): string[] {
  return [withContrast(primary, background, '#1f5f8b'), withContrast(secondary, background, '#37474f'), ...extraColours];
}
