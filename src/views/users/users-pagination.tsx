import { useSelector } from '@xstate/react';
import { Link } from 'react-router-dom';
import { pageItems, rangeText } from '../../domain/pagination.ts';
import { usersAddressOf } from '../../domain/users-address.ts';
import type { UserListActor } from './users-page.tsx';
import styles from './users.module.css';

/** SUV §2/§9: 'x - y of total' and page links; each keeps the search and rows per page. */
export function UsersPagination({ list }: { list: UserListActor }) {
  const request = useSelector(list, (snapshot) => snapshot.context.request);
  const total = useSelector(list, (snapshot) => snapshot.context.totalRows);
  const maxPage = useSelector(list, (snapshot) => snapshot.context.maxPage);
  if (total === undefined || total === 0) return null;
  const hrefOf = (pageNo: number) => usersAddressOf({ ...request, pageNo });
  return (
    <nav className={styles.pagination} aria-label="Pagination">
      <span>{rangeText(request.pageNo, request.rowsPerPage, total)}</span>
      <ul className={styles.pages}>
        {request.pageNo > 1 && (
          <li>
            <Link className={styles.pageLink} to={hrefOf(Math.min(request.pageNo - 1, maxPage))} aria-label="Previous page">
              ‹
            </Link>
          </li>
        )}
        {pageItems(request.pageNo, maxPage).map((item) =>
          item.kind === 'gap' ? (
            <li key={`gap-${item.side}`} aria-hidden="true">
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
        {request.pageNo < maxPage && (
          <li>
            <Link className={styles.pageLink} to={hrefOf(request.pageNo + 1)} aria-label="Next page">
              ›
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
