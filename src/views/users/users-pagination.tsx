import { useSelector } from '@xstate/react';
import { usersAddressOf } from '../../domain/users-address.ts';
import { Pagination } from '../ui/pagination.tsx';
import type { UserListActor } from './users-page.tsx';
import styles from './users.module.css';

/** SUV §2/§9: the users' pages, each address keeping the search and rows per page. */
export function UsersPagination({ list }: { list: UserListActor }) {
  const request = useSelector(list, (snapshot) => snapshot.context.request);
  const total = useSelector(list, (snapshot) => snapshot.context.totalRows);
  const maxPage = useSelector(list, (snapshot) => snapshot.context.maxPage);
  return (
    <Pagination
      className={styles.pagination}
      pageNo={request.pageNo}
      rowsPerPage={request.rowsPerPage}
      total={total}
      maxPage={maxPage}
      hrefOf={(pageNo) => usersAddressOf({ ...request, pageNo })}
    />
  );
}
