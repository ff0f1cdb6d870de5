import { Link } from 'react-router-dom';
import { pageItems, rangeText } from '../../domain/pagination.ts';
import { classNames } from './class-names.ts';
import styles from './pagination.module.css';

export interface PaginationProps {
  pageNo: number;
  rowsPerPage: number;
  /** Undefined while unknown. */
  total: number | undefined;
  maxPage: number;
  /** The address of a page (keeping the list's search, filters and rows per page). */
  hrefOf: (pageNo: number) => string;
  /** Keep the bar's height while there is nothing to show, so the page does not jump when there is. */
  reserveSpace?: boolean;
  className?: string;
}

/** 'x - y of total' and about 7 page links around the current page, first and last, ellipses (AM §9, SUV §9). */
export function Pagination({ pageNo, rowsPerPage, total, maxPage, hrefOf, reserveSpace = false, className }: PaginationProps) {
  if (total === undefined || total === 0) return reserveSpace ? <div className={classNames(styles.pagination, className)} /> : null;
  const previous = pageNo > 1 ? Math.min(pageNo - 1, maxPage) : undefined;
  const next = pageNo < maxPage ? pageNo + 1 : undefined;
  return (
    <nav className={classNames(styles.pagination, className)} aria-label="Pagination">
      <span className={styles.range}>{rangeText(pageNo, rowsPerPage, total)}</span>
      <ul className={styles.pages}>
        <li>
          <PageLink to={previous === undefined ? undefined : hrefOf(previous)} label="Previous page">
            ‹
          </PageLink>
        </li>
        {pageItems(pageNo, maxPage).map((item) =>
          item.kind === 'gap' ? (
            <li key={`gap-${item.side}`} className={styles.gap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item.page}>
              {item.current ? (
                <span className={styles.pageLink} aria-current="page" aria-label={`Page ${item.page}`}>
                  {item.page}
                </span>
              ) : (
                <Link className={styles.pageLink} to={hrefOf(item.page)} aria-label={`Page ${item.page}`}>
                  {item.page}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          <PageLink to={next === undefined ? undefined : hrefOf(next)} label="Next page">
            ›
          </PageLink>
        </li>
      </ul>
    </nav>
  );
}

function PageLink({ to, label, children }: { to: string | undefined; label: string; children: string }) {
  if (to === undefined) {
    return (
      <span className={styles.pageLink} aria-disabled="true" aria-label={label}>
        {children}
      </span>
    );
  }
  return (
    <Link className={styles.pageLink} to={to} aria-label={label}>
      {children}
    </Link>
  );
}
