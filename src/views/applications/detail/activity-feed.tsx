import { useId } from 'react';
import { formatActivityDate } from '../../../domain/application-detail.ts';
import { useDetailSelector } from './detail-hooks.ts';
import styles from './application-detail.module.css';

/** AM §2 side column: the Activity feed, newest first, dates 'D MMM YYYY HH:mm'. */
export function ActivityFeed() {
  const id = useId();
  const activity = useDetailSelector((snapshot) => snapshot.context.activity);
  const failed = useDetailSelector((snapshot) => snapshot.context.activityFailed);
  const loading = useDetailSelector((snapshot) => snapshot.context.activityLoading);
  return (
    <section className={styles.card} aria-labelledby={id} aria-busy={loading}>
      <h2 id={id} className={styles.cardTitle}>
        Activity feed
      </h2>
      {failed ? (
        <p className={styles.error}>The activity feed could not be loaded.</p>
      ) : activity.length === 0 ? (
        <p className={styles.muted}>{loading ? 'Loading…' : 'No activity'}</p>
      ) : (
        <ol className={styles.feed} aria-label="Activity, newest first">
          {activity.map((item, index) => (
            <li key={`${item.TimeStamp}-${index}`}>
              <span className={styles.feedText}>{item.Activity}</span>
              <time className={styles.muted} dateTime={new Date(item.TimeStamp * 1000).toISOString()}>
                {formatActivityDate(item.TimeStamp)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
