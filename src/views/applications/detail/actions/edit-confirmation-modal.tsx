import { Button } from '../../../ui/button.tsx';
import { ModalDialog } from '../../../ui/dialog.tsx';
import styles from './actions.module.css';

/**
 * AM §2 Edit Application confirmation, §4: editing a completed application resets approval, so
 * the applicants must approve it again. Shown while the request-edit machine is confirming (and
 * retrying with the confirmation accepted); loaded when first needed.
 */
export default function EditConfirmationModal({
  isPending,
  onConfirm,
  onClose,
}: {
  isPending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ModalDialog
      title="Edit Application"
      isOpen
      isKeyboardDismissDisabled={isPending}
      onOpenChange={(isOpen) => {
        if (!isOpen && !isPending) onClose();
      }}
    >
      <p className={styles.text}>This application is complete. Editing it resets its approval, so the applicants must approve it again.</p>
      <p className={styles.text}>Do you want to edit it?</p>
      <div className={styles.buttons}>
        <Button onPress={onClose} isDisabled={isPending}>
          Cancel
        </Button>
        <Button variant="primary" isPending={isPending} onPress={onConfirm}>
          Edit application
        </Button>
      </div>
    </ModalDialog>
  );
}
