import { useId, type ReactNode } from 'react';
import styles from './application-detail.module.css';

/** One card of the detail screen: a region named by its heading, so screen readers can jump between cards. */
export function Card({ title, children, actions }: { title: ReactNode; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.card} aria-labelledby={id}>
      <div className={styles.cardHeading}>
        <h2 id={id} className={styles.cardTitle}>
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A label and its value, in the cards' definition lists. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
