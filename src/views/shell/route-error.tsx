import { platformName } from './branding.ts';
import styles from './unavailable-notice.module.css';

/** What a render error or a chunk that failed to load shows (React reports it to monitoring). */
export function RouteError() {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1>Something went wrong</h1>
        <p>{platformName} could not show this page.</p>
        <p>
          <a href="/">Reload the portal</a>
        </p>
      </div>
    </main>
  );
}
