import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { SessionContext } from '../../machines/session.machine.ts';
import { VerificationListContext } from '../../machines/verification-list.machine.ts';
import { hasClaim } from '../../domain/permissions.ts';
import {
  emptyListHint,
  emptyListText,
  lookupButtons,
  permittedServices,
  rangeText,
  verificationClaims,
  verificationsAddressOf,
  verificationsQueryOf,
} from '../../domain/verifications.ts';
import type { VerificationService } from '../../schemas/verifications.schema.ts';
import { Button } from '../ui/button.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { ToggleButtons } from '../ui/toggle-buttons.tsx';
import { preloadableLazy } from '../ui/preloadable-lazy.tsx';
import { CompanyTable, IndividualTable } from './verification-tables.tsx';
import { RefCodeModal } from './ref-code-modal.tsx';
import styles from './verifications.module.css';

// The modals load when New is hovered or focused (the wizard brings rjsf, the ACN modal its
// machine), not with the page. New opens its modal once the code is there, so the modal renders
// without suspending: a suspended first render would wait out React's ~300 ms reveal throttle
// (issue 29: wizard open → first form interactive ≤ 300 ms).
const { Component: CompanyVerificationModal, preload: preloadCompanyModal } = preloadableLazy(() => import('./company-verification-modal.tsx'));
const { Component: IndividualWizardModal, preload: preloadWizard } = preloadableLazy(() => import('./individual-wizard-modal.tsx'));
const preloadModalOf = (service: VerificationService) => (service === 'Company' ? preloadCompanyModal() : preloadWizard());

/** SUV §2 Verifications page: redirected to /list without the entity-verification claim. */
export function VerificationsPage() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  const services = useMemo(() => permittedServices(claims), [claims]);
  const [params] = useSearchParams();
  if (!hasClaim(claims, verificationClaims.access)) return <Navigate to="/list" replace />;
  return (
    <VerificationListContext.Provider options={{ input: { services, address: verificationsAddressOf(services, params) } }}>
      <AddressSync services={services} />
      <VerificationsList claims={claims} services={services} />
    </VerificationListContext.Provider>
  );
}

/**
 * The address holds the tab, page and keyword (issue 39 point 10), so a reload, a link and Back
 * from a detail show the same list: a new address (Back, Forward, the menu's Verifications) moves
 * the list, and the list's own moves write a new history entry (the first, a correction, replaces).
 */
function AddressSync({ services }: { services: readonly VerificationService[] }) {
  const list = VerificationListContext.useActorRef();
  const service = VerificationListContext.useSelector((snapshot) => snapshot.context.service);
  const page = VerificationListContext.useSelector((snapshot) => snapshot.context.page);
  const search = VerificationListContext.useSelector((snapshot) => snapshot.context.search);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = params.toString() ? `?${params.toString()}` : '';
  useEffect(() => {
    const { context } = list.getSnapshot();
    const asked = verificationsAddressOf(services, new URLSearchParams(query));
    if (verificationsQueryOf(services, asked) !== verificationsQueryOf(services, context)) list.send({ type: 'address.change', address: asked });
  }, [list, services, query]);
  const first = useRef(true);
  useEffect(() => {
    const shown = verificationsQueryOf(services, { service, page, search });
    const replace = first.current;
    first.current = false;
    // The address now (not this render's: after Back it is newer than the list until the list follows).
    if (shown !== window.location.search) void navigate({ search: shown }, { replace });
  }, [navigate, services, service, page, search]);
  return null;
}

/** Which modal is open is the page's own view state: each modal's workflow lives in its machine. */
type OpenModal = 'none' | 'company' | 'individual';

