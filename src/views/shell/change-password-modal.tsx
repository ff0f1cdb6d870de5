import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { passwordChangeFeedback } from '../../domain/password-change.ts';
import type { changePasswordMachine, PasswordField } from '../../machines/change-password.machine.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { CheckIcon, DotIcon } from '../ui/icons.tsx';
import { TextField } from '../ui/text-field.tsx';
import focus from '../ui/focus.module.css';
import styles from './change-password-modal.module.css';

type ChangePasswordActor = ActorRefFrom<typeof changePasswordMachine>;

/** AM §4/§5 Change Password: the dialog the session machine opened, driven by its actor. */
export function ChangePasswordModal({ dialog }: { dialog: ChangePasswordActor }) {
  const signingOut = useSelector(dialog, (snapshot) => snapshot.matches('signingOut'));
  const busy = useSelector(dialog, (snapshot) => snapshot.hasTag('busy'));
  const message = useSelector(dialog, (snapshot) => snapshot.context.message);

  return (
    <ModalDialog
      title="Change Password"
      isOpen
      isKeyboardDismissDisabled={busy || signingOut}
      onOpenChange={(isOpen) => {
        if (!isOpen) dialog.send({ type: 'form.cancel' });
      }}
    >
      {signingOut ? (
        <p role="status" className={styles.message}>
          {message}
        </p>
      ) : (
        <PasswordForm dialog={dialog} />
      )}
    </ModalDialog>
  );
}

function PasswordForm({ dialog }: { dialog: ChangePasswordActor }) {
  const draft = useSelector(dialog, (snapshot) => snapshot.context.draft);
  const validated = useSelector(dialog, (snapshot) => snapshot.context.validated);
  const failed = useSelector(dialog, (snapshot) => snapshot.context.failed);
  const busy = useSelector(dialog, (snapshot) => snapshot.hasTag('busy'));
  const canSave = useSelector(dialog, (snapshot) => snapshot.can({ type: 'form.submit' }));
  const feedback = passwordChangeFeedback(validated);
  const rulesId = useId();

  const change = (field: PasswordField) => (value: string) =>
    dialog.send({ type: 'field.change', field, value });
  const blur = () => dialog.send({ type: 'field.blur' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dialog.send({ type: 'form.submit' });
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {failed && (
        <p role="alert" className={styles.alert}>
          The password could not be changed. Please try again.
        </p>
      )}
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        isRequired
        value={draft.current}
        onChange={change('current')}
        onBlur={blur}
        isDisabled={busy}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        isRequired
        value={draft.next}
        onChange={change('next')}
        onBlur={blur}
        isDisabled={busy}
        aria-describedby={rulesId}
        isInvalid={validated.next !== '' && feedback.rules.some((rule) => !rule.met)}
      />
      <ul id={rulesId} className={styles.rules} aria-label="Password requirements">
        {feedback.rules.map((rule) => (
          <li key={rule.id} className={styles.rule} data-met={rule.met}>
            {rule.met ? <CheckIcon /> : <DotIcon />}
            {rule.label}
            <span className={focus.visuallyHidden}>{rule.met ? ' (met)' : ' (not met)'}</span>
          </li>
        ))}
      </ul>
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        isRequired
        value={draft.confirm}
        onChange={change('confirm')}
        onBlur={blur}
        isDisabled={busy}
        errorMessage={feedback.mismatch}
      />
      <div className={styles.buttons}>
        <Button onPress={() => dialog.send({ type: 'form.cancel' })} isDisabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" isDisabled={!canSave || busy}>
          {busy ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
