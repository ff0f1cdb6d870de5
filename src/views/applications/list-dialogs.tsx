import { lazy, Suspense } from 'react';
import { useList } from './list-hooks.ts';
import { NewApplicationFailure, NewOnBehalfModal } from './list-modals.ts';

// The dialogs' code (react-aria's modal, the owner picker's searchable select) loads when one first
// opens, not with the list (New's are fetched ahead when New is hovered or focused).
const CancelApplicationsModal = lazy(() => import('./cancel-applications-modal.tsx'));

/** The dialogs the list machine has open: cancel, New (on behalf or its failure), export failure. */
export function ListDialogs() {
  const cancelDialog = useList((snapshot) => snapshot.children.cancelApplications);
  const newDialog = useList((snapshot) => snapshot.children.newApplication);
  const onBehalfDialog = useList((snapshot) => snapshot.children.newApplicationOnBehalf);
  return (
    <Suspense fallback={null}>
      {cancelDialog && <CancelApplicationsModal dialog={cancelDialog} />}
      {newDialog && <NewApplicationFailure dialog={newDialog} />}
      {onBehalfDialog && <NewOnBehalfModal dialog={onBehalfDialog} />}
    </Suspense>
  );
}
