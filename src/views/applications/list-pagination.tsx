import { Link } from 'react-router-dom';
import { listHref } from '../../domain/list-view.ts';
import { pageItems, rangeText } from '../../domain/pagination.ts';
import { useList } from './list-hooks.ts';
import styles from './application-list.module.css';

/** AM §2/§9: 'x - y of total' and about 7 page links around the current page, first and last, ellipses. */
export function ListPagination() {
  const query = useList((snapshot) => snapshot.context.query);
  const scope = useList((snapshot) => snapshot.context.scope);
  const view = useList((snapshot) => snapshot.context.viewPreference);
  const total = useList((snapshot) => snapshot.context.totalRows);
  const maxPage = useList((snapshot) => snapshot.context.maxPage);

  // The space stays reserved while nothing is known, so the page does not jump when it is.
  if (total === undefined || total === 0) return <div className={styles.pagination} />;

  const hrefOf = (pageNo: number) => listHref(scope, { ...query, pageNo }, view);
  const previous = query.pageNo > 1 ? Math.min(query.pageNo - 1, maxPage) : undefined;
  const next = query.pageNo < maxPage ? query.pageNo + 1 : undefined;

  return (
    <nav className={styles.pagination} aria-label="Pagination">
      <span className={styles.range}>{rangeText(query.pageNo, query.rowsPerPage, total)}</span>
      <ul className={styles.pages}>
        <li>
          <PageLink to={previous === undefined ? undefined : hrefOf(previous)} label="Previous page">
            ‹
          </PageLink>
        </li>
        {pageItems(query.pageNo, maxPage).map((item) =>
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
