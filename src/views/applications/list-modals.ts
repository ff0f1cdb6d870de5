import type { ComponentProps } from 'react';
import type { NewApplicationFailure as Failure, NewOnBehalfModal as OnBehalf } from './new-application-modals.tsx';
import { preloadableLazy } from '../ui/preloadable-lazy.tsx';

// The list's modals load when first wanted, not with the list, and start loading when the control
// that opens them is hovered or focused. Once loaded they open without suspending: a plain lazy
// component suspends on its first render even when its module is in, and React then holds the
// modal back for its Suspense throttle (about 300 ms), as the detail's Actions already avoid.

export const { Component: FiltersModal, preload: preloadFiltersModal } = preloadableLazy<object>(() =>
  import('./filters-modal.tsx').then((module) => ({ default: module.FiltersModal })),
);

export const { Component: BulkUploadModal, preload: preloadBulkUploadModal } = preloadableLazy(
  () => import('./bulk-upload-modal.tsx'),
);

const newApplicationModals = () => import('./new-application-modals.tsx');
export const { Component: NewApplicationFailure, preload: preloadNewApplicationFailure } = preloadableLazy<ComponentProps<typeof Failure>>(() =>
  newApplicationModals().then((module) => ({ default: module.NewApplicationFailure })),
);
export const { Component: NewOnBehalfModal, preload: preloadNewOnBehalfModal } = preloadableLazy<ComponentProps<typeof OnBehalf>>(() =>
  newApplicationModals().then((module) => ({ default: module.NewOnBehalfModal })),
);

/** New opens either the owner picker or, when creating fails, the failure: both are fetched ahead. */
export function preloadNewApplicationModals() {
  void preloadNewOnBehalfModal();
  void preloadNewApplicationFailure();
}
