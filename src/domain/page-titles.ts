/** AM §2: document titles. The list is 'Applications', a detail is its id in brackets; others show the tenant. */
export const applicationListTitle = 'Applications';

export const applicationDetailTitle = (applicationId: string): string => `(${applicationId})`;

/** AM §2: the detail's 'Applications' breadcrumb returns to All Apps when opened from there. */
export const applicationListPathFrom = (from: string | null): '/list' | '/list/all' =>
  from === 'all' ? '/list/all' : '/list';

/**
 * AM §2: the breadcrumb and back link return to /list, or /list/all when from=all; when the person
 * came from that very list, to its address as they left it (filters, search, sort, page).
 */
export function listReturnHref(from: string | null, lastListHref: string | undefined): string {
  const base = applicationListPathFrom(from);
  if (lastListHref === undefined) return base;
  const path = lastListHref.split(/[?#]/, 1)[0] ?? '';
  const isAll = path === '/list/all' || path.startsWith('/list/all/');
  const isMy = !isAll && (path === '/list' || /^\/list\/\d/.test(path));
  return (base === '/list/all' ? isAll : isMy) ? lastListHref : base;
}
