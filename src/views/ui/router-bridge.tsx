import { useCallback, type ReactNode } from 'react';
import { RouterProvider } from 'react-aria-components';
import { useHref, useNavigate } from 'react-router-dom';

/** Lets react-aria links and menu items with an `href` navigate through react-router, without a page load. */
export function AriaRouterBridge({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  // Stable across renders: every react-aria link and table cell reads this context, so a new function
  // on each navigation would re-render all of them.
  const navigateTo = useCallback((path: string) => void navigate(path), [navigate]);
  return (
    <RouterProvider navigate={navigateTo} useHref={useHref}>
      {children}
    </RouterProvider>
  );
}
