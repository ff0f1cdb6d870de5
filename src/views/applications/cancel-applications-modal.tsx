import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { cancelApplicationsLabel } from '../../domain/list-permissions.ts';
import type { cancelApplicationsMachine } from '../../machines/cancel-applications.machine.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import styles from './application-list.module.css';

/** AM §2/§8: 'Cancel N application(s)', then 'Application(s) cancelled' with Cancelled or Error each. */
export default function CancelApplicationsModal({ dialog }: { dialog: ActorRefFrom<typeof cancelApplicationsMachine> }) {
  const applications = useSelector(dialog, (snapshot) => snapshot.context.applications);
  const outcomes = useSelector(dialog, (snapshot) => snapshot.context.outcomes);
  const finished = useSelector(dialog, (snapshot) => snapshot.matches('finished'));
  const busy = useSelector(dialog, (snapshot) => snapshot.hasTag('busy'));
  const close = () => dialog.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title={finished ? 'Application(s) cancelled' : cancelApplicationsLabel(applications.length)}
      isOpen
      isKeyboardDismissDisabled={busy}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      {!finished && <p className={styles.dialogText}>Are you sure you want to cancel the following application(s)?</p>}
      <ul className={styles.dialogList}>
        {applications.map((application) => {
          const outcome = outcomes[application.applicationGuid];
          return (
            <li key={application.applicationGuid}>
              <span>
                {application.applicationId} {application.accountName}
              </span>
              {finished && (
                <span className={styles.outcome} data-outcome={outcome ? 'cancelled' : 'error'}>
                  {outcome ? 'Cancelled' : 'Error'}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <div className={styles.dialogButtons}>
        <Button onPress={close} isDisabled={busy}>
          Close
        </Button>
        {!finished && (
          <Button variant="primary" isPending={busy} onPress={() => dialog.send({ type: 'cancel.confirm' })}>
            {cancelApplicationsLabel(applications.length)}
          </Button>
        )}
      </div>
    </ModalDialog>
  );
}
