import { allAppsClaims, myAppsClaim } from './claims.ts';

/** The signed-in user's claims as the API reports them (AM §3 "Signed-in user state"). */
export type Claims = readonly string[];

/** Exact match: the user holds this very claim. */
export const hasClaim = (claims: Claims, claim: string): boolean => claims.includes(claim);

/** Contains: some claim includes the fragment (e.g. 'usermanagement.' for any user-management claim). */
export const hasClaimContaining = (claims: Claims, fragment: string): boolean =>
  claims.some((claim) => claim.includes(fragment));

/** Match-any: the user holds at least one of the claims. */
export const hasAnyClaim = (claims: Claims, wanted: readonly string[]): boolean =>
  wanted.some((claim) => claims.includes(claim));

/** Reads a prefixed claim such as `Tenant:demo` or `GlobalId:…`; undefined when absent. */
export function claimValue(claims: Claims, prefix: 'Tenant' | 'GlobalId' | 'CreatedDate'): string | undefined {
  const found = claims.find((claim) => claim.startsWith(`${prefix}:`));
  return found?.slice(prefix.length + 1);
}

export const canSeeMyApps = (claims: Claims): boolean => hasClaim(claims, myAppsClaim);
export const canSeeAllApps = (claims: Claims): boolean => hasAnyClaim(claims, allAppsClaims);

/** AM §2: the root goes to /list with the my-apps claim or without every all-apps claim; else /list/all. */
export const homePath = (claims: Claims): '/list' | '/list/all' =>
  canSeeMyApps(claims) || !canSeeAllApps(claims) ? '/list' : '/list/all';

/**
 * The list address a person may open for the list they asked for (issue 32): All Apps without an
 * all-apps claim goes to My Apps (as a bookmark of another person's view would otherwise load a
 * list whose every request is refused), and My Apps goes where the root would send them.
 */
export const listPathFor = (claims: Claims, scope: 'my' | 'all'): '/list' | '/list/all' =>
  scope === 'all' && (canSeeAllApps(claims) || !canSeeMyApps(claims)) ? '/list/all' : homePath(claims);
