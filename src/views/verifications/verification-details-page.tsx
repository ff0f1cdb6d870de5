import { useMachine } from '@xstate/react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { verificationDetailsMachine } from '../../machines/verification-details.machine.ts';
import { detailDate, isFinishedStatus, numericPart, overallResultText, statusText, typeText, verificationClaims } from '../../domain/verifications.ts';
import { hasClaim } from '../../domain/permissions.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { lastVerificationsAddress } from '../shell/list-return.ts';
import { Button } from '../ui/button.tsx';
import { Loader } from '../ui/loader.tsx';
import styles from './verifications.module.css';

/** SUV §2 Verification details page (/verifications/details/V{n}). */
export function VerificationDetailsPage() {
  const { id = '' } = useParams();
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  // SUV §2: without the entity-verification claim, /list, as /verifications does (issue 39 point 8).
  if (!hasClaim(claims, verificationClaims.access)) return <Navigate to="/list" replace />;
  return <Details key={id} id={id} />;
}

function Details({ id }: { id: string }) {
  const [snapshot, send] = useMachine(verificationDetailsMachine, { input: { id: numericPart(id) } });
  const navigate = useNavigate();
  const back = (
    <Button onPress={() => void navigate(lastVerificationsAddress())}>Back</Button>
  );
  if (snapshot.matches('loading')) return <Loader text="Loading Verification Details" />;
  const detail = snapshot.context.detail;
  if (snapshot.matches('failed') || !detail) {
    return (
      <section className={styles.page} aria-labelledby="page-heading">
        <h1 id="page-heading">Verification {id}</h1>
        <p role="alert" className={styles.alertDanger}>
          Failed to load verification details
        </p>
        {back}
      </section>
    );
  }
  const finished = isFinishedStatus(detail.requestStatus);
  const company = detail.requestType === 'Company';
  return (
    <section className={styles.page} aria-labelledby="page-heading">
      <header className={styles.detailHeader}>
        <div>
          <h1 id="page-heading">{detail.applicantName}</h1>
          <p className={styles.muted}>
            Verification Id <strong>{detail.applicationId}</strong>
            {detail.applicantMobileNumber && <> · {detail.applicantMobileNumber}</>}
          </p>
        </div>
        {back}
      </header>
      <div className={styles.cards}>
        <section className={styles.card} aria-labelledby="details-card">
          <h2 id="details-card">Details</h2>
          <dl className={styles.facts}>
            <dt>Status</dt>
            <dd>{statusText(detail.requestStatus)}</dd>
            <dt>Requester</dt>
            <dd>{detail.requester}</dd>
            <dt>Created</dt>
            <dd>{detailDate(detail.requestDateUtc)}</dd>
            {finished && (
              <>
                <dt>Completed</dt>
                <dd>{detailDate(detail.responseDateUtc)}</dd>
              </>
            )}
            <dt>Verification type</dt>
            <dd>{typeText(detail.requestType)}</dd>
            <dt>Reference number</dt>
            <dd>{detail.referenceNumber || '-'}</dd>
          </dl>
        </section>
        {finished && (
          <section className={styles.card} aria-labelledby="status-card">
            <h2 id="status-card">Verification Status</h2>
            <dl className={styles.facts}>
              <dt>Applicant</dt>
              <dd>{detail.applicantName}</dd>
              <dt>Result</dt>
              <dd>{company ? statusText(detail.requestStatus) : overallResultText(detail.responseResult)}</dd>
              <dt>Date/Time</dt>
              <dd>{detailDate(detail.responseDateUtc)}</dd>
            </dl>
          </section>
        )}
        {finished && (
          <section className={styles.card} aria-labelledby="documents-card">
            <h2 id="documents-card">Documents</h2>
            {detail.reportLink ? (
              <Button variant="quiet" isDisabled={snapshot.hasTag('busy')} onPress={() => send({ type: 'report.download' })}>
                {detail.reportName || 'Download report'}
              </Button>
            ) : (
              <p className={styles.muted}>No report</p>
            )}
          </section>
        )}
      </div>
    </section>
  );
}
