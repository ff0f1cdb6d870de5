import { Link } from 'react-router-dom';
import { sessionTexts } from '../../domain/session.ts';
import { platformName } from './branding.ts';
import { useDocumentTitle } from './use-document-title.ts';
import styles from './unavailable-notice.module.css';

/** SUV §2 /timeout: where an expired session lands. */
export function TimeoutPage() {
  useDocumentTitle(platformName);
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <h1>{sessionTexts.expired}</h1>
        <p>
          <Link to="/">Sign in again</Link>
        </p>
      </div>
    </main>
  );
}
