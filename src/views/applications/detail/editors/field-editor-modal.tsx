import { useActorRef, useSelector } from '@xstate/react';
import { editorTexts, fieldProblem } from '../../../../domain/application-editors.ts';
import { fieldEditorMachine, type FieldEditorInput } from '../../../../machines/field-editor.machine.ts';
import { actionTexts } from '../../../../schemas/application-actions.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { ComboBox } from '../../../ui/combobox.tsx';
import { ModalDialog } from '../../../ui/dialog.tsx';
import { Loader } from '../../../ui/loader.tsx';
import { RadioGroup } from '../../../ui/radio-group.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { ChangedUnderneath } from './changed-underneath.tsx';
import { useEditorHost } from './use-editor-host.ts';
import styles from './editors.module.css';

type FieldEditorRef = ReturnType<typeof useActorRef<typeof fieldEditorMachine>>;

/**
 * AM §2 Edit Owner, Edit Email Address and Change Signing Mode (loaded when first opened): the
 * field-editor machine's state, rendered. `shownCurrent` is the value as the detail shows it.
 */
export default function FieldEditorModal({
  input,
  shownCurrent,
  changedUnderneath,
  onClose,
}: {
  input: FieldEditorInput;
  shownCurrent: string;
  /** Someone else changed the value while this was open (issue 42). */
  changedUnderneath?: string;
  onClose: () => void;
}) {
  const editor = useActorRef(fieldEditorMachine, { input });
  useEditorHost(editor, onClose);
  const texts = editorTexts[input.field];
  const state = useSelector(editor, (snapshot) =>
    snapshot.matches('loadingChoices') ? 'loading' : snapshot.matches('unavailable') ? 'unavailable' : 'ready',
  );
  const canClose = useSelector(editor, (snapshot) => snapshot.can({ type: 'dialog.close' }));
  const saving = useSelector(editor, (snapshot) => snapshot.matches('saving'));
  const canSave = useSelector(editor, (snapshot) => snapshot.can({ type: 'form.submit' }));
  const error = useSelector(editor, (snapshot) => snapshot.context.error);
  const close = () => editor.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title={texts.title}
      isOpen
      isKeyboardDismissDisabled={!canClose}
      onOpenChange={(isOpen) => {
        if (!isOpen) close();
      }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          editor.send({ type: 'form.submit' });
        }}
      >
        <ChangedUnderneath text={changedUnderneath} />
        <p className={styles.current}>
          Current {texts.label.toLowerCase()}: {shownCurrent || 'none'}
        </p>
        {state === 'loading' && input.field === 'owner' && <Loader text="Loading owners..." />}
        {state === 'unavailable' && (
          <p role="alert" className={styles.error}>
            {actionTexts.unknownError}
          </p>
        )}
        {state === 'ready' && <Field editor={editor} />}
        {error !== undefined && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
        <div className={styles.buttons}>
          <Button onPress={close} isDisabled={!canClose}>
            Cancel
          </Button>
          {state === 'ready' && (
            <Button type="submit" variant="primary" isDisabled={!canSave} isPending={saving}>
              Save
            </Button>
          )}
        </div>
      </form>
    </ModalDialog>
  );
}

/** The one field: a searchable owner list, the e-mail address (required, AM §5), or Online / Print & Sign. */
function Field({ editor }: { editor: FieldEditorRef }) {
  const field = useSelector(editor, (snapshot) => snapshot.context.field);
  const choices = useSelector(editor, (snapshot) => snapshot.context.choices);
  const draft = useSelector(editor, (snapshot) => snapshot.context.draft);
  const validated = useSelector(editor, (snapshot) => snapshot.context.validated);
  const saving = useSelector(editor, (snapshot) => snapshot.matches('saving'));
  // AM §5: the message follows the value as last validated (300 ms after a change, or on blur).
  const problem = validated === undefined ? undefined : fieldProblem(field, validated);
  const change = (value: string) => editor.send({ type: 'field.change', value });
  const label = editorTexts[field].label;

  switch (field) {
    case 'owner':
      return (
        <ComboBox
          label={label}
          options={choices}
          selectedId={draft === '' ? undefined : draft}
          onChange={(id) => change(id ?? '')}
          errorMessage={problem}
          isDisabled={saving}
          placeholder="Search owners"
        />
      );
    case 'email':
      return (
        <TextField
          label={label}
          type="email"
          isRequired
          autoComplete="off"
          value={draft}
          onChange={change}
          onBlur={() => editor.send({ type: 'field.blur' })}
          errorMessage={problem}
          isDisabled={saving}
        />
      );
    case 'signingMode':
      return (
        <RadioGroup
          label={label}
          options={choices}
          selectedId={draft}
          onChange={change}
          errorMessage={problem}
          isDisabled={saving}
        />
      );
  }
}
