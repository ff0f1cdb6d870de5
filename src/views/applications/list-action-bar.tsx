import { Suspense, useCallback, useState } from 'react';
import type { Key } from 'react-aria-components';
import { withQueryChange } from '../../domain/application-query.ts';
import { cancelApplicationsLabel, hasMoreMenu } from '../../domain/list-permissions.ts';
import { emailViewMinWidth, listHref, type ListView } from '../../domain/list-view.ts';
import { ListViewIcon, PlusIcon, RefreshIcon, SplitViewIcon } from '../ui/action-icons.tsx';
import { Button } from '../ui/button.tsx';
import { ChevronDownIcon } from '../ui/icons.tsx';
import { Menu, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { SegmentedLinks } from '../ui/segmented-links.tsx';
import { ToggleButtons } from '../ui/toggle-buttons.tsx';
import { useEffectiveView, useList, useListPermissions, useListSend } from './list-hooks.ts';
import { BulkUploadModal, preloadBulkUploadModal, preloadNewApplicationModals } from './list-modals.ts';
import styles from './application-list.module.css';

/** AM §2 action bar: My Apps / All Apps, New, More, the list/email view toggle and refresh. */
export function ListActionBar() {
  const permissions = useListPermissions();
  const send = useListSend();
  const view = useEffectiveView();
  const wideEnough = useList((snapshot) => snapshot.context.width >= emailViewMinWidth);
  const creating = useList((snapshot) => snapshot.matches({ activity: 'creating' }));

  return (
    <div className={styles.bar}>
      {permissions.scopeToggle && <ScopeToggle />}
      <span className={styles.spacer} />
      {permissions.newApplication && (
        <Button
          variant="primary"
          isPending={creating}
          onHoverStart={preloadNewApplicationModals}
          onFocus={preloadNewApplicationModals}
          onPress={() => send({ type: 'application.new' })}
        >
          <PlusIcon />
          New
        </Button>
      )}
      {hasMoreMenu(permissions) && <MoreMenu />}
      <ToggleButtons<ListView>
        label="View"
        selected={view}
        onChange={(selected) => send({ type: 'view.select', view: selected })}
        options={[
          { id: 'list', label: <ListViewIcon />, ariaLabel: 'List view' },
          { id: 'email', label: <SplitViewIcon />, ariaLabel: 'Email view', isDisabled: !wideEnough },
        ]}
      />
      <Button variant="icon" aria-label="Refresh" onPress={() => send({ type: 'list.refresh' })}>
        <RefreshIcon />
      </Button>
    </div>
  );
}

/** AM §2: shown only with an all-apps claim and view.myapps; each keeps the filters and goes to page 1. */
function ScopeToggle() {
  const scope = useList((snapshot) => snapshot.context.scope);
  const query = useList((snapshot) => snapshot.context.query);
  const view = useList((snapshot) => snapshot.context.viewPreference);
  const firstPage = withQueryChange(query, {});
  return (
    <SegmentedLinks
      label="Applications shown"
      links={[
        { label: 'My Apps', to: listHref('my', firstPage, view), current: scope === 'my' },
        { label: 'All Apps', to: listHref('all', firstPage, view), current: scope === 'all' },
      ]}
    />
  );
}

/** AM §2 More: Upload Applications (its modal), Export All to CSV, Cancel N application(s). */
function MoreMenu() {
  const permissions = useListPermissions();
  const send = useListSend();
  const selection = useList((snapshot) => snapshot.context.selection);
  const canExport = useList((snapshot) => snapshot.can({ type: 'export.start' }));
  const canCancel = useList((snapshot) =>
    snapshot.can({ type: 'cancel.open', guids: snapshot.context.selection }),
  );

  // Whether the upload modal is open is screen state; its workflow is the bulk-upload machine.
  const [uploadOpen, setUploadOpen] = useState(false);
  const closeUpload = useCallback(() => setUploadOpen(false), []);
  const refreshList = useCallback(() => send({ type: 'list.refresh' }), [send]);
  const loadUpload = () => {
    if (permissions.bulkUpload) void preloadBulkUploadModal();
  };

  const disabledKeys = [...(canExport ? [] : ['export']), ...(canCancel ? [] : ['cancel'])];
  const onAction = (key: Key) => {
    if (key === 'upload') setUploadOpen(true);
    if (key === 'export') send({ type: 'export.start' });
    if (key === 'cancel') send({ type: 'cancel.open', guids: selection });
  };
  return (
    <>
      <MenuTrigger>
        {/* react-dropzone and the upload modal load when More is hovered or focused, not with the list. */}
        <Button onHoverStart={loadUpload} onFocus={loadUpload}>
          More
          <ChevronDownIcon />
        </Button>
        <MenuPopover>
          <Menu aria-label="More actions" onAction={onAction} disabledKeys={disabledKeys}>
            {permissions.bulkUpload && <MenuItem id="upload">Upload Applications</MenuItem>}
            {permissions.export && <MenuItem id="export">Export All to CSV</MenuItem>}
            {permissions.cancel && (
              <MenuItem id="cancel">{cancelApplicationsLabel(selection.length)}</MenuItem>
            )}
          </Menu>
        </MenuPopover>
      </MenuTrigger>
      {uploadOpen && (
        <Suspense fallback={null}>
          <BulkUploadModal onClose={closeUpload} onUploaded={refreshList} />
        </Suspense>
      )}
    </>
  );
}
