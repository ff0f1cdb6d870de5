import styles from './editors.module.css';

/**
 * Issue 42: the value this editor changes was changed by someone else while it was open. The
 * person's input stays (the editor's machine read its input once); this says so, politely.
 */
export function ChangedUnderneath({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p role="status" className={styles.changedUnderneath}>
      {text}
    </p>
  );
}
