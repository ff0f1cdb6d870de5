import { createContext, memo, useContext, useMemo, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import type { Key, Selection, SortDescriptor } from 'react-aria-components';
import { Link } from 'react-router-dom';
import { sortableColumns } from '../../domain/list-columns.ts';
import { isPastTheEnd } from '../../domain/pagination.ts';
import { statusStyle } from '../../domain/application-status.ts';
import { columnLabels, columnWidthsRem, fittingWidthRem, formatCount, listCell } from '../../domain/list-format.ts';
import {
  applicationDetailHref,
  fallbackColumnNames,
  isPhoneWidth,
  listColumnsToShow,
  listHref,
} from '../../domain/list-view.ts';
import type { ListColumnName } from '../../domain/list-columns.ts';
import type { ApplicationListRow } from '../../schemas/applications.schema.ts';
import { Button } from '../ui/button.tsx';
import { Checkbox } from '../ui/checkbox.tsx';
import { Cell, Column, Row, Table, TableBody, TableContainer, TableHeader } from '../ui/table.tsx';
import focus from '../ui/focus.module.css';
import { rowPressHandlers } from '../ui/row-press.ts';
import tableStyles from '../ui/table.module.css';
import { CellContent, StatusBadge, type RowMenuProps } from './list-cells.tsx';
import { keepFocusOnShownRows } from './shown-rows-keys.ts';
import { ApplicationListContext } from '../../machines/application-list.machine.ts';
import { useList, useListNavigate, useListPermissions, useListSend } from './list-hooks.ts';
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

/**
 * The table lays its columns out by their set widths (columnWidthsRem), never by the rows, and
 * spreads any extra room over them; when the room is short it scrolls sideways. The default
 * columns fit the content area of a 1280 px window (long values wrap to two lines, then end in an
 * ellipsis, the full value in the cell's title); more columns than that make the table `wide`: it
 * scrolls inside a box no taller than the window, so its scrollbar is in view.
 */
function columnLayout(columns: readonly ColumnItem[], selectable: boolean) {
  const total = columns.reduce((sum, column) => sum + columnWidthsRem[column.id], 0);
  return {
    table: { minWidth: `calc(${total}rem${selectable ? ' + 40px' : ''})` } satisfies CSSProperties,
    column: (id: ListColumnName): CSSProperties => ({ width: `${columnWidthsRem[id]}rem` }),
    wide: total > fittingWidthRem,
  };
}

/**
 * Enter opens the focused row whatever is ticked (react-aria's toggle selection turns Enter into a
 * tick once any row is ticked). Only on a row or one of its cells: Enter on the row menu or a
 * checkbox keeps its own meaning. Runs in the capture phase, before react-aria.
 */
function openOnEnter(event: KeyboardEvent<HTMLElement>, open: (key: string) => void) {
  if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const row = target.closest<HTMLElement>('tbody > [role="row"]');
  if (!row || (target !== row && target.parentElement !== row)) return;
  const key = row.dataset.key;
  if (key === undefined) return;
  event.preventDefault();
  event.stopPropagation();
  open(key);
}

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
  const navigate = useListNavigate();
  const permissions = useListPermissions();
  const sortBy = useList((snapshot) => snapshot.context.query.sortBy);
  const sortType = useList((snapshot) => snapshot.context.query.sortType);
  const rowsPerPage = useList((snapshot) => snapshot.context.query.rowsPerPage);
  const scope = useList((snapshot) => snapshot.context.scope);
  const columnsKnown = useList((snapshot) => snapshot.context.columnNames !== undefined);
  // Skeleton rows only before the first page: later loads keep what is shown, dimmed.
  const firstLoad = useList(
    (snapshot) =>
      snapshot.matches({ list: 'idle' }) || (snapshot.hasTag('loading') && snapshot.context.loadedAt === 0),
  );
  // Rows are keyed by their position on the page, not by application: a new page updates the rows
  // already in the DOM in place (no unmount and remount of every cell, no row moving to another
  // position, which the browser counts as a layout shift). Selection still speaks ApplicationGuids.
  const selectedSlots = useList(
    (snapshot) => selectedSlotsOf(snapshot.context.rows, snapshot.context.selection, slotCount(snapshot.context)),
    sameKeys,
  );

  const layout = useMemo(() => columnLayout(columns, permissions.cancel), [columns, permissions.cancel]);
  if (!columnsKnown || firstLoad) {
    return (
      <SkeletonTable columns={columns} rows={Math.min(rowsPerPage, 20)} selectable={permissions.cancel} />
    );
  }

  // Handlers read the rows when they run, so a new page does not re-render the Table.
  const rowAt = (key: Key): ApplicationListRow | undefined =>
    typeof key === 'number' ? list.getSnapshot().context.rows[key] : undefined;
  const sortDescriptor: SortDescriptor = {
    column: sortBy,
    direction: sortType === 'asc' ? 'ascending' : 'descending',
  };
  const onSortChange = (descriptor: SortDescriptor) => {
    // The direction react-aria proposes is ignored: AM §4 has its own rule (first click descending).
    const column = sortableColumns.find((name) => name === descriptor.column);
    if (column) list.send({ type: 'sort.change', column });
  };
  const onSelectionChange = (keys: Selection) => {
    const chosen = keys === 'all' ? list.getSnapshot().context.rows : [...keys].map(rowAt);
    list.send({
      type: 'selection.change',
      guids: chosen.flatMap((row) => (row ? [row.ApplicationGuid] : [])),
    });
  };
  const open = (key: Key) => {
    const row = rowAt(key);
    if (row) navigate(applicationDetailHref(row.ApplicationID, scope));
  };
  const rowPress = rowPressHandlers((key) => open(Number(key)));
  const onKeyDownCapture = (event: KeyboardEvent<HTMLElement>) => openOnEnter(event, (key) => open(Number(key)));

  return (
    <ResultsFrame rowsPerPage={rowsPerPage} onKeyDownCapture={onKeyDownCapture} rowPress={rowPress}>
      <CellSettingsProvider>
        <TableContainer className={layout.wide ? styles.wideContainer : undefined}>
          <Table
            aria-label="Applications"
            className={styles.fixedTable}
            style={layout.table}
            selectionMode={permissions.cancel ? 'multiple' : 'none'}
            selectionBehavior="toggle"
            selectedKeys={selectedSlots}
            onSelectionChange={onSelectionChange}
            sortDescriptor={sortDescriptor}
            onSortChange={onSortChange}
            onRowAction={open}
          >
            <TableHeader columns={columns} selectAll={<SelectAllCheckbox />}>
              {(column) => (
                <Column
                  id={column.id}
                  isRowHeader={column.isRowHeader}
                  allowsSorting={column.id !== 'Actions'}
                  className={column.id === 'Actions' ? styles.stickyEnd : undefined}
                  style={layout.column(column.id)}
                >
                  {column.id === 'Actions' ? (
                    <span className={focus.visuallyHidden}>{columnLabels.Actions}</span>
                  ) : (
                    columnLabels[column.id]
                  )}
                </Column>
              )}
            </TableHeader>
            <ResultsBody columns={columns} />
          </Table>
        </TableContainer>
        <EmptyResults />
      </CellSettingsProvider>
    </ResultsFrame>
  );
});

