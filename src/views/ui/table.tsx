import type { ReactNode } from 'react';
import {
  Cell as AriaCell,
  Collection,
  Column as AriaColumn,
  Row as AriaRow,
  Table as AriaTable,
  TableBody,
  TableHeader as AriaTableHeader,
  useTableOptions,
  type CellProps as AriaCellProps,
  type ColumnProps as AriaColumnProps,
  type RowProps as AriaRowProps,
  type TableHeaderProps as AriaTableHeaderProps,
  type TableProps as AriaTableProps,
} from 'react-aria-components';
import { ArrowDownIcon, ArrowUpIcon } from './action-icons.tsx';
import { Checkbox } from './checkbox.tsx';
import { classNames } from './class-names.ts';
import styles from './table.module.css';

/**
 * The react-aria Table (a grid: arrow keys move between cells, Space selects, Enter opens) with
 * the portal's look. With `selectionMode="multiple"` the header and every row get a selection
 * checkbox column, as in the react-aria-components starter.
 */
export { TableBody };

export function TableContainer({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={classNames(styles.container, className)}>{children}</div>;
}

export function Table({ className, ...props }: Omit<AriaTableProps, 'className'> & { className?: string }) {
  return <AriaTable {...props} className={classNames(styles.table, className)} />;
}

export function TableHeader<T extends object>({
  columns,
  children,
  selectAll,
  ...props
}: Omit<AriaTableHeaderProps<T>, 'className'> & {
  /** The select-all checkbox, if not react-aria's own: a `<Checkbox slot="selection" />` with more to say. */
  selectAll?: ReactNode;
}) {
  const { selectionBehavior, selectionMode } = useTableOptions();
  return (
    <AriaTableHeader {...props}>
      {selectionBehavior === 'toggle' && (
        <AriaColumn className={classNames(styles.column, styles.selectColumn)}>
          {selectionMode === 'multiple' && (selectAll ?? <Checkbox slot="selection" />)}
        </AriaColumn>
      )}
      <Collection items={columns}>{children}</Collection>
    </AriaTableHeader>
  );
}

export interface ColumnProps extends Omit<AriaColumnProps, 'className' | 'children'> {
  children: ReactNode;
  className?: string;
}

/** A column header; sortable ones show the direction (and react-aria announces it). */
export function Column({ children, className, ...props }: ColumnProps) {
  return (
    <AriaColumn {...props} className={classNames(styles.column, className)}>
      {({ allowsSorting, sortDirection }) => (
        <span className={styles.columnContent}>
          {children}
          {allowsSorting && (
            <span className={styles.sortIndicator} aria-hidden="true">
              {sortDirection === 'ascending' ? (
                <ArrowUpIcon />
              ) : sortDirection === 'descending' ? (
                <ArrowDownIcon />
              ) : null}
            </span>
          )}
        </span>
      )}
    </AriaColumn>
  );
}

export function Row<T extends object>({
  id,
  columns,
  children,
  className,
  ...props
}: Omit<AriaRowProps<T>, 'className'> & { className?: string }) {
  const { selectionBehavior } = useTableOptions();
  return (
    <AriaRow id={id} {...props} className={classNames(styles.row, className)}>
      {selectionBehavior === 'toggle' && (
        <AriaCell className={classNames(styles.cell, styles.selectCell)}>
          <Checkbox slot="selection" />
        </AriaCell>
      )}
      <Collection items={columns}>{children}</Collection>
    </AriaRow>
  );
}

export function Cell({ className, ...props }: Omit<AriaCellProps, 'className'> & { className?: string }) {
  return <AriaCell {...props} className={classNames(styles.cell, className)} />;
}
