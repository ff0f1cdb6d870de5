import { useActorRef, useSelector } from '@xstate/react';
import { assigneePickerMachine, type AssigneePickerInput } from '../../../../machines/assignee-picker.machine.ts';
import { actionTexts } from '../../../../schemas/application-actions.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { ComboBox } from '../../../ui/combobox.tsx';
import { ModalDialog } from '../../../ui/dialog.tsx';
import { Loader } from '../../../ui/loader.tsx';
import { useEditorHost } from './use-editor-host.ts';
import { ChangedUnderneath } from './changed-underneath.tsx';
import styles from './editors.module.css';

/** AM §2 Assignee picker (loaded when first opened): the assignee-picker machine's state, rendered. */
export default function AssigneePickerModal({
  input,
  savedName,
  changedUnderneath,
  onClose,
}: {
  input: AssigneePickerInput;
  /** AssigneeDisplayName of the loaded application. */
  savedName: string;
  /** Someone else changed the assignee while this was open (issue 42). */
  changedUnderneath?: string;
  onClose: () => void;
}) {
  const picker = useActorRef(assigneePickerMachine, { input });
  useEditorHost(picker, onClose);
  const state = useSelector(picker, (snapshot) =>
    snapshot.matches('loading') ? 'loading' : snapshot.matches('unavailable') ? 'unavailable' : 'ready',
  );
  const busy = useSelector(picker, (snapshot) => snapshot.hasTag('busy'));
  const canClose = useSelector(picker, (snapshot) => snapshot.can({ type: 'dialog.close' }));
  const saving = useSelector(picker, (snapshot) => snapshot.matches('saving'));
  const clearing = useSelector(picker, (snapshot) => snapshot.matches('clearing'));
  const assignees = useSelector(picker, (snapshot) => snapshot.context.assignees);
  const selectedId = useSelector(picker, (snapshot) => snapshot.context.selectedId);
  const error = useSelector(picker, (snapshot) => snapshot.context.error);
  const canAssign = useSelector(picker, (snapshot) => snapshot.can({ type: 'assign.submit' }));
  const canClear = useSelector(picker, (snapshot) => snapshot.can({ type: 'assignee.clear' }));
  const close = () => picker.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title="Edit Assignee"
      isOpen
      isKeyboardDismissDisabled={!canClose}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <ChangedUnderneath text={changedUnderneath} />
      <p className={styles.current}>{savedName ? `Assigned to ${savedName}` : 'Not assigned'}</p>
      {state === 'loading' && <Loader text="Loading assignees..." />}
      {state === 'unavailable' && (
        <p role="alert" className={styles.error}>
          {actionTexts.unknownError}
        </p>
      )}
      {state === 'ready' && (
        <ComboBox
          label="Assignee"
          options={assignees.map((option) => ({ id: option.Value, name: option.Name }))}
          selectedId={selectedId ?? undefined}
          onChange={(id) => picker.send({ type: 'assignee.select', assigneeId: id ?? null })}
          isDisabled={busy}
          placeholder="Search assignees"
        />
      )}
      {error !== undefined && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <div className={styles.buttons}>
        <Button onPress={close} isDisabled={!canClose}>
          Cancel
        </Button>
        {state === 'ready' && (canClear || clearing) && (
          <Button onPress={() => picker.send({ type: 'assignee.clear' })} isDisabled={!canClear} isPending={clearing}>
            Clear assignee
          </Button>
        )}
        {state === 'ready' && (
          <Button
            variant="primary"
            onPress={() => picker.send({ type: 'assign.submit' })}
            isDisabled={!canAssign}
            isPending={saving}
          >
            Assign
          </Button>
        )}
      </div>
    </ModalDialog>
  );
}
