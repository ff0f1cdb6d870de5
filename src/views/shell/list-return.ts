import type { Location } from 'react-router-dom';

/**
 * The address of the last application list shown in this tab, so the detail's breadcrumb and back
 * link return to the list as it was left (AM §2 "Route parameters held in history are restored").
 * Kept outside the list's own code: the router reports every location (app-routes.tsx).
 */
let lastListHref: string | undefined;
/** The same for the Verifications list: its tab, page and keyword (issue 39 point 10). */
let lastVerificationsHref: string | undefined;

export function rememberListLocation(location: Pick<Location, 'pathname' | 'search'>): void {
  if (location.pathname === '/list' || location.pathname.startsWith('/list/')) {
    lastListHref = `${location.pathname}${location.search}`;
  }
  if (location.pathname === '/verifications') lastVerificationsHref = `${location.pathname}${location.search}`;
}

/** Where a verification's Back goes: the Verifications list as it was left, else its first page. */
export const lastVerificationsAddress = (): string => lastVerificationsHref ?? '/verifications';

export const lastListAddress = (): string | undefined => lastListHref;
