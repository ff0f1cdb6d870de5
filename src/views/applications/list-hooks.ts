import { createContext, useContext, useMemo } from 'react';
import { listPermissions, type ListPermissions } from '../../domain/list-permissions.ts';
import { effectiveListView, type ListView } from '../../domain/list-view.ts';
import { ApplicationListContext } from '../../machines/application-list.machine.ts';

/** Narrow selections from the list machine (each component reads only what it shows). */
export const useList = ApplicationListContext.useSelector;

export function useListSend() {
  return ApplicationListContext.useActorRef().send;
}

/** What the signed-in user may do here (AM §6), from the claims the machine was started with. */
export function useListPermissions(): ListPermissions {
  const claims = useList((snapshot) => snapshot.context.claims);
  return useMemo(() => listPermissions(claims), [claims]);
}

/** The view on screen: email only where the window is wide enough (AM §2). */
export function useEffectiveView(): ListView {
  return useList((snapshot) => effectiveListView(snapshot.context.viewPreference, snapshot.context.width));
}

/**
 * Goes to an address in the portal. The list's views take it from here rather than from useNavigate,
 * which subscribes its caller to the route and so re-renders it on every change of the address (the
 * Table, the costliest part of the page, would render twice per search).
 */
export const ListNavigateContext = createContext<(to: string) => void>(() => undefined);

export function useListNavigate(): (to: string) => void {
  return useContext(ListNavigateContext);
}
