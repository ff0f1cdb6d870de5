import styles from './loader.module.css';

/** A spinner with its text, announced politely. `screen` fills the viewport (the loader screens of AM §2). */
export function Loader({ text, screen = false }: { text: string; screen?: boolean }) {
  const status = (
    <div role="status" className={styles.status}>
      <span className={styles.spinner} aria-hidden="true" />
      {text}
    </div>
  );
  // A loader screen is the whole page, so it is the page's main landmark.
  return screen ? (
    <main className={styles.screen}>{status}</main>
  ) : (
    <div className={styles.inline}>{status}</div>
  );
}
