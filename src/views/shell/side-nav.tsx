import { Link, matchPath, useLocation } from 'react-router-dom';
import type { NavigationItem } from '../../domain/navigation.ts';
import { ExternalIcon } from '../ui/icons.tsx';
import focus from '../ui/focus.module.css';
import styles from './nav.module.css';

/**
 * Several items can lead to one path (SUV §2); only the first of them is marked current. An
 * application's detail belongs to Applications.
 */
export function currentItemIndex(items: readonly NavigationItem[], pathname: string): number {
  if (pathname.startsWith('/application/')) return items.findIndex((item) => item.label === 'Applications');
  return items.findIndex(
    (item) => !item.external && matchPath({ path: item.to, end: false }, pathname) !== null,
  );
}

/** SUV §2 side navigation: the items the claims allow; Help opens the tenant's help site in a new tab. */
export function SideNav({ items }: { items: readonly NavigationItem[] }) {
  const { pathname } = useLocation();
  const current = currentItemIndex(items, pathname);
  return (
    <nav aria-label="Main navigation" className={styles.nav}>
      <ul className={styles.list}>
        {items.map((item, index) => (
          <li key={item.label}>
            {item.external ? (
              <a className={styles.link} href={item.to} target="_blank" rel="noopener noreferrer">
                {item.label}
                <ExternalIcon />
                <span className={focus.visuallyHidden}> (opens in a new tab)</span>
              </a>
            ) : (
              <Link
                className={styles.link}
                to={item.to}
                aria-current={index === current ? 'page' : undefined}
              >
                {item.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
