import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { editPermissionsMachine } from '../../machines/edit-permissions.machine.ts';
import type { UserListRow } from '../../schemas/users.schema.ts';
import { SanitizedHtml } from '../applications/detail/sanitized-html.tsx';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { Switch } from '../ui/switch.tsx';
import { fullName } from './users-table.tsx';
import styles from './users.module.css';

/** SUV §2 Edit Permissions: the access toggle, the sanitised disclaimer, Save only when changed. */
export function EditPermissionsModal({ user, disclaimer, onChanged, onClose }: { user: UserListRow; disclaimer: string; onChanged: () => void; onClose: () => void }) {
  const editor = useActorRef(editPermissionsMachine, { input: { userId: user.GlobalUserId, hasAccess: user.HasApplicationAccess } });
  const value = useSelector(editor, (snapshot) => snapshot.context.value);
  const busy = useSelector(editor, (snapshot) => snapshot.hasTag('busy'));
  const canSave = useSelector(editor, (snapshot) => snapshot.can({ type: 'permissions.save' }));
  const resultText = useSelector(editor, (snapshot) => snapshot.context.resultText);
  const succeeded = useSelector(editor, (snapshot) => snapshot.context.succeeded);
  const done = useSelector(editor, (snapshot) => snapshot.status === 'done');
  useEffect(() => {
    const subscription = editor.on('users.changed', onChanged);
    return () => subscription.unsubscribe();
  }, [editor, onChanged]);
  useEffect(() => {
    if (done) onClose();
  }, [done, onClose]);
  const close = () => editor.send({ type: 'dialog.close' });
  return (
    <ModalDialog title="Edit Permissions" isOpen isKeyboardDismissDisabled={busy} onOpenChange={(open) => !open && !busy && close()}>
      <p>{fullName(user)}</p>
      <Switch isSelected={value} isDisabled={busy} onChange={(selected) => editor.send({ type: 'access.toggle', value: selected })}>
        Can access your applications
      </Switch>
      {disclaimer && <SanitizedHtml html={disclaimer} className={styles.disclaimer} />}
      <div role="status">{succeeded && <p className={styles.success}>{resultText}</p>}</div>
      <div role="alert">{!succeeded && resultText && <p className={styles.failure}>{resultText}</p>}</div>
      <div className={styles.buttons}>
        <Button onPress={close} isDisabled={busy}>
          Close
        </Button>
        <Button variant="primary" isDisabled={!canSave || busy} isPending={busy} onPress={() => editor.send({ type: 'permissions.save' })}>
          Save
        </Button>
      </div>
    </ModalDialog>
  );
}
