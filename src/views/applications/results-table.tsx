import { useMemo } from 'react';
import type { Selection, SortDescriptor } from 'react-aria-components';
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

/** AM §2 results in the list view: sortable columns, row checkboxes with app.cancel, row menu, 'No Results.'. */
export function ResultsTable() {
  const columns = useColumns();
  const send = useListSend();
  const navigate = useNavigate();
  const permissions = useListPermissions();
  const rows = useList((snapshot) => snapshot.context.rows);
  const selection = useList((snapshot) => snapshot.context.selection);
  const sortBy = useList((snapshot) => snapshot.context.query.sortBy);
  const sortType = useList((snapshot) => snapshot.context.query.sortType);
  const rowsPerPage = useList((snapshot) => snapshot.context.query.rowsPerPage);
  const scope = useList((snapshot) => snapshot.context.scope);
  const loadedAt = useList((snapshot) => snapshot.context.loadedAt);
  const columnsKnown = useList((snapshot) => snapshot.context.columnNames !== undefined);
  const loading = useList((snapshot) => snapshot.hasTag('loading'));
  const waiting = useList((snapshot) => snapshot.matches({ list: 'idle' }));
  const failed = useList((snapshot) => snapshot.matches({ list: 'failed' }));
  const phone = useList((snapshot) => isPhoneWidth(snapshot.context.width));

  if (!columnsKnown || waiting || (loading && rows.length === 0)) {
    return <SkeletonTable columns={columns} rows={Math.min(rowsPerPage, 20)} selectable={permissions.cancel} />;
  }

  const sortDescriptor: SortDescriptor = { column: sortBy, direction: sortType === 'asc' ? 'ascending' : 'descending' };
  const onSortChange = (descriptor: SortDescriptor) => {
    // The direction react-aria proposes is ignored: AM §4 has its own rule (first click descending).
    const column = sortableColumns.find((name) => name === descriptor.column);
    if (column) send({ type: 'sort.change', column });
  };
  const onSelectionChange = (keys: Selection) => {
    const guids = keys === 'all' ? rows.map((row) => row.ApplicationGuid) : [...keys].map(String);
    send({ type: 'selection.change', guids });
  };
  const openRow = (key: string | number) => {
    const row = rows.find((candidate) => candidate.ApplicationGuid === key);
    if (row && !isSelectingText()) void navigate(applicationDetailHref(row.ApplicationID, scope));
  };
  const onCancel = (applicationGuid: string) => send({ type: 'cancel.open', guids: [applicationGuid] });

  return (
    <div className={styles.results} aria-busy={loading}>
      <TableContainer>
        <Table
          aria-label="Applications"
          selectionMode={permissions.cancel ? 'multiple' : 'none'}
          selectionBehavior="toggle"
          selectedKeys={selection}
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
          <TableBody
            items={rows}
            dependencies={[columns, loadedAt, permissions, phone]}
            renderEmptyState={() =>
              failed ? <ListFailure /> : <p className={styles.emptyState}>No Results.</p>
            }
          >
            {(row) => (
              <Row id={row.ApplicationGuid} columns={columns} dependencies={[columns, loadedAt, permissions, phone]}>
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
        </Table>
      </TableContainer>
    </div>
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
    <div className={styles.results}>
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
