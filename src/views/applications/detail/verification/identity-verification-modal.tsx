import { Suspense, useEffect, useId } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import {
  addsIdentification,
  canSubmitVerification,
  failedBanner,
  noVerificationOptionsText,
  passedBanner,
  verificationConsentText,
  verificationErrorText,
  verificationTitle,
} from '../../../../domain/identity-verification.ts';
import { identityVerificationMachine } from '../../../../machines/identity-verification.machine.ts';
import type { VerificationMode } from '../../../../schemas/identity-verification.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { Checkbox } from '../../../ui/checkbox.tsx';
import { ModalDialog } from '../../../ui/dialog.tsx';
import { Loader } from '../../../ui/loader.tsx';
import { preloadableLazy } from '../../../ui/preloadable-lazy.tsx';
import styles from './verification.module.css';

/** rjsf loads with the menu, or at the latest with the modal, in parallel with the options call. */
const { Component: IdentificationForm, preload: preloadForm } = preloadableLazy(
  () => import('./identification-form.tsx'),
);

type VerificationRef = ReturnType<typeof useActorRef<typeof identityVerificationMachine>>;

export interface IdentityVerificationModalProps {
  applicationGuid: string;
  individualId: string;
  individualName: string;
  mode: VerificationMode;
  onClose: () => void;
  /** A result was recorded: the detail refetches. */
  onChanged: () => void;
}

/**
 * AM §2 modals Add Identification & Verify Individual, Verify Individual and PEP/Sanctions
 * Screening: one view over identity-verification.machine, which it renders and sends to.
 */
export default function IdentityVerificationModal({
  applicationGuid,
  individualId,
  individualName,
  mode,
  onClose,
  onChanged,
}: IdentityVerificationModalProps) {
  const verification = useActorRef(identityVerificationMachine, {
    input: { applicationGuid, individualId, mode },
  });
  const closed = useSelector(verification, (snapshot) => snapshot.status === 'done');
  const busy = useSelector(verification, (snapshot) => snapshot.hasTag('busy'));
  useEffect(() => {
    const subscription = verification.on('application.changed', onChanged);
    return () => subscription.unsubscribe();
  }, [verification, onChanged]);
  useEffect(() => {
    if (closed) onClose();
  }, [closed, onClose]);
  useEffect(() => {
    if (addsIdentification(mode)) void preloadForm();
  }, [mode]);
  const close = () => verification.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title={verificationTitle(mode)}
      isOpen
      isKeyboardDismissDisabled={busy}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <p className={styles.person}>{individualName}</p>
      <Body verification={verification} mode={mode} onClose={close} />
    </ModalDialog>
  );
}

function Body({
  verification,
  mode,
  onClose,
}: {
  verification: VerificationRef;
  mode: VerificationMode;
  onClose: () => void;
}) {
  const state = useSelector(verification, (snapshot) =>
    snapshot.matches('loadingOptions')
      ? 'loadingOptions'
      : snapshot.matches('noOptions')
        ? 'noOptions'
        : snapshot.matches('optionsFailed') || snapshot.matches('errored')
          ? 'errored'
          : snapshot.matches('passed')
            ? 'passed'
            : snapshot.matches('failed')
              ? 'failed'
              : 'consent',
  );
  const message = useSelector(verification, (snapshot) => snapshot.context.result?.Message ?? '');
  const closeButton = (
    <div className={styles.buttons}>
      <Button onPress={onClose}>Close</Button>
    </div>
  );

  if (state === 'loadingOptions') return <Loader text="Loading identification options..." />;
  if (state === 'noOptions') {
    return (
      <>
        <p role="status">{noVerificationOptionsText}</p>
        {closeButton}
      </>
    );
  }
  if (state === 'passed' || state === 'failed') {
    return (
      <>
        <div role={state === 'passed' ? 'status' : 'alert'}>
          <p className={styles.banner} data-style={state === 'passed' ? 'success' : 'failed'}>
            {state === 'passed' ? passedBanner(mode) : failedBanner(mode)}
          </p>
          {message && <p className={styles.message}>{message}</p>}
        </div>
        {closeButton}
      </>
    );
  }
  if (state === 'errored') {
    return (
      <>
        <div role="alert">
          <p className={styles.banner} data-style="failed">
            {failedBanner(mode)}
          </p>
          <p className={styles.message}>{verificationErrorText}</p>
        </div>
        <div className={styles.buttons}>
          <Button onPress={onClose}>Close</Button>
          <Button variant="primary" onPress={() => verification.send({ type: 'verify.retry' })}>
            Try again
          </Button>
        </div>
      </>
    );
  }
  return <ConsentStep verification={verification} onClose={onClose} />;
}

function ConsentStep({ verification, onClose }: { verification: VerificationRef; onClose: () => void }) {
  const consentId = useId();
  const form = useSelector(verification, (snapshot) => snapshot.context.form);
  const formData = useSelector(verification, (snapshot) => snapshot.context.formData);
  const attempted = useSelector(verification, (snapshot) => snapshot.context.attempted);
  const validators = useSelector(verification, (snapshot) => snapshot.context.validators);
  const consent = useSelector(verification, (snapshot) => snapshot.context.consent);
  const submitting = useSelector(verification, (snapshot) => snapshot.matches('submitting'));
  const canVerify = useSelector(verification, (snapshot) =>
    canSubmitVerification(
      snapshot.context.consent,
      addsIdentification(snapshot.context.mode),
      snapshot.context.formValid,
    ),
  );
  const submit = () => verification.send({ type: 'verify.submit' });
  return (
    <>
      {form && (
        <Suspense fallback={<Loader text="Loading the form..." />}>
          <IdentificationForm
            form={form}
            validators={validators}
            formData={formData}
            attempted={attempted}
            disabled={submitting}
            onChange={(data, valid) => verification.send({ type: 'form.change', formData: data, valid })}
            onAttempt={() => verification.send({ type: 'form.attempt' })}
            onSubmit={submit}
          />
        </Suspense>
      )}
      <div className={styles.consent} id={consentId}>
        <Checkbox
          isSelected={consent}
          isDisabled={submitting}
          onChange={(consented) => verification.send({ type: 'consent.toggle', consented })}
        >
          {verificationConsentText}
        </Checkbox>
      </div>
      <div className={styles.buttons}>
        <Button onPress={onClose} isDisabled={submitting}>
          Cancel
        </Button>
        <Button variant="primary" onPress={submit} isDisabled={!canVerify} isPending={submitting}>
          Verify
        </Button>
      </div>
      <span role="status" className={styles.help}>
        {submitting ? 'Verifying…' : ''}
      </span>
    </>
  );
}
