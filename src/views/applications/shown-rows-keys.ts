import type { KeyboardEvent } from 'react';

const shownRows = (rows: NodeListOf<HTMLElement>) => [...rows].filter((row) => row.checkVisibility());

/**
 * A short or empty page keeps hidden rows for the positions it does not fill (results-table.tsx).
 * react-aria knows nothing of that and would move focus into them, where it is lost (a hidden
 * element takes no focus): on ArrowDown from the last row shown (or from the headers of an empty
 * page), on PageDown, and on End from a row or Ctrl+End. Those keys stop at the last row shown
 * instead, in the same column when a cell has focus. Runs in the capture phase, before react-aria.
 */
export function keepFocusOnShownRows(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'PageDown' && event.key !== 'End') return;
  const target = event.target;
  if (!(target instanceof HTMLElement)) return;
  const rows = event.currentTarget.querySelectorAll<HTMLElement>('[role="grid"] tbody > [role="row"]');
  const shown = shownRows(rows);
  if (shown.length === rows.length) return;

  const row = target.closest<HTMLElement>('[role="row"]');
  if (!row) return;
  const inBody = row.parentElement?.tagName === 'TBODY';
  const last = shown.at(-1);
  const rowFocused = target === row;
  const leaving =
    event.key === 'ArrowDown' ? (inBody ? row === last : last === undefined) : event.key === 'PageDown' || rowFocused || event.ctrlKey || event.metaKey;
  if (!leaving) return;
  event.preventDefault();
  event.stopPropagation();
  if (event.key === 'ArrowDown' || last === undefined || row === last) return;
  const cell = rowFocused ? undefined : target.closest('td, th');
  const column = cell ? [...row.children].indexOf(cell) : -1;
  const destination = column >= 0 ? last.children[column] : last;
  if (destination instanceof HTMLElement) destination.focus();
}
