import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { newOnBehalfTexts, type newApplicationOnBehalfMachine } from '../../machines/new-application-on-behalf.machine.ts';
import type { newApplicationMachine } from '../../machines/new-application.machine.ts';
import { Button } from '../ui/button.tsx';
import { ComboBox } from '../ui/combobox.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import styles from './application-list.module.css';

/** AM §8: a direct New that did not create an application shows the server's message. */
export function NewApplicationFailure({ dialog }: { dialog: ActorRefFrom<typeof newApplicationMachine> }) {
  const failed = useSelector(dialog, (snapshot) => snapshot.matches('failed'));
  const message = useSelector(dialog, (snapshot) => snapshot.context.message);
  const close = () => dialog.send({ type: 'dialog.close' });
  return (
    <ModalDialog
      title="New Application"
      isOpen={failed}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <p role="alert" className={styles.dialogText}>
        {message}
      </p>
      <div className={styles.dialogButtons}>
        <Button variant="primary" onPress={close}>
          Close
        </Button>
      </div>
    </ModalDialog>
  );
}

/** AM §2 New Application on-behalf modal: a searchable owner select, Continue and Cancel. */
export function NewOnBehalfModal({ dialog }: { dialog: ActorRefFrom<typeof newApplicationOnBehalfMachine> }) {
  const owners = useSelector(dialog, (snapshot) => snapshot.context.owners);
  const ownerId = useSelector(dialog, (snapshot) => snapshot.context.ownerId);
  const fieldError = useSelector(dialog, (snapshot) => snapshot.context.fieldError);
  const loading = useSelector(dialog, (snapshot) => snapshot.matches('loadingOwners'));
  const creating = useSelector(dialog, (snapshot) => snapshot.matches('creating'));
  const close = () => dialog.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title="New Application"
      isOpen
      isKeyboardDismissDisabled={creating}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <ComboBox
        label={newOnBehalfTexts.prompt}
        options={owners.map((owner) => ({ id: owner.PublicId, name: owner.DisplayName }))}
        selectedId={ownerId}
        onChange={(id) => dialog.send({ type: 'owner.select', ownerId: id })}
        errorMessage={fieldError}
        isDisabled={loading || creating}
        placeholder={loading ? 'Loading owners...' : 'Search owners'}
      />
      <div className={styles.dialogButtons}>
        <Button onPress={close} isDisabled={creating}>
          Cancel
        </Button>
        <Button variant="primary" isPending={creating} isDisabled={loading} onPress={() => dialog.send({ type: 'owner.confirm' })}>
          Continue
        </Button>
      </div>
    </ModalDialog>
  );
}
