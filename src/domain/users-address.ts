/** SUV §2 /users/{pageNo}?q=&rowsPerPage=: the list's request from the address and back, defaults omitted (SUV §9). */
export const defaultUsersRowsPerPage = 20;
export const usersRowsPerPageChoices = [10, 20, 50, 100] as const;

export interface UsersRequest {
  pageNo: number;
  rowsPerPage: number;
  query: string;
}

const positive = (text: string | null | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
  const number = Number(text);
  return text && /^\d+$/.test(text) && number >= 1 && number <= max ? number : fallback;
};

/** Anything unreadable in the address falls back to the default. */
export function usersRequestOf(pageNo: string | undefined, search: URLSearchParams): UsersRequest {
  return {
    pageNo: positive(pageNo, 1, 100_000),
    rowsPerPage: positive(search.get('rowsPerPage'), defaultUsersRowsPerPage, 100),
    query: search.get('q') ?? '',
  };
}

/** The address of a request: page 1 and 20 rows are left out. */
export function usersAddressOf(request: UsersRequest): string {
  const params = new URLSearchParams();
  if (request.query.trim() !== '') params.set('q', request.query.trim());
  if (request.rowsPerPage !== defaultUsersRowsPerPage) params.set('rowsPerPage', String(request.rowsPerPage));
  const search = params.toString();
  return `/users${request.pageNo > 1 ? `/${request.pageNo}` : ''}${search ? `?${search}` : ''}`;
}

/** SUV §2: the document title is Users followed by the total with a thousands separator. */
export const usersDocumentTitle = (total: number | undefined) => (total === undefined ? 'Users' : `Users ${total.toLocaleString('en-AU')}`);

/** SUV §2 Last Activity: a date from the unix timestamp, or 'Never logged in'. */
export const lastActivityText = (seconds: number | null) =>
  seconds === null ? 'Never logged in' : new Date(seconds * 1000).toLocaleDateString('en-AU', { day: '2-digit', month: 'short', year: 'numeric' });
