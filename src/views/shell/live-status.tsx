import { LiveUpdatesContext } from '../../machines/live-updates.machine.ts';
import styles from './live-status.module.css';

/**
 * The live event stream's state in the header (docs/decisions/012-live-changes.md): 'Live' while
 * colleagues' changes arrive, 'Reconnecting…' after a drop, nothing while connecting or offline.
 * Not a live region: the state flickers with the network, and the list's own banner is what a
 * screen reader needs to hear.
 */
export function LiveStatus() {
  const status = LiveUpdatesContext.useSelector((snapshot) =>
    snapshot.hasTag('live') ? 'live' : snapshot.hasTag('reconnecting') ? 'reconnecting' : undefined,
  );
  if (!status) return null;
  return (
    <span className={status === 'live' ? styles.live : styles.reconnecting} data-live-status={status}>
      <span className={styles.dot} aria-hidden="true" />
      {status === 'live' ? 'Live' : 'Reconnecting…'}
    </span>
  );
}
