import { lazy, Suspense, useCallback, useEffect, useId, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { defaultListQuery, parseListQuery } from '../../domain/application-query.ts';
import { listAddressParams, listHref, listTitle, parseListView, type ListScope } from '../../domain/list-view.ts';
import { liveBannerText } from '../../domain/live-changes.ts';
import { listPathFor } from '../../domain/permissions.ts';
import { ApplicationListContext } from '../../machines/application-list.machine.ts';
import { LiveUpdatesContext } from '../../machines/live-updates.machine.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { useDocumentTitle } from '../shell/use-document-title.ts';
import { Button } from '../ui/button.tsx';
import { ListActionBar } from './list-action-bar.tsx';
import { ListDialogs } from './list-dialogs.tsx';
import { FiltersModal } from './list-modals.ts';
import { FilterSummary, ListFilterBar } from './list-filter-bar.tsx';
import { ListNavigateContext, useEffectiveView, useList, useListNavigate, useListSend } from './list-hooks.ts';
import { ListPagination } from './list-pagination.tsx';
import { ResultsTable } from './results-table.tsx';
import focus from '../ui/focus.module.css';
import styles from './application-list.module.css';

// Loaded when first used, not with the list (ARCHITECTURE §3: heavy parts load lazily; the
// multi-selects and the split view are react-aria collections of their own).
const EmailView = lazy(() => import('./email-view.tsx').then((module) => ({ default: module.EmailView })));

/**
 * AM §2 /list and /list/{pageNo}/{rowsPerPage}: My Apps; /list/all and /list/all/{pageNo}/{rowsPerPage}:
 * All Apps. Someone who may not open the list asked for goes to the one they may (listPathFor), with
 * the same page and search, rather than to a list whose every load is refused.
 */
export function MyApplicationsListPage() {
  return <ListForClaims scope="my" />;
}

export function AllApplicationsListPage() {
  return <ListForClaims scope="all" />;
}

function ListForClaims({ scope }: { scope: ListScope }) {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  const { pageNo, rowsPerPage } = useParams();
  const { search } = useLocation();
  const allowed = listPathFor(claims, scope);
  if (allowed !== (scope === 'all' ? '/list/all' : '/list')) {
    const path = [allowed, pageNo, rowsPerPage].filter((part) => part !== undefined).join('/');
    return <Navigate to={`${path}${search}`} replace />;
  }
  return <ApplicationListPage scope={scope} />;
}

function ApplicationListPage({ scope }: { scope: ListScope }) {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  return (
    <ApplicationListContext.Provider options={{ input: { scope, claims, width: window.innerWidth } }}>
      <ListNavigation>
        <AddressSync />
        <MachineRequests />
        <LiveEvents />
        <WindowWidth />
        <ApplicationList />
      </ListNavigation>
    </ApplicationListContext.Provider>
  );
}

/** Re-renders on every address change (useNavigate), but hands down a function that never changes, so its children do not. */
function ListNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const navigateTo = useCallback((to: string) => void navigate(to), [navigate]);
  return <ListNavigateContext.Provider value={navigateTo}>{children}</ListNavigateContext.Provider>;
}

/** The address is the list's source of truth (AM §2): every change of it is read and sent to the machine. */
function AddressSync() {
  const send = useListSend();
  const { pageNo, rowsPerPage } = useParams();
  const { search } = useLocation();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const parsed = parseListQuery(listAddressParams({ pageNo, rowsPerPage }, params));
    if (parsed.ok) send({ type: 'query.changed', query: parsed.query, view: parseListView(params.get('view')) });
    else send({ type: 'query.invalid', message: parsed.message });
  }, [send, pageNo, rowsPerPage, search]);
  return null;
}

/** What the machine asks of the page: go to an address (kept in history), open a new window. */
function MachineRequests() {
  const list = ApplicationListContext.useActorRef();
  const navigate = useListNavigate();
  useEffect(() => {
    const navigation = list.on('navigate', (event) => navigate(event.to));
    const windows = list.on('window.open', (event) => {
      window.open(event.url, '_blank', 'noopener');
    });
    return () => {
      navigation.unsubscribe();
      windows.unsubscribe();
    };
  }, [list, navigate]);
  return null;
}

/** Colleagues' changes (the tab's live event stream) go on to the list's machine. */
function LiveEvents() {
  const live = LiveUpdatesContext.useActorRef();
  const send = useListSend();
  useEffect(() => {
    const subscription = live.on('live.event', ({ event }) => send({ type: 'live.event', event }));
    return () => subscription.unsubscribe();
  }, [live, send]);
  return null;
}

/** Reports the window width; the machine debounces it (150 ms) before the layout follows. */
function WindowWidth() {
  const send = useListSend();
  useEffect(() => {
    const report = () => send({ type: 'viewport.resized', width: window.innerWidth });
    window.addEventListener('resize', report);
    return () => window.removeEventListener('resize', report);
  }, [send]);
  return null;
}

/** The list page inside its machine context: exported for the view path tests. */
export function ApplicationList() {
  const headingId = useId();
  const total = useList((snapshot) => snapshot.context.totalRows);
  const view = useEffectiveView();
  const filtering = useList((snapshot) => snapshot.matches({ activity: 'filtering' }));
  const title = listTitle(total);
  useDocumentTitle(title);

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <div className={styles.heading}>
        <h1 id={headingId}>{title}</h1>
      </div>
      <ListActionBar />
      <ListFilterBar />
      <FilterSummary />
      <ListNotices />
      <LiveBanner />
      {view === 'email' ? (
        <Suspense fallback={<div className={styles.split} />}>
          <EmailView />
        </Suspense>
      ) : (
        <ResultsTable />
      )}
      <ListPagination />
      {filtering && (
        <Suspense fallback={null}>
          <FiltersModal />
        </Suspense>
      )}
      <ListDialogs />
    </section>
  );
}

/**
 * Rows that arrived or left since the page was read: counted with Show, not placed under the
 * pointer. The polite live region is always in the page and says the settled count once.
 */
function LiveBanner() {
  const send = useListSend();
  const text = useList((snapshot) => liveBannerText(snapshot.context.liveArrivals));
  const announcement = useList((snapshot) => snapshot.context.liveAnnouncement);
  return (
    <>
      <div className={focus.visuallyHidden} role="status" aria-live="polite">
        {announcement}
      </div>
      {text !== undefined && (
        <div className={styles.liveBanner} data-testid="live-banner">
          <span>{text} —</span>
          <Button variant="quiet" onPress={() => send({ type: 'live.show' })}>
            Show
          </Button>
        </div>
      )}
    </>
  );
}

/** An address the list cannot read, and an export that failed. */
function ListNotices() {
  const send = useListSend();
  const scope = useList((snapshot) => snapshot.context.scope);
  const problem = useList((snapshot) => (snapshot.matches({ list: 'invalidAddress' }) ? snapshot.context.addressProblem : undefined));
  const exportFailed = useList((snapshot) => snapshot.context.exportFailed);
  return (
    <>
      {problem !== undefined && (
        <div className={styles.notice} role="alert">
          <span>
            This list address cannot be read ({problem}). <Link to={listHref(scope, defaultListQuery)}>Show all applications</Link>
          </span>
        </div>
      )}
      {exportFailed && (
        <div className={styles.notice} role="alert">
          <span>The export could not be downloaded. Please try again.</span>
          <Button variant="quiet" onPress={() => send({ type: 'export.dismiss' })}>
            Dismiss
          </Button>
        </div>
      )}
    </>
  );
}
