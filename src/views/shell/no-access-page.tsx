import { noPermissionText } from '../../schemas/users.schema.ts';
import styles from './pages.module.css';

/**
 * The screen of a page the person may not use (SUV §2/§8: the Users page's red alert), for every
 * such page: the page's name as its heading (a page without a heading one is lost to a screen
 * reader, issue 39 point 21) and 'You do not have permission to view this page.'
 */
export function NoAccessPage({ title }: { title: string }) {
  return (
    <section className={styles.page} aria-labelledby="no-access-heading">
      <h1 id="no-access-heading">{title}</h1>
      <p role="alert" className={styles.noPermission}>
        {noPermissionText}
      </p>
    </section>
  );
}
