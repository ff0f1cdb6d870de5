import { memo, useCallback, useMemo, type CSSProperties, type ReactNode } from 'react';
import type { Key, Selection, SortDescriptor } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { sortableColumns } from '../../domain/list-columns.ts';
import { statusStyle } from '../../domain/application-status.ts';
import { columnLabels, listCell } from '../../domain/list-format.ts';
import { applicationDetailHref, fallbackColumnNames, isPhoneWidth, listColumnsToShow } from '../../domain/list-view.ts';
import type { ListColumnName } from '../../domain/list-columns.ts';
import type { ApplicationListRow } from '../../schemas/applications.schema.ts';
import { Button } from '../ui/button.tsx';
import { Cell, Column, Row, Table, TableBody, TableContainer, TableHeader } from '../ui/table.tsx';
import focus from '../ui/focus.module.css';
import tableStyles from '../ui/table.module.css';
import { CellContent, StatusBadge } from './list-cells.tsx';
import { ApplicationListContext } from '../../machines/application-list.machine.ts';
import { useList, useListPermissions, useListSend } from './list-hooks.ts';
import styles from './application-list.module.css';

interface ColumnItem {
  id: ListColumnName;
  isRowHeader: boolean;
}

/** The columns on screen; the rows' cells follow the same items. */
function useColumns(): ColumnItem[] {
  const names = useList((snapshot) => snapshot.context.columnNames);
  const width = useList((snapshot) => snapshot.context.width);
  const phone = isPhoneWidth(width);
  return useMemo(() => {
    const shown = listColumnsToShow(names ?? fallbackColumnNames, phone);
    const header = shown.includes('ID') ? 'ID' : shown[0];
    return shown.map((id) => ({ id, isRowHeader: id === header }));
  }, [names, phone]);
}

/** A click on selected text is someone copying, not opening (AM §4). */
const isSelectingText = (): boolean => (window.getSelection()?.toString() ?? '') !== '';

/**
 * The results keep the height of a full page (as many rows as the skeleton shows, up to 20), so a
 * short page or 'No Results.' does not pull the pagination up when it arrives.
 */
const resultsHeight = (rowsPerPage: number): CSSProperties => ({
  minHeight: `calc(${Math.min(rowsPerPage, 20) + 1} * var(--table-row-height, 44px) + 2px)`,
});

const sameKeys = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((key, index) => key === b[index]);

/**
 * AM §2 results in the list view: sortable columns, row checkboxes with app.cancel, row menu, 'No Results.'.
 *
 * Render cost: react-aria rebuilds the table's collection in a hidden pass, then renders every cell
 * again whenever the Table itself re-renders (its state context changes each time). So this component
 * selects only what changes rarely (columns, sort, the selection as row positions); the rows go to
 * `ResultsBody`, which re-renders alone when a page arrives, and the busy dimming to `ResultsFrame`.
 * A new page then costs one pass over the cells, not three (and none while it is loading). It is
 * memoised because the page above re-renders for the title ('N applications') when a page arrives.
 */
export const ResultsTable = memo(function ResultsTable() {
  const columns = useColumns();
  const list = ApplicationListContext.useActorRef();
  const navigate = useNavigate();
  const permissions = useListPermissions();
  const sortBy = useList((snapshot) => snapshot.context.query.sortBy);
  const sortType = useList((snapshot) => snapshot.context.query.sortType);
  const rowsPerPage = useList((snapshot) => snapshot.context.query.rowsPerPage);
  const scope = useList((snapshot) => snapshot.context.scope);
  const columnsKnown = useList((snapshot) => snapshot.context.columnNames !== undefined);
  // Skeleton rows only before the first page: later loads keep what is shown, dimmed.
  const firstLoad = useList(
    (snapshot) => snapshot.matches({ list: 'idle' }) || (snapshot.hasTag('loading') && snapshot.context.loadedAt === 0),
  );
  // Rows are keyed by their position on the page, not by application: a new page updates the rows
  // already in the DOM in place (no unmount and remount of every cell, no row moving to another
  // position, which the browser counts as a layout shift). Selection still speaks ApplicationGuids.
  const selectedSlots = useList(
    (snapshot) =>
      snapshot.context.rows.flatMap((row, slot) => (snapshot.context.selection.includes(row.ApplicationGuid) ? [slot] : [])),
    sameKeys,
  );

  if (!columnsKnown || firstLoad) {
    return <SkeletonTable columns={columns} rows={Math.min(rowsPerPage, 20)} selectable={permissions.cancel} />;
  }

  // Handlers read the rows when they run, so a new page does not re-render the Table.
  const rowAt = (key: Key): ApplicationListRow | undefined =>
    typeof key === 'number' ? list.getSnapshot().context.rows[key] : undefined;
  const sortDescriptor: SortDescriptor = { column: sortBy, direction: sortType === 'asc' ? 'ascending' : 'descending' };
  const onSortChange = (descriptor: SortDescriptor) => {
    // The direction react-aria proposes is ignored: AM §4 has its own rule (first click descending).
    const column = sortableColumns.find((name) => name === descriptor.column);
    if (column) list.send({ type: 'sort.change', column });
  };
  const onSelectionChange = (keys: Selection) => {
    const chosen = keys === 'all' ? list.getSnapshot().context.rows : [...keys].map(rowAt);
    list.send({ type: 'selection.change', guids: chosen.flatMap((row) => (row ? [row.ApplicationGuid] : [])) });
  };
  const openRow = (key: Key) => {
    const row = rowAt(key);
    if (row && !isSelectingText()) void navigate(applicationDetailHref(row.ApplicationID, scope));
  };

  return (
    <ResultsFrame rowsPerPage={rowsPerPage}>
      <TableContainer>
        <Table
          aria-label="Applications"
          selectionMode={permissions.cancel ? 'multiple' : 'none'}
          selectionBehavior="toggle"
          selectedKeys={selectedSlots}
          onSelectionChange={onSelectionChange}
          sortDescriptor={sortDescriptor}
          onSortChange={onSortChange}
          onRowAction={openRow}
        >
          <TableHeader columns={columns}>
            {(column) => (
              <Column id={column.id} isRowHeader={column.isRowHeader} allowsSorting={column.id !== 'Actions'}>
                {column.id === 'Actions' ? <span className={focus.visuallyHidden}>{columnLabels.Actions}</span> : columnLabels[column.id]}
              </Column>
            )}
          </TableHeader>
          <ResultsBody columns={columns} />
        </Table>
      </TableContainer>
    </ResultsFrame>
  );
});

