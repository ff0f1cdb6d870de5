import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { actionsMenu, canEditApplication, canViewApplication, type ActionsMenuItem } from '../../../../domain/actions-menu.ts';
import { requestEditMachine } from '../../../../machines/request-edit.machine.ts';
import type { ApplicationDetail } from '../../../../schemas/application-detail.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { preloadableLazy } from '../../../ui/preloadable-lazy.tsx';
import { useReturnFocus } from '../../../ui/use-return-focus.ts';
import { useDetailSelector, useDetailSend } from '../detail-hooks.ts';
import type { ModalMenuItem } from './menu-action-modal.tsx';
import focus from '../../../ui/focus.module.css';
import styles from './actions.module.css';

// The menu and the modals load when first wanted, so the detail's first load does not carry them:
// the menu and its modals start loading when the Actions button is hovered or focused, and once
// loaded they open without suspending.
const { Component: ActionsMenuPopover, preload: preloadMenu } = preloadableLazy(() => import('./actions-menu-popover.tsx'));
const { Component: MenuActionModal, preload: preloadModal } = preloadableLazy(() => import('./menu-action-modal.tsx'));
const EditConfirmationModal = lazy(() => import('./edit-confirmation-modal.tsx'));
const loadMenu = () => {
  void preloadMenu();
  void preloadModal();
};

/**
 * AM §2: the Actions dropdown (only the items the rules allow, in the spec's order), View and
 * Edit. Every action that changes the application refetches the detail (AM §4); a cancelled
 * application has left the listings, so closing its modal goes back to the list.
 */
export function DetailActions({ detail, backTo }: { detail: ApplicationDetail; backTo: string }) {
  const claims = useDetailSelector((snapshot) => snapshot.context.claims);
  const send = useDetailSend();
  const navigate = useNavigate();
  const menu = useMemo(() => actionsMenu(detail, claims), [detail, claims]);
  const canView = canViewApplication(detail, claims);
  const canEdit = canEditApplication(detail, claims);
  const unavailableId = useId();

  const requests = useActorRef(requestEditMachine, { input: { applicationGuid: detail.ApplicationGuid } });
  const requesting = useSelector(requests, (snapshot) =>
    snapshot.matches('requestingEdit') || snapshot.matches('requestingConfirmedEdit')
      ? 'edit'
      : snapshot.matches('requestingView')
        ? 'view'
        : snapshot.matches('downloadingReport')
          ? 'report'
          : undefined,
  );
  const confirmingEdit = useSelector(
    requests,
    (snapshot) => snapshot.matches('confirmingEdit') || snapshot.matches('requestingConfirmedEdit'),
  );
  const requestFailure = useSelector(requests, (snapshot) => snapshot.context.failure);

  const refetch = useCallback(() => send({ type: 'detail.refetch' }), [send]);
  useEffect(() => {
    const windows = requests.on('window.open', (event) => {
      window.open(event.url, '_blank', 'noopener');
    });
    const changed = requests.on('application.changed', refetch);
    return () => {
      windows.unsubscribe();
      changed.unsubscribe();
    };
  }, [requests, refetch]);

  // The menu's items leave with it: closing a modal they opened puts focus back on Actions.
  const { triggerRef: actionsButton, returnFocus } = useReturnFocus<HTMLButtonElement>();
  const [menuOpen, setMenuOpen] = useState(false);
  const [openItem, setOpenItem] = useState<ModalMenuItem | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const removed = useRef(false);
  const onRemoved = useCallback(() => {
    removed.current = true;
  }, []);
  const onClose = useCallback(
    (result: { changed: boolean; resultText: string }) => {
      setOpenItem(undefined);
      // A modal that closed itself on success still has its text said (AM §8 texts).
      if (result.changed) setAnnouncement(result.resultText);
      if (removed.current) void navigate(backTo);
      else returnFocus();
    },
    [navigate, backTo, returnFocus],
  );

  const choose = (item: ActionsMenuItem) => {
    setAnnouncement('');
    if (item.kind === 'report') requests.send({ type: 'report.download', reportName: item.reportName });
    else setOpenItem(item);
  };

  return (
    <>
      {menu.state === 'items' && (
        <Button
          ref={actionsButton}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          isPending={requesting === 'report'}
          onHoverStart={loadMenu}
          onFocus={loadMenu}
          onPress={() => setMenuOpen((open) => !open)}
          onKeyDown={(event) => {
            // A menu button also opens with the arrow keys (WAI-ARIA menu button pattern).
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') setMenuOpen(true);
            else event.continuePropagation();
          }}
        >
          Actions <span aria-hidden="true">▾</span>
        </Button>
      )}
      {menu.state === 'unavailable' && (
        <>
          <Button isDisabled aria-describedby={unavailableId}>
            Actions
          </Button>
          <p id={unavailableId} className={styles.unavailable}>
            {menu.reason}
          </p>
        </>
      )}
      {canView && (
        <Button isPending={requesting === 'view'} onPress={() => requests.send({ type: 'view.request' })}>
          View
        </Button>
      )}
      {canEdit && (
        <Button isPending={requesting === 'edit'} onPress={() => requests.send({ type: 'edit.request' })}>
          Edit
        </Button>
      )}
      {requestFailure !== '' && (
        <p role="alert" className={styles.failure}>
          {requestFailure}
          <Button variant="quiet" onPress={() => requests.send({ type: 'failure.dismiss' })}>
            Dismiss
          </Button>
        </p>
      )}
      <span className={focus.visuallyHidden} role="status">
        {requesting === 'report' ? 'Downloading the report' : announcement}
      </span>
      <Suspense fallback={null}>
        {menuOpen && menu.state === 'items' && (
          <ActionsMenuPopover
            triggerRef={actionsButton}
            items={menu.items}
            onChoose={choose}
            onClose={() => setMenuOpen(false)}
          />
        )}
        {openItem && (
          <MenuActionModal
            item={openItem}
            detail={detail}
            onChanged={refetch}
            onRemoved={onRemoved}
            onClose={onClose}
          />
        )}
        {confirmingEdit && (
          <EditConfirmationModal
            isPending={requesting === 'edit'}
            onConfirm={() => requests.send({ type: 'edit.confirm' })}
            onClose={() => requests.send({ type: 'dialog.close' })}
          />
        )}
      </Suspense>
    </>
  );
}
