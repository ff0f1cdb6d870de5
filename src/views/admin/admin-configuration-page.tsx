import { useId } from 'react';
import { canConfigureTenant } from '../../domain/list-permissions.ts';
import {
  AdminConfigurationContext,
  isFixedColumn,
  saveOutcomeTexts,
  type SaveOutcome,
} from '../../machines/admin-configuration.machine.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { NoAccessPage } from '../shell/no-access-page.tsx';
import { Button } from '../ui/button.tsx';
import { Checkbox } from '../ui/checkbox.tsx';
import { Loader } from '../ui/loader.tsx';
import styles from './admin-configuration.module.css';

/**
 * AM §2 /admin: the tenant configuration page. Without the admin claim AM says blank; it shows the
 * no-access screen instead, whose heading a screen reader needs (issue 39 point 21, decision 011).
 */
export function AdminConfigurationPage() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  if (!canConfigureTenant(claims)) return <NoAccessPage title="Admin" />;
  return (
    <AdminConfigurationContext.Provider>
      <section className={styles.page} aria-labelledby="admin-heading">
        <h1 id="admin-heading">Admin</h1>
        <ColumnConfiguration />
        <RowConfiguration />
      </section>
    </AdminConfigurationContext.Provider>
  );
}

interface ConfigItem {
  name: string;
  description: string;
  viewable: boolean;
  fixed: boolean;
}

interface ConfigTableProps {
  title: string;
  items: ConfigItem[];
  loading: boolean;
  failed: boolean;
  saving: boolean;
  outcome: SaveOutcome;
  onToggle: (name: string, viewable: boolean) => void;
  onSave: () => void;
  onRetry: () => void;
}

function ColumnConfiguration() {
  const admin = AdminConfigurationContext.useActorRef();
  const columns = AdminConfigurationContext.useSelector((snapshot) => snapshot.context.columns);
  const outcome = AdminConfigurationContext.useSelector((snapshot) => snapshot.context.columnsOutcome);
  const loading = AdminConfigurationContext.useSelector((snapshot) => snapshot.matches({ columns: 'loading' }));
  const failed = AdminConfigurationContext.useSelector((snapshot) => snapshot.matches({ columns: 'failed' }));
  const saving = AdminConfigurationContext.useSelector((snapshot) => snapshot.matches({ columns: 'saving' }));
  return (
    <ConfigTable
      title="Column configuration"
      items={columns.map((column) => ({
        name: column.ColumnName,
        description: column.Description,
        viewable: column.Viewable || isFixedColumn(column.ColumnName),
        fixed: isFixedColumn(column.ColumnName),
      }))}
      loading={loading}
      failed={failed}
      saving={saving}
      outcome={outcome}
      onToggle={(name, viewable) => admin.send({ type: 'column.toggle', name, viewable })}
      onSave={() => admin.send({ type: 'columns.save' })}
      onRetry={() => admin.send({ type: 'columns.retry' })}
    />
  );
}

function RowConfiguration() {
  const admin = AdminConfigurationContext.useActorRef();
  const rows = AdminConfigurationContext.useSelector((snapshot) => snapshot.context.rows);
  const outcome = AdminConfigurationContext.useSelector((snapshot) => snapshot.context.rowsOutcome);
  const loading = AdminConfigurationContext.useSelector((snapshot) => snapshot.matches({ rows: 'loading' }));
  const failed = AdminConfigurationContext.useSelector((snapshot) => snapshot.matches({ rows: 'failed' }));
  const saving = AdminConfigurationContext.useSelector((snapshot) => snapshot.matches({ rows: 'saving' }));
  return (
    <ConfigTable
      title="Application Detail Row configuration"
      items={rows.map((row) => ({
        name: row.ApplicationDetailRowName,
        description: row.Description,
        viewable: row.Viewable,
        fixed: false,
      }))}
      loading={loading}
      failed={failed}
      saving={saving}
      outcome={outcome}
      onToggle={(name, viewable) => admin.send({ type: 'row.toggle', name, viewable })}
      onSave={() => admin.send({ type: 'rows.save' })}
      onRetry={() => admin.send({ type: 'rows.retry' })}
    />
  );
}

/**
 * One configuration table: Enabled, name and description per item, and Save. A form, not a data
 * grid, so it is a plain table whose checkboxes are reached with Tab.
 */
function ConfigTable({ title, items, loading, failed, saving, outcome, onToggle, onSave, onRetry }: ConfigTableProps) {
  const headingId = useId();
  const busy = loading || saving;
  return (
    <section className={styles.card} aria-labelledby={headingId} aria-busy={busy}>
      <h2 id={headingId}>{title}</h2>
      {failed ? (
        <p className={styles.failure} role="alert">
          The configuration could not be loaded.
          <Button onPress={onRetry}>Retry</Button>
        </p>
      ) : items.length === 0 && loading ? (
        <Loader text="Loading..." />
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-labelledby={headingId}>
            <thead>
              <tr>
                <th className={styles.enabled}>Enabled</th>
                <th>Name</th>
                <th>Description</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.name}>
                  <td>
                    <Checkbox
                      aria-label={`Enabled: ${item.name}`}
                      isSelected={item.viewable}
                      isDisabled={item.fixed || busy}
                      onChange={(selected) => onToggle(item.name, selected)}
                    />
                  </td>
                  <td className={styles.name}>{item.name}</td>
                  <td>{item.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={styles.footer}>
        <Button variant="primary" onPress={onSave} isPending={saving} isDisabled={loading || failed}>
          Save
        </Button>
        <span role="status" className={styles.outcome} data-outcome={outcome}>
          {outcome ? saveOutcomeTexts[outcome] : ''}
        </span>
      </div>
    </section>
  );
}
