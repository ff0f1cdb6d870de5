import { Link } from 'react-router-dom';
import styles from './breadcrumbs.module.css';

export interface Crumb {
  label: string;
  /** Where the crumb leads; the current page has none. */
  to?: string;
}

/**
 * A trail of links; the last crumb is the current page. Plain `nav > ol` markup is all a
 * breadcrumb needs to be accessible, so it stays out of the react-aria collection machinery.
 */
export function Breadcrumbs({ crumbs, label = 'Breadcrumbs' }: { crumbs: readonly Crumb[]; label?: string }) {
  return (
    <nav aria-label={label}>
      <ol className={styles.breadcrumbs}>
        {crumbs.map((crumb, index) => {
          const isCurrent = index === crumbs.length - 1;
          return (
            <li key={`${index}-${crumb.label}`} className={styles.crumb}>
              {isCurrent || crumb.to === undefined ? (
                <span aria-current={isCurrent ? 'page' : undefined}>{crumb.label}</span>
              ) : (
                <Link className={styles.link} to={crumb.to}>
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
