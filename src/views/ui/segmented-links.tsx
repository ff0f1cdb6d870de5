import { Link } from 'react-router-dom';
import styles from './segmented.module.css';

export interface SegmentLink {
  label: string;
  to: string;
  current: boolean;
}

/** Links that look like toggle buttons, for choices that are addresses (e.g. My Apps / All Apps). */
export function SegmentedLinks({ label, links }: { label: string; links: readonly SegmentLink[] }) {
  return (
    <nav aria-label={label} className={styles.group}>
      {links.map((link) => (
        <Link
          key={link.label}
          to={link.to}
          className={styles.item}
          aria-current={link.current ? 'page' : undefined}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
