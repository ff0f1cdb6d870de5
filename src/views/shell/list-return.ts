import type { Location } from 'react-router-dom';

/**
 * The address of the last application list shown in this tab, so the detail's breadcrumb and back
 * link return to the list as it was left (AM §2 "Route parameters held in history are restored").
 * Kept outside the list's own code: the router reports every location (app-routes.tsx).
 */
let lastListHref: string | undefined;

export function rememberListLocation(location: Pick<Location, 'pathname' | 'search'>): void {
  if (location.pathname === '/list' || location.pathname.startsWith('/list/')) {
    lastListHref = `${location.pathname}${location.search}`;
  }
}

export const lastListAddress = (): string | undefined => lastListHref;
