import { useEffect } from 'react';
import { brandShades } from '../../domain/brand-shades.ts';
import type { TenantConfiguration } from '../../schemas/configuration.schema.ts';

/** The product name where no tenant is known (SUV §2 'LAB Portal unavailable'). */
export const platformName = 'LAB Portal';

type BrandColours = Partial<Pick<TenantConfiguration, 'PrimaryColor' | 'SecondaryColor'>>;

/**
 * The tenant's colours as CSS custom properties; an empty value leaves the theme's default. The
 * primary colour and the active navigation item go through brandShades, so white text on them
 * holds 4.5:1 whatever colour the tenant chose.
 */
export function brandProperties(colours: BrandColours | undefined): Array<[name: string, value: string]> {
  const shades = brandShades(colours?.PrimaryColor ?? '');
  return [
    ['--brand-primary', shades?.primary ?? ''],
    ['--brand-nav-active', shades?.navActive ?? ''],
    ['--brand-secondary', colours?.SecondaryColor ?? ''],
  ];
}

/**
 * Applies the tenant branding to the document root, so that dialogs and popovers (rendered in
 * portals outside the shell) carry it too.
 */
export function useBranding(tenant: TenantConfiguration | undefined): void {
  const PrimaryColor = tenant?.PrimaryColor;
  const SecondaryColor = tenant?.SecondaryColor;
  useEffect(() => {
    const style = document.documentElement.style;
    for (const [name, value] of brandProperties({ PrimaryColor, SecondaryColor })) {
      if (value) style.setProperty(name, value);
      else style.removeProperty(name);
    }
  }, [PrimaryColor, SecondaryColor]);
}
