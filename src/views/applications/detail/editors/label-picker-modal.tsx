import { useId } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { isAtLabelLimit, labelCountText } from '../../../../domain/application-editors.ts';
import { labelPickerMachine, type LabelPickerInput } from '../../../../machines/label-picker.machine.ts';
import { actionTexts, labelMaxLength } from '../../../../schemas/application-actions.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { ComboBox } from '../../../ui/combobox.tsx';
import { ModalDialog } from '../../../ui/dialog.tsx';
import { Loader } from '../../../ui/loader.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { useEditorHost } from './use-editor-host.ts';
import { ChangedUnderneath } from './changed-underneath.tsx';
import styles from './editors.module.css';

type LabelPickerRef = ReturnType<typeof useActorRef<typeof labelPickerMachine>>;

/** AM §2 Label picker (loaded when first opened): the label-picker machine's state, rendered. */
export default function LabelPickerModal({
  input,
  changedUnderneath,
  onClose,
}: {
  input: LabelPickerInput;
  /** Someone else changed the label while this was open (issue 42). */
  changedUnderneath?: string;
  onClose: () => void;
}) {
  const picker = useActorRef(labelPickerMachine, { input });
  useEditorHost(picker, onClose);
  const state = useSelector(picker, (snapshot) =>
    snapshot.matches('loading') ? 'loading' : snapshot.matches('unavailable') ? 'unavailable' : 'ready',
  );
  const busy = useSelector(picker, (snapshot) => snapshot.hasTag('busy'));
  const canClose = useSelector(picker, (snapshot) => snapshot.can({ type: 'dialog.close' }));
  const saving = useSelector(picker, (snapshot) => snapshot.matches('saving'));
  const clearing = useSelector(picker, (snapshot) => snapshot.matches('clearing'));
  const labels = useSelector(picker, (snapshot) => snapshot.context.labels);
  const selected = useSelector(picker, (snapshot) => snapshot.context.selected);
  const saveError = useSelector(picker, (snapshot) => snapshot.context.saveError);
  const canSet = useSelector(picker, (snapshot) => snapshot.can({ type: 'label.submit' }));
  const canClear = useSelector(picker, (snapshot) => snapshot.can({ type: 'label.clear' }));
  const close = () => picker.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title="Edit Label"
      isOpen
      isKeyboardDismissDisabled={!canClose}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <ChangedUnderneath text={changedUnderneath} />
      <p className={styles.current}>{input.currentLabel ? `Current label: ${input.currentLabel}` : 'No label set'}</p>
      {state === 'loading' && <Loader text="Loading labels..." />}
      {state === 'unavailable' && (
        <p role="alert" className={styles.error}>
          {actionTexts.unknownError}
        </p>
      )}
      {state === 'ready' && (
        <>
          <ComboBox
            label="Label"
            options={labels.map((label) => ({ id: label.Value, name: label.Name }))}
            selectedId={selected === '' ? undefined : selected}
            onChange={(id) => picker.send({ type: 'label.select', label: id ?? '' })}
            isDisabled={busy}
            placeholder="Search labels"
          />
          {saveError !== undefined && (
            <p role="alert" className={styles.error}>
              {saveError}
            </p>
          )}
          {input.canCreate && <LabelCreator picker={picker} />}
        </>
      )}
      <div className={styles.buttons}>
        <Button onPress={close} isDisabled={!canClose}>
          Cancel
        </Button>
        {state === 'ready' && (canClear || clearing) && (
          <Button onPress={() => picker.send({ type: 'label.clear' })} isDisabled={!canClear} isPending={clearing}>
            Clear label
          </Button>
        )}
        {state === 'ready' && (
          <Button
            variant="primary"
            onPress={() => picker.send({ type: 'label.submit' })}
            isDisabled={!canSet}
            isPending={saving}
          >
            Set label
          </Button>
        )}
      </div>
    </ModalDialog>
  );
}

/**
 * AM §5/§8 with label.add: the count 'n / max' (red at the limit); under the limit a text of at most
 * 15 characters and Create label (disabled while empty), the refusal's Message above the input.
 */
function LabelCreator({ picker }: { picker: LabelPickerRef }) {
  const headingId = useId();
  const count = useSelector(picker, (snapshot) => snapshot.context.labels.length);
  const maximum = useSelector(picker, (snapshot) => snapshot.context.maximum);
  const draft = useSelector(picker, (snapshot) => snapshot.context.draft);
  const addError = useSelector(picker, (snapshot) => snapshot.context.addError);
  const adding = useSelector(picker, (snapshot) => snapshot.matches('adding'));
  const canCreate = useSelector(picker, (snapshot) => snapshot.can({ type: 'creator.submit' }));
  const atLimit = isAtLabelLimit(count, maximum);

  return (
    <section className={styles.creator} aria-labelledby={headingId}>
      <div className={styles.creatorHeading}>
        <h3 id={headingId} className={styles.creatorTitle}>
          Create label
        </h3>
        <span className={styles.count} data-at-limit={atLimit || undefined} aria-label={`Labels: ${labelCountText(count, maximum)}`}>
          {labelCountText(count, maximum)}
        </span>
      </div>
      {addError !== undefined && (
        <p role="alert" className={styles.error}>
          {addError}
        </p>
      )}
      {!atLimit && (
        <form
          className={styles.creatorRow}
          onSubmit={(event) => {
            event.preventDefault();
            picker.send({ type: 'creator.submit' });
          }}
        >
          <TextField
            label="New label"
            value={draft}
            maxLength={labelMaxLength}
            onChange={(text) => picker.send({ type: 'creator.change', text })}
            isDisabled={adding}
            description={`At most ${labelMaxLength} characters`}
          />
          <Button type="submit" className={styles.creatorButton} isDisabled={!canCreate} isPending={adding}>
            Create label
          </Button>
        </form>
      )}
    </section>
  );
}