function VerificationsList({ claims, services }: { claims: readonly string[]; services: readonly VerificationService[] }) {
  const list = VerificationListContext.useActorRef();
  const service = VerificationListContext.useSelector((snapshot) => snapshot.context.service);
  const page = VerificationListContext.useSelector((snapshot) => snapshot.context.page);
  const search = VerificationListContext.useSelector((snapshot) => snapshot.context.search);
  const total = VerificationListContext.useSelector((snapshot) => snapshot.context.total);
  const companyRows = VerificationListContext.useSelector((snapshot) => snapshot.context.companyRows);
  const individualRows = VerificationListContext.useSelector((snapshot) => snapshot.context.individualRows);
  const busy = VerificationListContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  const canNext = VerificationListContext.useSelector((snapshot) => snapshot.can({ type: 'page.next' }));
  const canPrevious = VerificationListContext.useSelector((snapshot) => snapshot.can({ type: 'page.previous' }));
  const [modal, setModal] = useState<OpenModal>('none');
  // The box shows the keyword of the list shown, also when it came from the address (Back, a reload).
  const [typed, setTyped] = useState(search);
  const [typedFor, setTypedFor] = useState(search);
  if (typedFor !== search) {
    setTypedFor(search);
    setTyped(search);
  }
  const shown = service === 'Company' ? companyRows.length : individualRows.length;
  const loadModal = () => {
    void preloadModalOf(service);
    if (service === 'Individual') list.send({ type: 'wizard.prefetch' });
  };
  const openModal = () => {
    const which = service === 'Company' ? 'company' : 'individual';
    // A failed load still opens it: the lazy component then fails the way any other would.
    const open = () => setModal(which);
    void preloadModalOf(service).then(open, open);
  };

  const closeModal = (refresh: boolean, showIndividual = false) => {
    setModal('none');
    if (showIndividual && service !== 'Individual') list.send({ type: 'service.select', service: 'Individual' });
    else if (refresh) list.send({ type: 'list.refresh' });
  };

  return (
    <section className={styles.page} aria-labelledby="page-heading">
      <header className={styles.header}>
        <h1 id="page-heading">Verifications</h1>
        <div className={styles.lookups}>
          {lookupButtons
            .filter((button) => hasClaim(claims, button.claim))
            .map((button) => (
              // SUV §2: shown with their claims, and inert here.
              <Button key={button.claim} variant="quiet">
                {button.label}
              </Button>
            ))}
        </div>
      </header>
      <div className={styles.toolbar}>
        {services.length > 0 && (
          <ToggleButtons
            label="Verification type"
            options={services.map((id) => ({ id, label: id }))}
            selected={service}
            onChange={(id) => list.send({ type: 'service.select', service: id })}
          />
        )}
        <SearchField aria-label="Search verifications" placeholder="Search" value={typed} onChange={setTyped} onSubmit={(value) => list.send({ type: 'search.submit', value })} onClear={() => list.send({ type: 'search.submit', value: '' })} />
        <Button variant="primary" onHoverStart={loadModal} onFocus={loadModal} onPress={openModal} isDisabled={services.length === 0}>
          New
        </Button>
        <div className={styles.pager}>
          <span aria-live="polite">{rangeText(page, shown, total)}</span>
          <Button variant="icon" aria-label="Previous page" isDisabled={!canPrevious} onPress={() => list.send({ type: 'page.previous' })}>
            ‹
          </Button>
          <Button variant="icon" aria-label="Next page" isDisabled={!canNext} onPress={() => list.send({ type: 'page.next' })}>
            ›
          </Button>
          <Button variant="icon" aria-label="Refresh" onPress={() => list.send({ type: 'list.refresh' })}>
            ↻
          </Button>
        </div>
      </div>
      <div className={styles.card} aria-busy={busy}>
        {shown === 0 && !busy ? (
          <div className={styles.empty}>
            <p>{emptyListText(search, service)}</p>
            {!search && <p className={styles.muted}>{emptyListHint}</p>}
          </div>
        ) : service === 'Company' ? (
          <CompanyTable rows={companyRows} />
        ) : (
          <IndividualTable rows={individualRows} />
        )}
      </div>
      <RefCodeModal />
      <Suspense fallback={null}>
        {modal === 'company' && <CompanyVerificationModal onClose={(changed) => closeModal(changed)} />}
        {modal === 'individual' && <IndividualWizardModal onClose={() => closeModal(true, true)} />}
      </Suspense>
    </section>
  );
}
