import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { verificationWizardMachine } from '../../machines/verification-wizard.machine.ts';
import { biometricAdvice, calendarDateIn, canContinue, detailsFormProblems, overallResultText, verifyResultMessage } from '../../domain/verifications.ts';
import { Button } from '../ui/button.tsx';
import { Checkbox } from '../ui/checkbox.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { Loader } from '../ui/loader.tsx';
import WizardForm from './wizard-form.tsx';
import styles from './verifications.module.css';

const steps = ['Verification Type', 'Enter Details', 'Results'] as const;

/** The server's date-of-birth rule on this browser's calendar, checked before any call (SUV §5). */
const detailsProblems = (formData: Record<string, unknown>) => detailsFormProblems(formData, calendarDateIn(undefined));

/** SUV §2 Individual verification wizard over verification-wizard.machine. Closing (Cancel, New Search) shows the Individual list, refreshed. */
export default function IndividualWizardModal({ onClose }: { onClose: () => void }) {
  const wizard = useActorRef(verificationWizardMachine);
  const snapshot = useSelector(wizard, (state) => state);
  const { typeForm, type, consent, detailsForm, formData, attempted, serverErrors, result } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  useEffect(() => {
    const subscription = wizard.subscribe((state) => {
      if (state.status === 'done') onClose();
    });
    return () => subscription.unsubscribe();
  }, [wizard, onClose]);
  const cancel = () => wizard.send({ type: 'wizard.cancel' });
  const step = snapshot.matches('results') ? 2 : snapshot.matches('loadingType') || snapshot.matches('choosingType') || snapshot.matches('typeFormFailed') ? 0 : 1;
  const biometric = type === 'BiometricVerification';

  return (
    <ModalDialog title="Individual Verification" isOpen isDismissable={!busy} onOpenChange={(isOpen) => !isOpen && cancel()}>
      <ol className={styles.steps} aria-label="Steps">
        {steps.map((name, index) => (
          <li key={name} aria-current={index === step ? 'step' : undefined} className={index === step ? styles.currentStep : undefined}>
            {name}
          </li>
        ))}
      </ol>
      {(snapshot.matches('loadingType') || snapshot.matches('loadingDetails')) && <Loader text="Loading form" />}
      {snapshot.matches('choosingType') && typeForm && (
        <>
          <WizardForm
            id="verification-type-form"
            label="Verification Type"
            form={typeForm}
            formData={type ? { VerficationType: type } : {}}
            attempted={false}
            disabled={false}
            serverErrors={{}}
            onChange={(data) => wizard.send({ type: 'type.change', value: typeof data.VerficationType === 'string' ? data.VerficationType : '' })}
            onSubmit={() => wizard.send({ type: 'step.continue' })}
          />
          {!biometric && (
            <Checkbox isSelected={consent} onChange={(checked) => wizard.send({ type: 'consent.change', checked })}>
              Authorisation Consent: I confirm the individual has consented to having their identity details checked with the issuer or official record holder.
            </Checkbox>
          )}
          <div className={styles.actions}>
            <Button variant="primary" isDisabled={!canContinue(type, consent)} onPress={() => wizard.send({ type: 'step.continue' })}>
              Continue
            </Button>
            <Button onPress={cancel}>Cancel</Button>
          </div>
        </>
      )}
      {(snapshot.matches('enteringDetails') || snapshot.matches('verifying')) && detailsForm && (
        <>
          <WizardForm
            id="verification-details-form"
            label="Enter Details"
            form={detailsForm}
            formData={formData}
            attempted={attempted}
            disabled={busy}
            serverErrors={serverErrors}
            problems={detailsProblems}
            onChange={(data, valid) => wizard.send({ type: 'details.change', formData: data, valid })}
            onSubmit={() => wizard.send({ type: 'details.submit' })}
          />
          <div className={styles.actions}>
            <Button type="submit" form="verification-details-form" variant="primary" isDisabled={busy}>
              {busy ? 'Verifying…' : biometric ? 'Send invite' : 'Verify'}
            </Button>
            <Button onPress={cancel} isDisabled={busy}>
              Cancel
            </Button>
          </div>
        </>
      )}
      {(snapshot.matches('typeFormFailed') || snapshot.matches('detailsFormFailed')) && (
        <div className={styles.actions}>
          <Button onPress={cancel}>Cancel</Button>
        </div>
      )}
      {snapshot.matches('results') && result && type && (
        <>
          <div className={result.responseSucceeded ? styles.alertSuccess : styles.alertDanger} role={result.responseSucceeded ? 'status' : 'alert'}>
            <p className={styles.alertTitle}>{verifyResultMessage(type, result.responseSucceeded)}</p>
            {result.responseSucceeded && !biometric && <p>Result: {overallResultText(result.overallResult)}</p>}
            {result.responseSucceeded && biometric && <p>{biometricAdvice}</p>}
          </div>
          <div className={styles.actions}>
            <Button variant="primary" onPress={cancel}>
              New Search
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