/** Dims what is shown while the next page loads; its children (the Table) do not re-render for it. */
function ResultsFrame({ rowsPerPage, children }: { rowsPerPage: number; children: ReactNode }) {
  const loading = useList((snapshot) => snapshot.hasTag('loading'));
  return (
    <div className={styles.results} aria-busy={loading} style={resultsHeight(rowsPerPage)}>
      {children}
    </div>
  );
}

/** The rows: rendered inside the Table's collection, so a new page re-renders only this and the cells. */
function ResultsBody({ columns }: { columns: ColumnItem[] }) {
  const list = ApplicationListContext.useActorRef();
  const permissions = useListPermissions();
  const rows = useList((snapshot) => snapshot.context.rows);
  const scope = useList((snapshot) => snapshot.context.scope);
  const loadedAt = useList((snapshot) => snapshot.context.loadedAt);
  const failed = useList((snapshot) => snapshot.matches({ list: 'failed' }));
  const phone = useList((snapshot) => isPhoneWidth(snapshot.context.width));
  const slots = useMemo(() => rows.map((row, slot) => ({ slot, row })), [rows]);
  const onCancel = useCallback(
    (applicationGuid: string) => list.send({ type: 'cancel.open', guids: [applicationGuid] }),
    [list],
  );

  return (
    <TableBody
      items={slots}
      dependencies={[columns, loadedAt, permissions, phone, failed, scope, onCancel]}
      renderEmptyState={() => (failed ? <ListFailure /> : <p className={styles.emptyState}>No Results.</p>)}
    >
      {({ slot, row }) => (
        <Row id={slot} columns={columns} dependencies={[columns, row, loadedAt, permissions, phone, scope, onCancel]}>
          {(column) => (
            <Cell>
              {phone ? (
                <PhoneCell row={row} />
              ) : (
                <CellContent
                  cell={listCell(row, column.id, loadedAt)}
                  menu={{ row, scope, canCancel: permissions.cancel, onCancel }}
                />
              )}
            </Cell>
          )}
        </Row>
      )}
    </TableBody>
  );
}

/** On a phone only the Status column shows (AM §2); its cell names the application too. */
function PhoneCell({ row }: { row: ApplicationListRow }) {
  return (
    <span className={styles.phoneCell}>
      <StatusBadge status={row.Status} style={statusStyle(row.Status)} />
      <small>
        {row.AccountName} ({row.ApplicationID})
      </small>
    </span>
  );
}

/** AM §8: a list failure is an empty list with status failed, and Retry. */
export function ListFailure() {
  const send = useListSend();
  return (
    <div className={styles.failure} role="alert">
      <span>The applications could not be loaded.</span>
      <Button onPress={() => send({ type: 'list.retry' })}>Retry</Button>
    </div>
  );
}

/** Rows of the same height as the real ones, so nothing moves when the results arrive. */
function SkeletonTable({ columns, rows, selectable }: { columns: ColumnItem[]; rows: number; selectable: boolean }) {
  return (
    <div className={styles.results} style={resultsHeight(rows)}>
      <p role="status" className={focus.visuallyHidden}>
        Loading applications...
      </p>
      <TableContainer>
        <table aria-hidden="true" className={tableStyles.table}>
          <thead>
            <tr>
              {selectable && <th className={`${tableStyles.column} ${tableStyles.selectColumn}`} />}
              {columns.map((column) => (
                <th key={column.id} className={tableStyles.column}>
                  {column.id === 'Actions' ? '' : columnLabels[column.id]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: rows }, (_, index) => (
              <tr key={index} className={tableStyles.row}>
                {selectable && <td className={`${tableStyles.cell} ${tableStyles.selectCell}`} />}
                {columns.map((column) => (
                  <td key={column.id} className={tableStyles.cell}>
                    <span className={styles.skeletonBar} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableContainer>
    </div>
  );
}
