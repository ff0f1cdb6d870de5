import type { FormEvent } from 'react';
import { SessionContext } from '../../machines/session.machine.ts';
import { Button } from '../ui/button.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './pages.module.css';

/** SUV §2 /settings: the e-mail, 'Reset Password' (the Change Password dialog) and a Save that does nothing. */
export function SettingsPage() {
  const email = SessionContext.useSelector((snapshot) => snapshot.context.email);
  const canChangePassword = SessionContext.useSelector((snapshot) =>
    snapshot.can({ type: 'passwordChange.open' }),
  );
  const session = SessionContext.useActorRef();
  // The spec's Save does nothing; the form only keeps Enter from reloading the page.
  const ignoreSubmit = (event: FormEvent) => event.preventDefault();

  return (
    <section className={styles.page} aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings</h1>
      <div className={styles.card}>
        <form className={styles.form} onSubmit={ignoreSubmit}>
          <TextField label="Email" type="email" name="email" autoComplete="email" defaultValue={email} />
          <div className={styles.buttons}>
            <Button
              isDisabled={!canChangePassword}
              onPress={() => session.send({ type: 'passwordChange.open' })}
            >
              Reset Password
            </Button>
            <Button type="submit" variant="primary">
              Save
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}
