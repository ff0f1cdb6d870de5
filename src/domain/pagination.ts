import { formatCount } from './list-format.ts';

/** AM §9: about 7 page numbers around the current page. */
export const pageWindow = 7;

export type PageItem = { kind: 'page'; page: number; current: boolean } | { kind: 'gap'; side: 'start' | 'end' };

/**
 * The page numbers to offer (AM §9): a window of `pageWindow` pages around `current`, kept inside
 * 1..maxPage, plus the first and the last page, with a gap (ellipsis) where pages are left out.
 * A current page past the end (rows were removed) still shows where the pages are.
 */
export function pageItems(current: number, maxPage: number, window = pageWindow): PageItem[] {
  if (maxPage < 1) return [];
  const anchor = Math.min(Math.max(current, 1), maxPage);
  const before = Math.floor((window - 1) / 2);
  let start = Math.max(1, anchor - before);
  const end = Math.min(maxPage, start + window - 1);
  start = Math.max(1, end - window + 1);

  const items: PageItem[] = [];
  const page = (number: number) => items.push({ kind: 'page', page: number, current: number === current });
  if (start > 1) {
    page(1);
    if (start > 2) items.push({ kind: 'gap', side: 'start' });
  }
  for (let number = start; number <= end; number += 1) page(number);
  if (end < maxPage) {
    if (end < maxPage - 1) items.push({ kind: 'gap', side: 'end' });
    page(maxPage);
  }
  return items;
}

/** First and last row number shown on a page (1-based); 0 and 0 when the page holds none. */
export function pageRange(pageNo: number, rowsPerPage: number, total: number): { first: number; last: number } {
  const first = (pageNo - 1) * rowsPerPage + 1;
  if (total <= 0 || first > total) return { first: 0, last: 0 };
  return { first, last: Math.min(pageNo * rowsPerPage, total) };
}

/** A page after the last one of a list that has rows (an edited address, or rows removed since). */
export const isPastTheEnd = (pageNo: number, maxPage: number, total: number | undefined): boolean =>
  total !== undefined && total > 0 && maxPage >= 1 && pageNo > maxPage;

/** AM §2/§9: the range reads 'x - y of total'; a page past the end says so instead of '0 - 0'. */
export function rangeText(pageNo: number, rowsPerPage: number, total: number): string {
  const { first, last } = pageRange(pageNo, rowsPerPage, total);
  if (first === 0 && total > 0) return `Past the end · ${formatCount(total)} in all`;
  return `${formatCount(first)} - ${formatCount(last)} of ${formatCount(total)}`;
}