/**
 * Dims what is shown while the next page loads; its children (the Table) do not re-render for it.
 * Keeps keyboard focus off the hidden rows of a short page.
 */
function ResultsFrame({
  rowsPerPage,
  onKeyDownCapture,
  rowPress,
  children,
}: {
  rowPress: ReturnType<typeof rowPressHandlers>;
  rowsPerPage: number;
  onKeyDownCapture: (event: KeyboardEvent<HTMLElement>) => void;
  children: ReactNode;
}) {
  const loading = useList((snapshot) => snapshot.hasTag('loading'));
  // A page that came back empty shows its message near the top: the full page's height is kept
  // only while rows are shown or coming (AM §9 no layout shift while results load).
  const empty = useList((snapshot) => snapshot.context.rows.length === 0 && !snapshot.hasTag('loading'));
  return (
    <div
      className={styles.results}
      aria-busy={loading}
      onPointerDownCapture={rowPress.onPointerDownCapture}
      onClickCapture={rowPress.onClickCapture}
      style={empty ? undefined : resultsHeight(rowsPerPage)}
      onKeyDownCapture={(event) => {
        onKeyDownCapture(event);
        if (!event.isPropagationStopped()) keepFocusOnShownRows(event);
      }}
    >
      {children}
    </div>
  );
}

/**
 * Positions on the page: as many as a full page (or as the rows, were there ever more). A shorter or
 * empty page keeps them all, and hides those without a row (CSS, `slotRow`): the collection does
 * not change with the number of rows, so react-aria does not render every row and cell again for it
 * (more than half of such a render), nor mount them all again after 'No Results.'.
 */
const slotCount = (context: { rows: readonly unknown[]; query: { rowsPerPage: number } }) =>
  Math.max(context.rows.length, context.query.rowsPerPage);

/**
 * The selected positions. With every row selected, the hidden positions count as selected too, so
 * that react-aria's select-all checkbox shows "all" rather than "some".
 */
function selectedSlotsOf(rows: readonly ApplicationListRow[], selection: readonly string[], slots: number): number[] {
  const selected = rows.flatMap((row, slot) => (selection.includes(row.ApplicationGuid) ? [slot] : []));
  if (selected.length === 0 || selected.length < rows.length) return selected;
  return Array.from({ length: slots }, (_, slot) => slot);
}

/** One item per position on the page, the same objects every time: react-aria keeps a row's rendering while its item stays. */
const slotItems: { id: number }[] = [];
function slotsOf(count: number): { id: number }[] {
  for (let id = slotItems.length; id < count; id++) slotItems.push({ id });
  return slotItems.slice(0, count);
}

/** What every cell needs besides its row; changes rarely. */
interface CellSettings {
  phone: boolean;
  menu: Omit<RowMenuProps, 'row'>;
}
const CellSettingsContext = createContext<CellSettings | undefined>(undefined);

