import { listHref } from '../../domain/list-view.ts';
import { Pagination } from '../ui/pagination.tsx';
import { useList } from './list-hooks.ts';

/** AM §2/§9: the list's pages, each address keeping its scope, query and view. */
export function ListPagination() {
  const query = useList((snapshot) => snapshot.context.query);
  const scope = useList((snapshot) => snapshot.context.scope);
  const view = useList((snapshot) => snapshot.context.viewPreference);
  const total = useList((snapshot) => snapshot.context.totalRows);
  const maxPage = useList((snapshot) => snapshot.context.maxPage);
  return (
    <Pagination
      pageNo={query.pageNo}
      rowsPerPage={query.rowsPerPage}
      total={total}
      maxPage={maxPage}
      hrefOf={(pageNo) => listHref(scope, { ...query, pageNo }, view)}
      reserveSpace
    />
  );
}
