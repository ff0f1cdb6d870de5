import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { acnLookupMachine } from '../../machines/acn-lookup.machine.ts';
import { isCompleteAcn } from '../../domain/verifications.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './verifications.module.css';

/** SUV §2 Company Verification modal over acn-lookup.machine. `onClose(changed)`: a report was generated. */
export default function CompanyVerificationModal({ onClose }: { onClose: (changed: boolean) => void }) {
  const lookup = useActorRef(acnLookupMachine);
  const snapshot = useSelector(lookup, (state) => state);
  const { acn, lookedUp, company } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  useEffect(() => {
    const subscription = lookup.subscribe((state) => {
      if (state.status === 'done') onClose(state.output.changed);
    });
    return () => subscription.unsubscribe();
  }, [lookup, onClose]);
  const close = () => lookup.send({ type: 'dialog.close' });
  const resultShown = !snapshot.matches('entering') && !snapshot.matches('verifying');
  const found = company !== undefined;

  return (
    <ModalDialog title="Company Verification" isOpen isDismissable={!busy} onOpenChange={(isOpen) => !isOpen && close()}>
      {(snapshot.matches('entering') || snapshot.matches('verifying')) && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            lookup.send({ type: 'acn.verify' });
          }}
        >
          <p>Enter the ACN below to verify if a company exists.</p>
          <TextField label="Australian Company Number (ACN)" value={acn} inputMode="numeric" maxLength={11} onChange={(value) => lookup.send({ type: 'acn.change', value })} isDisabled={busy} />
          <div className={styles.actions}>
            <Button type="submit" variant="primary" isDisabled={!isCompleteAcn(acn) || busy}>
              {busy ? 'Verifying…' : 'Verify'}
            </Button>
            <Button onPress={close}>Cancel</Button>
          </div>
        </form>
      )}
      {resultShown && (
        <div className={found ? styles.alertSuccess : styles.alertDanger} role={found ? 'status' : 'alert'}>
          <p className={styles.alertTitle}>{found ? 'A company was found that matches the ACN' : 'No Company was found that matches the ACN.'}</p>
          <dl className={styles.facts}>
            <dt>ACN</dt>
            <dd>{lookedUp}</dd>
            <dt>Company name</dt>
            <dd>{company?.companyName ?? 'Not Found'}</dd>
          </dl>
        </div>
      )}
      {snapshot.matches('generated') && <p role="status">The ASIC report has been generated successfully.</p>}
      {snapshot.matches('generateFailed') && <p role="alert" className={styles.error}>There was an error when generating the ASIC report.</p>}
      <div className={styles.actions}>
        {(snapshot.matches('found') || snapshot.matches('generating')) && (
          <>
            <Button variant="primary" isDisabled={busy} onPress={() => lookup.send({ type: 'report.generate' })}>
              {busy ? 'Generating…' : 'generate asic report'}
            </Button>
            <Button onPress={close}>Cancel</Button>
          </>
        )}
        {snapshot.matches('notFound') && (
          <>
            <Button variant="primary" onPress={() => lookup.send({ type: 'lookup.retry' })}>
              Retry
            </Button>
            <Button onPress={close}>Cancel</Button>
            <Button onPress={() => lookup.send({ type: 'search.new' })}>New Search</Button>
          </>
        )}
        {snapshot.matches('generated') && (
          <>
            <Button variant="primary" isDisabled={busy} onPress={() => lookup.send({ type: 'report.download' })}>
              Download Report
            </Button>
            <Button onPress={() => lookup.send({ type: 'search.new' })}>New Search</Button>
          </>
        )}
        {snapshot.matches('generateFailed') && (
          <>
            <Button onPress={() => lookup.send({ type: 'search.new' })}>New Search</Button>
            <Button onPress={close}>Cancel</Button>
          </>
        )}
      </div>
    </ModalDialog>
  );
}
