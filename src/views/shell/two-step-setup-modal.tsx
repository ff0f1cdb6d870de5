import type { FormEvent } from 'react';
import { recoveryCodesText } from '../../domain/two-step.ts';
import { replacingMessage, setupFailedMessage, TwoStepSetupContext } from '../../machines/two-step-setup.machine.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { Loader } from '../ui/loader.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './two-step-setup-modal.module.css';

/** The dialog of 'Set up two-step verification' (loaded only when opened), driven by its machine. */
export function TwoStepSetupModal() {
  const busy = TwoStepSetupContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  const setup = TwoStepSetupContext.useActorRef();
  const state = TwoStepSetupContext.useSelector((snapshot) =>
    snapshot.matches('showingRecoveryCodes') ? 'codes' : snapshot.matches('failed') ? 'failed' : snapshot.matches('starting') ? 'starting' : 'code',
  );
  return (
    <ModalDialog
      title="Set up two-step verification"
      isOpen
      isKeyboardDismissDisabled={busy}
      onOpenChange={(isOpen) => {
        if (!isOpen) setup.send({ type: 'dialog.close' });
      }}
    >
      {state === 'starting' && <Loader text="Preparing your key…" />}
      {state === 'code' && <CodeStep />}
      {state === 'codes' && <RecoveryCodes />}
      {state === 'failed' && (
        <div className={styles.body}>
          <p role="alert" className={styles.alert}>
            {setupFailedMessage}
          </p>
          <div className={styles.actions}>
            <Button onPress={() => setup.send({ type: 'dialog.close' })}>Close</Button>
            <Button variant="primary" onPress={() => setup.send({ type: 'setup.retry' })}>
              Try again
            </Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}

function CodeStep() {
  const setup = TwoStepSetupContext.useActorRef();
  const { secret, qrCode, code, error, replacing } = TwoStepSetupContext.useSelector((snapshot) => snapshot.context);
  const busy = TwoStepSetupContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  const canConfirm = TwoStepSetupContext.useSelector((snapshot) => snapshot.can({ type: 'code.submit' }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setup.send({ type: 'code.submit' });
  };
  return (
    <form className={styles.body} onSubmit={submit} noValidate>
      {replacing && <p role="status">{replacingMessage}</p>}
      <p>Scan the QR code with an authenticator app, or type the key into it. Then enter the 6-digit code it shows.</p>
      {qrCode ? (
        <img className={styles.qr} src={qrCode} alt="QR code of your two-step verification key" />
      ) : (
        <Loader text="Drawing the QR code…" />
      )}
      <p>
        Key: <code className={styles.secret} data-testid="totp-secret">{secret}</code>
      </p>
      {error && (
        <p role="alert" className={styles.alert}>
          {error}
        </p>
      )}
      <TextField
        label="Code from the app"
        value={code}
        inputMode="numeric"
        autoComplete="one-time-code"
        isDisabled={busy}
        onChange={(value) => setup.send({ type: 'code.change', value })}
      />
      <div className={styles.actions}>
        <Button onPress={() => setup.send({ type: 'dialog.close' })} isDisabled={busy}>
          Cancel
        </Button>
        <Button variant="primary" type="submit" isDisabled={!canConfirm}>
          Confirm
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes() {
  const setup = TwoStepSetupContext.useActorRef();
  const codes = TwoStepSetupContext.useSelector((snapshot) => snapshot.context.recoveryCodes);
  // The tenant's name as people know it (TenantName is its id: 'acme').
  const tenantName = SessionContext.useSelector((snapshot) => snapshot.context.tenant?.DisplayName ?? 'Portal');
  const text = recoveryCodesText(tenantName, codes);
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div className={styles.body}>
      <p role="status">Two-step verification is on.</p>
      <p>Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.</p>
      <ul className={styles.codes} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className={styles.actions}>
        <a href={download} download="recovery-codes.txt">
          Download
        </a>
        <Button onPress={() => void navigator.clipboard?.writeText(text)}>Copy</Button>
        <Button variant="primary" onPress={() => setup.send({ type: 'dialog.close' })}>
          Done
        </Button>
      </div>
    </div>
  );
}
