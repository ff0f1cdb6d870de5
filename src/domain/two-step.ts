/** A code as an authenticator app shows it: six digits (spaces typed between groups are ignored). */
export const normaliseTotpCode = (value: string): string => value.replace(/\s/g, '');
export const isTotpCode = (value: string): boolean => /^\d{6}$/.test(normaliseTotpCode(value));

/** The recovery codes as a text file a person keeps. */
export const recoveryCodesText = (tenantName: string, codes: readonly string[]): string =>
  [`${tenantName} recovery codes`, 'Each code signs you in once.', '', ...codes, ''].join('\n');
