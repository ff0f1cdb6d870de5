import { ListBox, ListBoxItem, type Selection } from 'react-aria-components';
import { Link } from 'react-router-dom';
import { statusStyle } from '../../domain/application-status.ts';
import { cellText, columnLabels, formatListDate, listCell } from '../../domain/list-format.ts';
import { applicationDetailHref, fallbackColumnNames, listColumnsToShow } from '../../domain/list-view.ts';
import type { ApplicationListRow } from '../../schemas/applications.schema.ts';
import { Button } from '../ui/button.tsx';
import { ExternalIcon } from '../ui/icons.tsx';
import { Loader } from '../ui/loader.tsx';
import { StatusBadge } from './list-cells.tsx';
import { useList, useListPermissions, useListSend } from './list-hooks.ts';
import { ListFailure } from './results-table.tsx';
import styles from './application-list.module.css';

/** What names an application: its account, else its client, else its number (a new one has neither yet). */
const summaryTitle = (row: ApplicationListRow): string =>
  row.AccountName.trim() || row.ClientName.trim() || `Application ${row.ApplicationID}`;

/** AM §2 the email view: the rows on the left, the chosen row's summary on the right (1200 px and wider). */
export function EmailView() {
  const send = useListSend();
  const rows = useList((snapshot) => snapshot.context.rows);
  const activeGuid = useList((snapshot) => snapshot.context.activeGuid);
  const loadedAt = useList((snapshot) => snapshot.context.loadedAt);
  const loading = useList((snapshot) => snapshot.hasTag('loading') || snapshot.matches({ list: 'idle' }));
  const failed = useList((snapshot) => snapshot.matches({ list: 'failed' }));
  const active = rows.find((row) => row.ApplicationGuid === activeGuid);

  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [first] = keys;
    if (first !== undefined) send({ type: 'row.activate', guid: String(first) });
  };

  return (
    <div className={styles.split} aria-busy={loading}>
      <ListBox
        aria-label="Applications"
        className={styles.master}
        items={rows}
        selectionMode="single"
        disallowEmptySelection
        selectedKeys={activeGuid ? [activeGuid] : []}
        onSelectionChange={onSelectionChange}
        dependencies={[loadedAt]}
        renderEmptyState={() =>
          loading ? <Loader text="Loading applications..." /> : failed ? <ListFailure /> : <p className={styles.emptyState}>No Results.</p>
        }
      >
        {(row) => (
          <ListBoxItem id={row.ApplicationGuid} textValue={`${summaryTitle(row)} ${row.ApplicationID}`} className={styles.masterItem}>
            <span className={styles.masterLine}>
              <strong>{summaryTitle(row)}</strong>
              <span className={styles.masterMeta}>{formatListDate(row.DateCreatedTimestamp, loadedAt)}</span>
            </span>
            <span className={styles.masterLine}>
              <span className={styles.masterMeta}>
                {[String(row.ApplicationID), row.PrimaryEmail].filter(Boolean).join(' · ')}
              </span>
              <StatusBadge status={row.Status} style={statusStyle(row.Status)} />
            </span>
          </ListBoxItem>
        )}
      </ListBox>
      <section className={styles.detail} aria-label="Application summary">
        {active ? <ApplicationSummary row={active} /> : <p className={styles.muted}>Select an application.</p>}
      </section>
    </div>
  );
}

/** The chosen row: its visible columns as label and value, Open, Open in New Tab and Cancel Application. */
function ApplicationSummary({ row }: { row: ApplicationListRow }) {
  const send = useListSend();
  const permissions = useListPermissions();
  const scope = useList((snapshot) => snapshot.context.scope);
  const loadedAt = useList((snapshot) => snapshot.context.loadedAt);
  const names = useList((snapshot) => snapshot.context.columnNames);
  const columns = listColumnsToShow(names ?? fallbackColumnNames, false).filter(
    (column) => column !== 'Actions' && column !== 'AccountName',
  );
  const href = applicationDetailHref(row.ApplicationID, scope);

  return (
    <>
      <h2>{summaryTitle(row)}</h2>
      <p className={styles.muted}>Application {row.ApplicationID}</p>
      <div className={styles.detailActions}>
        <Link to={href} className={styles.linkLike}>
          Open application
        </Link>
        <a href={href} target="_blank" rel="noopener noreferrer" className={styles.linkLike}>
          Open in New Tab <ExternalIcon />
        </a>
        {permissions.cancel && (
          <Button onPress={() => send({ type: 'cancel.open', guids: [row.ApplicationGuid] })}>Cancel Application</Button>
        )}
      </div>
      <dl className={styles.fields}>
        {columns.map((column) => {
          const cell = listCell(row, column, loadedAt);
          return (
            <div key={column} style={{ display: 'contents' }}>
              <dt>{columnLabels[column]}</dt>
              <dd>{cell.kind === 'status' ? <StatusBadge status={cell.text} style={cell.style} /> : cellText(cell) || '—'}</dd>
            </div>
          );
        })}
      </dl>
    </>
  );
}
