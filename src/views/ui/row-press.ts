import type { MouseEvent, PointerEvent } from 'react';

/**
 * How long a first click waits for a second before it opens its row: the second click of a
 * double-click selects a word (someone copying), which must not open the row (AM §4). Browsers do
 * not expose the system's double-click time; 300 ms covers a brisk double-click and keeps a single
 * click feeling immediate.
 */
export const doubleClickAllowanceMs = 300;

/** What a click inside a row may be on and keep its own meaning: the checkbox, the row menu, a link. */
const controls = 'a, button, input, label, select, textarea, [role="button"], [role="checkbox"], [role="menuitem"]';

/** The body row a pointer event is on, unless it is on a control or in the row's selection cell. */
function plainRowOf(target: EventTarget | null): HTMLElement | undefined {
  if (!(target instanceof Element) || target.closest(controls)) return undefined;
  const row = target.closest<HTMLElement>('tbody > [role="row"]');
  if (!row || row.dataset.key === undefined) return undefined;
  const cell = target.closest('[role="gridcell"], [role="rowheader"]');
  if (cell?.querySelector('input[type="checkbox"]')) return undefined;
  return row;
}

/** The open a first click is waiting to make, per grid (kept off the handlers, which each render makes anew). */
const pendingOpens = new WeakMap<Element, ReturnType<typeof setTimeout>>();

/** A click on text selected in that row is someone copying, not opening (AM §4). */
export function isSelectingTextIn(row: Element | null): boolean {
  const selection = window.getSelection();
  if (!row || !selection || selection.isCollapsed || selection.toString() === '') return false;
  return selection.containsNode(row, true);
}

/**
 * A grid's row clicks, as AM §4 has them: a click on a plain cell opens its row whatever is ticked
 * (react-aria's toggle selection turns a row click into a tick once any row is ticked, which made
 * an open silently join a bulk selection); only the checkbox ticks. A click that ends a text
 * selection in the row, or that begins a double-click, does not open. Handlers for the element
 * around the grid, in the capture phase, so react-aria never starts its press on a plain cell
 * (a drag still selects text: nothing is prevented, only react-aria's handling stopped).
 */
export function rowPressHandlers(open: (key: string) => void) {
  return {
    onPointerDownCapture(event: PointerEvent<HTMLElement>) {
      if (plainRowOf(event.target)) event.stopPropagation();
    },
    onClickCapture(event: MouseEvent<HTMLElement>) {
      const row = plainRowOf(event.target);
      if (!row) return;
      event.stopPropagation();
      const grid = event.currentTarget;
      clearTimeout(pendingOpens.get(grid));
      pendingOpens.delete(grid);
      // detail 0 is a click from assistive technology (no pointer): nothing to wait for.
      if (event.button !== 0 || event.detail > 1) return;
      const key = row.dataset.key ?? '';
      const openUnlessCopying = () => {
        pendingOpens.delete(grid);
        if (row.isConnected && !isSelectingTextIn(row)) open(key);
      };
      if (event.detail === 0) openUnlessCopying();
      else pendingOpens.set(grid, setTimeout(openUnlessCopying, doubleClickAllowanceMs));
    },
  };
}
