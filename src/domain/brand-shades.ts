import { contrastRatio, parseHex } from './chart-colours.ts';

/**
 * Shades of a tenant's brand colour that white text can sit on (issue 32: acme's active
 * navigation item was 3.74:1). The primary colour carries white text (buttons, the side
 * navigation) and is itself text on white (links), so it must reach 4.5:1 against white (WCAG 1.4.3);
 * the active navigation item is a shade of it that must too. Any tenant colour goes in; a colour
 * that already holds comes back unchanged.
 */

export const textContrast = 4.5;
const white = '#ffffff';
const black = '#000000';

const toHex = (rgb: readonly number[]) => `#${rgb.map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

/** `colour` moved `amount` (0..1) of the way to `target`, both as hex. */
function mix(colour: readonly number[], target: string, amount: number): number[] {
  const towards = parseHex(target) ?? [0, 0, 0];
  return colour.map((value, index) => value + ((towards[index] ?? 0) - value) * amount);
}

/** The colour, darkened in small steps until white text on it reaches 4.5:1; undefined if it is no colour. */
export function readableUnderWhite(colour: string): string | undefined {
  const rgb = parseHex(colour);
  if (!rgb) return undefined;
  // Black against white is 21:1, so the walk always ends; 5% steps keep the hue's look.
  for (let step = 0; step <= 20; step++) {
    const shade = toHex(mix(rgb, black, step * 0.05));
    if (contrastRatio(shade, white) >= textContrast) return shade;
  }
  return black;
}

export interface BrandShades {
  /** The primary colour, safe under white text and as text on white. */
  primary: string;
  /** The active navigation item's background: set apart from `primary`, still 4.5:1 under white text. */
  navActive: string;
}

/**
 * The brand's shades: the active item is lighter than the navigation when that still holds 4.5:1
 * (the look most tenants had), and darker when it does not (a mid-tone such as acme's green).
 */
export function brandShades(primaryColour: string): BrandShades | undefined {
  const primary = readableUnderWhite(primaryColour);
  const rgb = primary === undefined ? undefined : parseHex(primary);
  if (primary === undefined || !rgb) return undefined;
  const lighter = toHex(mix(rgb, white, 0.18));
  const navActive = contrastRatio(lighter, white) >= textContrast ? lighter : toHex(mix(rgb, black, 0.25));
  return { primary, navActive };
}
