/** AM §2: document titles. The list is 'Applications', a detail is its id in brackets; others show the tenant. */
export const applicationListTitle = 'Applications';

export const applicationDetailTitle = (applicationId: string): string => `(${applicationId})`;

/** AM §2: the detail's 'Applications' breadcrumb returns to All Apps when opened from there. */
export const applicationListPathFrom = (from: string | null): '/list' | '/list/all' =>
  from === 'all' ? '/list/all' : '/list';