/** Provides the cells' settings above the Table (react-aria renders the cells in the Table's own tree). */
function CellSettingsProvider({ children }: { children: ReactNode }) {
  const list = ApplicationListContext.useActorRef();
  const permissions = useListPermissions();
  const scope = useList((snapshot) => snapshot.context.scope);
  const phone = useList((snapshot) => isPhoneWidth(snapshot.context.width));
  const settings = useMemo<CellSettings>(
    () => ({
      phone,
      menu: {
        scope,
        canCancel: permissions.cancel,
        onCancel: (applicationGuid: string) => list.send({ type: 'cancel.open', guids: [applicationGuid] }),
      },
    }),
    [phone, scope, permissions.cancel, list],
  );
  return <CellSettingsContext.Provider value={settings}>{children}</CellSettingsContext.Provider>;
}

/**
 * The rows. A new page does not re-render the Table, its rows or its cells (react-aria's grid hooks:
 * most of the cost of a page): the positions stay the same items whatever the number of rows (see
 * slotCount), and only each cell's content, which reads its row from the machine, renders again.
 */
function ResultsBody({ columns }: { columns: ColumnItem[] }) {
  const count = useList((snapshot) => slotCount(snapshot.context));
  const slots = useMemo(() => slotsOf(count), [count]);

  return (
    <TableBody items={slots} dependencies={[columns]}>
      {({ id }) => (
        <Row id={id} className={styles.slotRow} columns={columns} dependencies={[columns]}>
          {(column) => (
            <Cell className={column.id === 'Actions' ? styles.stickyEnd : undefined}>
              <SlotCell slot={id} column={column.id} isRowHeader={column.isRowHeader} />
            </Cell>
          )}
        </Row>
      )}
    </TableBody>
  );
}

/**
 * The content of one cell: the value of its column in the row now at its position. The row header's
 * cell marks a position that holds a row (`data-filled`); the others are hidden.
 */
const SlotCell = memo(function SlotCell({ slot, column, isRowHeader }: { slot: number; column: ListColumnName; isRowHeader: boolean }) {
  const row = useList((snapshot) => snapshot.context.rows[slot]);
  const loadedAt = useList((snapshot) => snapshot.context.loadedAt);
  const settings = useContext(CellSettingsContext);
  if (!row || !settings) return null;
  return (
    <>
      {isRowHeader && <span data-filled hidden />}
      {settings.phone ? (
        <PhoneCell row={row} />
      ) : (
        <CellContent cell={listCell(row, column, loadedAt)} menu={{ row, ...settings.menu }} />
      )}
    </>
  );
});

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

/** Select all, disabled while the page shows no rows (its hidden positions are no rows to select). */
function SelectAllCheckbox() {
  const empty = useList((snapshot) => snapshot.context.rows.length === 0);
  return <Checkbox slot="selection" isDisabled={empty} />;
}

/**
 * 'No Results.' below the column headers, or a failed load's Retry (AM §8: an empty list with status
 * failed). Outside the table's collection, whose rows stay mounted (hidden) while it shows; the text
 * is in a live region, so a search that finds nothing is announced.
 */
function EmptyResults() {
  const empty = useList((snapshot) => snapshot.context.rows.length === 0);
  const failed = useList((snapshot) => snapshot.matches({ list: 'failed' }));
  return (
    <>
      <div role="status">
        {empty && !failed && (
          <div className={styles.emptyState}>
            <p>No Results.</p>
            <PastTheEnd />
          </div>
        )}
      </div>
      {empty && failed && <ListFailure />}
    </>
  );
}

/** A page past the end of the list (rows were removed, or an edited address): the way to the last one. */
function PastTheEnd() {
  const query = useList((snapshot) => snapshot.context.query);
  const scope = useList((snapshot) => snapshot.context.scope);
  const view = useList((snapshot) => snapshot.context.viewPreference);
  const maxPage = useList((snapshot) => snapshot.context.maxPage);
  const total = useList((snapshot) => snapshot.context.totalRows);
  if (!isPastTheEnd(query.pageNo, maxPage, total)) return null;
  return (
    <p>
      Page {formatCount(query.pageNo)} is past the end of the list.{' '}
      <Link to={listHref(scope, { ...query, pageNo: maxPage }, view)}>Go to the last page ({formatCount(maxPage)})</Link>
    </p>
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
function SkeletonTable({
  columns,
  rows,
  selectable,
}: {
  columns: ColumnItem[];
  rows: number;
  selectable: boolean;
}) {
  const layout = columnLayout(columns, selectable);
  return (
    <div className={styles.results} style={resultsHeight(rows)}>
      <p role="status" className={focus.visuallyHidden}>
        Loading applications...
      </p>
      <TableContainer>
        <table
          aria-hidden="true"
          className={`${tableStyles.table} ${styles.fixedTable}`}
          style={layout.table}
        >
          <thead>
            <tr>
              {selectable && <th className={`${tableStyles.column} ${tableStyles.selectColumn}`} />}
              {columns.map((column) => (
                <th key={column.id} className={tableStyles.column} style={layout.column(column.id)}>
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
