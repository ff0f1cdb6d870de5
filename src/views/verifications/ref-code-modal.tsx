import { VerificationListContext } from '../../machines/verification-list.machine.ts';
import { refCodeMaxLength } from '../../schemas/verifications.schema.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './verifications.module.css';

/** SUV §2 Add Reference Number modal, over the list machine's editing state: the limit said before Confirm, a refusal said in it (issue 39 point 11). */
export function RefCodeModal() {
  const list = VerificationListContext.useActorRef();
  const open = VerificationListContext.useSelector((snapshot) => snapshot.matches('editingRefCode') || snapshot.matches('savingRefCode'));
  const saving = VerificationListContext.useSelector((snapshot) => snapshot.matches('savingRefCode'));
  const value = VerificationListContext.useSelector((snapshot) => snapshot.context.refInput);
  const error = VerificationListContext.useSelector((snapshot) => snapshot.context.refError);
  return (
    <ModalDialog title="Add Reference Number" isOpen={open} isDismissable={!saving} onOpenChange={(isOpen) => !isOpen && list.send({ type: 'refCode.cancel' })}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          list.send({ type: 'refCode.confirm' });
        }}
      >
        <p>Enter the reference number or code for this verification record.</p>
        <TextField
          label="Reference number or code"
          value={value}
          maxLength={refCodeMaxLength}
          description={`Up to ${refCodeMaxLength} characters.`}
          errorMessage={error || undefined}
          onChange={(text) => list.send({ type: 'refCode.change', value: text })}
          isDisabled={saving}
        />
        <div className={styles.actions}>
          <Button type="submit" variant="primary" isDisabled={saving}>
            Confirm
          </Button>
          <Button onPress={() => list.send({ type: 'refCode.cancel' })} isDisabled={saving}>
            Cancel
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
