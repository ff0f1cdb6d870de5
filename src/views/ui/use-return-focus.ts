import { useCallback, useRef } from 'react';

/**
 * Focus back on the control that opened a modal, once the modal has gone (WCAG 2.4.3). A modal
 * opened from a button gets this from react-aria, which restores focus to what was focused before
 * it opened; a modal opened from a menu item does not, since the item left with its menu, and focus
 * would fall to <body>. The menu's trigger takes `triggerRef`; the modal's close calls `returnFocus`.
 * It waits two frames: react-aria restores (or gives up) in the frame after the modal unmounts.
 */
export function useReturnFocus<T extends HTMLElement>() {
  const triggerRef = useRef<T>(null);
  const returnFocus = useCallback(() => {
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const trigger = triggerRef.current;
        // Another dialog that opened meanwhile keeps the focus it took.
        if (trigger?.isConnected && !document.activeElement?.closest('[role="dialog"], [role="alertdialog"]')) trigger.focus();
      }),
    );
  }, []);
  return { triggerRef, returnFocus };
}
