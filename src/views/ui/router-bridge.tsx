import { useCallback, type ReactNode } from 'react';
import { RouterProvider } from 'react-aria-components';
import { useHref, useNavigate } from 'react-router-dom';

/** An address with a scheme (the tenant's help site) is not a portal path: react-router would make 'https://x/' '/https:/x/'. */
const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href);

function usePortalHref(href: string): string {
  // A hook is called on every render, whatever the address; its answer is used for portal paths only.
  const portalHref = useHref(isExternal(href) ? '/' : href);
  return isExternal(href) ? href : portalHref;
}

/** Lets react-aria links and menu items with an `href` navigate through react-router, without a page load. */
export function AriaRouterBridge({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  // Stable across renders: every react-aria link and table cell reads this context, so a new function
  // on each navigation would re-render all of them.
  const navigateTo = useCallback((path: string) => void navigate(path), [navigate]);
  return (
    <RouterProvider navigate={navigateTo} useHref={usePortalHref}>
      {children}
    </RouterProvider>
  );
}
