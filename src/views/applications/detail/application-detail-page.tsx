import { useEffect, useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  applicationNotFoundText,
  applicationRefreshFailedText,
  loadingApplicationText,
} from '../../../domain/application-detail.ts';
import { liveChangeText } from '../../../domain/live-changes.ts';
import { applicationDetailTitle, listReturnHref } from '../../../domain/page-titles.ts';
import { ApplicationDetailContext } from '../../../machines/application-detail.machine.ts';
import { LiveUpdatesContext } from '../../../machines/live-updates.machine.ts';
import { SessionContext } from '../../../machines/session.machine.ts';
import type { ApplicationDetail } from '../../../schemas/application-detail.schema.ts';
import { lastListAddress } from '../../shell/list-return.ts';
import { useDocumentTitle } from '../../shell/use-document-title.ts';
import { Button } from '../../ui/button.tsx';
import { Loader } from '../../ui/loader.tsx';
import { DetailActions } from './actions/detail-actions.tsx';
import { ActivityFeed } from './activity-feed.tsx';
import { CommentsCard } from './comments-card.tsx';
import {
  ApprovalCard,
  DetailsCard,
  ExceptionsCard,
  HeaderCard,
  IdentificationCard,
  OutstandingDocumentsCard,
  ProgressCard,
  TaxCard,
  VpnCard,
} from './detail-cards.tsx';
import { useDetailCards, useDetailSelector, useDetailSend } from './detail-hooks.ts';
import { DocumentsCard } from './documents-card.tsx';
import focus from '../../ui/focus.module.css';
import styles from './application-detail.module.css';

/** AM §2 /application/{ApplicationID}?from=all|my: the record staff work from. */
export function ApplicationDetailPage() {
  const { id = '' } = useParams();
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  const viewerName = SessionContext.useSelector((snapshot) => snapshot.context.displayName);
  // A new id is a new application: a new machine (key), never the previous one's data.
  return (
    <ApplicationDetailContext.Provider key={id} options={{ input: { applicationId: id, claims } }}>
      <LiveChanges applicationId={id} />
      <ApplicationDetailScreen applicationId={id} viewerName={viewerName} />
    </ApplicationDetailContext.Provider>
  );
}

/** Colleagues' changes to this application (the tab's live event stream) go on to the detail's machine. */
function LiveChanges({ applicationId }: { applicationId: string }) {
  const live = LiveUpdatesContext.useActorRef();
  const send = useDetailSend();
  useEffect(() => {
    const subscription = live.on('live.event', ({ event }) => {
      if (event.kind === 'reset' || event.ApplicationIDs.includes(Number(applicationId))) send({ type: 'live.changed' });
    });
    return () => subscription.unsubscribe();
  }, [live, send, applicationId]);
  return null;
}

/** The screen on a running detail machine (the page provides it; view tests provide the model's). */
export function ApplicationDetailScreen({ applicationId, viewerName }: { applicationId: string; viewerName?: string }) {
  const headingId = useId();
  const [search] = useSearchParams();
  const backTo = listReturnHref(search.get('from'), lastListAddress());
  const title = applicationDetailTitle(applicationId);
  useDocumentTitle(title);
  const screen = useDetailSelector((snapshot) =>
    snapshot.matches('loading') ? 'loading' : snapshot.matches('notFound') ? 'notFound' : 'loaded',
  );
  const detail = useDetailSelector((snapshot) => snapshot.context.detail);

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <Link to={backTo} className={styles.backToListing}>
        <span aria-hidden="true">←</span> Back to listing
      </Link>
      <div className={styles.heading}>
        <h1 id={headingId}>Application {title}</h1>
        {screen === 'loaded' && detail && <DetailToolbar detail={detail} backTo={backTo} />}
      </div>
      {screen === 'loading' && <Loader text={loadingApplicationText} />}
      {screen === 'notFound' && (
        <div className={styles.notFound} role="alert">
          <p>{applicationNotFoundText}</p>
          <Link to={backTo}>Back to Applications</Link>
        </div>
      )}
      {screen === 'loaded' && <RefreshFailed />}
      {screen === 'loaded' && <LiveChangeNotice viewerName={viewerName} />}
      {screen === 'loaded' && detail && <DetailLayout detail={detail} />}
    </section>
  );
}

/** AM §2: the Actions dropdown, View and Edit (actions/detail-actions.tsx), and Refresh. */
function DetailToolbar({ detail, backTo }: { detail: ApplicationDetail; backTo: string }) {
  const send = useDetailSend();
  const refreshing = useDetailSelector(
    (snapshot) => snapshot.matches({ loaded: 'reloading' }) || snapshot.matches({ loaded: 'refetching' }),
  );
  return (
    <div className={styles.toolbar} role="group" aria-label="Application actions">
      <DetailActions detail={detail} backTo={backTo} />
      <Button onPress={() => send({ type: 'detail.refresh' })} isPending={refreshing}>
        Refresh
      </Button>
      <span className={focus.visuallyHidden} role="status">
        {refreshing ? 'Refreshing the application' : ''}
      </span>
    </div>
  );
}

/** A refetch failed: what was loaded stays, with a retry (issue 32). */
function RefreshFailed() {
  const send = useDetailSend();
  const failed = useDetailSelector((snapshot) => snapshot.matches({ loaded: 'refreshFailed' }));
  if (!failed) return null;
  return (
    <div className={styles.refreshFailed} role="alert">
      <p>{applicationRefreshFailedText}</p>
      <Button onPress={() => send({ type: 'detail.refresh' })}>Try again</Button>
    </div>
  );
}

/** Who changed what, when a colleague's change refreshed the cards (issue 42); polite, once per change. */
function LiveChangeNotice({ viewerName }: { viewerName: string | undefined }) {
  const change = useDetailSelector((snapshot) => snapshot.context.liveChanges[0]);
  const readAt = useDetailSelector((snapshot) => snapshot.context.liveChangesReadAt);
  const text = liveChangeText(change, viewerName, readAt);
  return (
    <p className={styles.liveChange} role="status" data-testid="live-change">
      {text ?? ''}
    </p>
  );
}

/** AM §2: the main column's cards in the spec's order, the activity feed beside them. */
function DetailLayout({ detail }: { detail: ApplicationDetail }) {
  const cards = useDetailCards(detail);
  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <HeaderCard detail={detail} />
        {cards.progress && <ProgressCard detail={detail} />}
        {cards.exceptions && <ExceptionsCard detail={detail} />}
        <DetailsCard detail={detail} />
        <ApprovalCard detail={detail} />
        {cards.documents && <DocumentsCard detail={detail} cards={cards} />}
        <IdentificationCard detail={detail} kind={cards.identification} />
        <OutstandingDocumentsCard detail={detail} cards={cards} />
        {cards.tax && <TaxCard detail={detail} />}
        {cards.vpn && <VpnCard />}
        {cards.comments && <CommentsCard cards={cards} />}
      </div>
      <aside className={styles.side} aria-label="Activity">
        <ActivityFeed />
      </aside>
    </div>
  );
}

