import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { brandShades, readableUnderWhite, textContrast } from '../../src/domain/brand-shades.ts';
import { contrastRatio } from '../../src/domain/chart-colours.ts';

const hexColour = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((rgb) => `#${rgb.map((value) => value.toString(16).padStart(2, '0')).join('')}`);

describe('brandShades (issue 32: white text on any tenant colour)', () => {
  it('keeps white text at 4.5:1 on the primary and on the active navigation item, for any colour', () => {
    fc.assert(
      fc.property(hexColour, (colour) => {
        const shades = brandShades(colour);
        expect(shades).toBeDefined();
        expect(contrastRatio(shades?.primary ?? '', '#ffffff')).toBeGreaterThanOrEqual(textContrast);
        expect(contrastRatio(shades?.navActive ?? '', '#ffffff')).toBeGreaterThanOrEqual(textContrast);
        // The active item stays set apart from the navigation behind it.
        expect(shades?.navActive).not.toBe(shades?.primary);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a colour that already holds unchanged, and darkens one that does not only as far as needed', () => {
    fc.assert(
      fc.property(hexColour, (colour) => {
        const readable = readableUnderWhite(colour);
        if (contrastRatio(colour, '#ffffff') >= textContrast) expect(readable).toBe(colour);
        else expect(contrastRatio(readable ?? '', '#ffffff')).toBeLessThan(textContrast + 1.5);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the seeded tenants their shades: lighter where that holds, darker for a mid-tone green', () => {
    expect(brandShades('#0b5cad')).toEqual({ primary: '#0b5cad', navActive: '#3779bc' });
    // acme: 18% white over #1f7a4d was 3.74:1; a darker shade instead.
    expect(brandShades('#1f7a4d')).toEqual({ primary: '#1f7a4d', navActive: '#175c3a' });
    expect(brandShades('#ffcc00')?.primary).toBe('#8c7000');
    expect(brandShades('#fff')?.primary).toBe('#737373');
  });

  it('gives nothing for what is not a colour (the theme keeps its own)', () => {
    expect(brandShades('')).toBeUndefined();
    expect(brandShades('teal')).toBeUndefined();
  });
});
