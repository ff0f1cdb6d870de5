import type { Key } from 'react-aria-components';
import { applicationDetailHref, type ListScope } from '../../domain/list-view.ts';
import { moreLabel, type ListCell } from '../../domain/list-format.ts';
import type { ApplicationListRow } from '../../schemas/applications.schema.ts';
import { MoreIcon } from '../ui/action-icons.tsx';
import { Button } from '../ui/button.tsx';
import { Menu, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { Tooltip } from '../ui/tooltip.tsx';
import styles from './application-list.module.css';

/** AM §4: Documents pending, Complete and Locked get their style; other statuses are plain text. */
export function StatusBadge({ status, style }: { status: string; style: string }) {
  return (
    <span className={styles.status} data-style={style}>
      {status}
    </span>
  );
}

/** AM §9: the first 3 products, then '+N' with a tooltip naming the rest. */
function Products({ shown, rest }: { shown: string[]; rest: string[] }) {
  return (
    <span className={styles.products}>
      <span>{shown.join(', ')}</span>
      {rest.length > 0 && (
        <Tooltip content={rest.join(', ')}>
          <Button variant="quiet" className={styles.moreButton} aria-label={`${rest.length} more: ${rest.join(', ')}`}>
            {moreLabel(rest.length)}
          </Button>
        </Tooltip>
      )}
    </span>
  );
}

export interface RowMenuProps {
  row: ApplicationListRow;
  scope: ListScope;
  canCancel: boolean;
  onCancel: (applicationGuid: string) => void;
}

/** AM §2 row menu: Open in New Tab, and Cancel Application with app.cancel. */
export function RowMenu({ row, scope, canCancel, onCancel }: RowMenuProps) {
  const onAction = (key: Key) => {
    if (key === 'cancel') onCancel(row.ApplicationGuid);
  };
  return (
    <MenuTrigger>
      <Button variant="icon" className={styles.rowMenuButton} aria-label={`Actions for application ${row.ApplicationID}`}>
        <MoreIcon />
      </Button>
      <MenuPopover>
        <Menu aria-label={`Application ${row.ApplicationID}`} onAction={onAction}>
          <MenuItem id="open" href={applicationDetailHref(row.ApplicationID, scope)} target="_blank" rel="noopener noreferrer">
            Open in New Tab
          </MenuItem>
          {canCancel && <MenuItem id="cancel">Cancel Application</MenuItem>}
        </Menu>
      </MenuPopover>
    </MenuTrigger>
  );
}

/** One cell's content by kind; the row menu needs the row and what the user may do. */
export function CellContent({ cell, menu }: { cell: ListCell; menu: RowMenuProps }) {
  switch (cell.kind) {
    case 'status':
      return <StatusBadge status={cell.text} style={cell.style} />;
    case 'products':
      return <Products shown={cell.shown} rest={cell.rest} />;
    case 'actions':
      return <RowMenu {...menu} />;
    case 'number':
      return <span className={styles.number}>{cell.text}</span>;
    case 'text':
      // Two lines, then an ellipsis: the whole value on hover (title), and on focus (CSS).
      return (
        <span className={styles.clamp} title={cell.text || undefined}>
          {cell.text}
        </span>
      );
  }
}
