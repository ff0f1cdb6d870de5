import { useEffect, useId, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { confirmActionMachine, type ConfirmActionInput } from '../../../../machines/confirm-action.machine.ts';
import { personalisedMessageMaxLength } from '../../../../schemas/application-actions.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { ModalDialog } from '../../../ui/dialog.tsx';
import { TextArea } from '../../../ui/text-area.tsx';
import styles from './actions.module.css';

/** What a confirm modal says: its title, the question, the confirm button and an optional warning. */
export interface ConfirmActionTexts {
  title: string;
  question: ReactNode;
  confirmLabel: string;
  /** Shown before the buttons, e.g. that depersonalising cannot be undone. */
  warning?: string;
  /** The label of the optional personalised message (only with `input.withMessage`). */
  messageLabel?: string;
}

export interface ConfirmActionModalProps {
  texts: ConfirmActionTexts;
  input: ConfirmActionInput;
  /** The action changed the application: refetch the detail (AM §4). */
  onChanged: () => void;
  /** The application was cancelled: it has left every listing. */
  onRemoved?: () => void;
  /** The modal is done, with the last result it showed (announced by the host when it closed itself). */
  onClose: (result: { changed: boolean; resultText: string }) => void;
}

/**
 * AM §2/§4 the generic confirm modal, loaded when first opened. It runs the confirm-action machine
 * for one action; the host hears `application.changed` (refetch) or `application.removed` (cancel).
 */
export default function ConfirmActionModal({ texts, input, onChanged, onRemoved, onClose }: ConfirmActionModalProps) {
  const dialog = useActorRef(confirmActionMachine, { input });
  const output = useSelector(dialog, (snapshot) => snapshot.output);
  useEffect(() => {
    const changed = dialog.on('application.changed', onChanged);
    const removed = dialog.on('application.removed', () => onRemoved?.());
    return () => {
      changed.unsubscribe();
      removed.unsubscribe();
    };
  }, [dialog, onChanged, onRemoved]);
  useEffect(() => {
    if (output) onClose(output);
  }, [output, onClose]);
  return <ConfirmActionDialog dialog={dialog} texts={texts} />;
}

/** The modal on a running confirm-action actor (the view path tests give it the model's). */
export function ConfirmActionDialog({
  dialog,
  texts,
}: {
  dialog: ActorRefFrom<typeof confirmActionMachine>;
  texts: ConfirmActionTexts;
}) {
  const step = useSelector(dialog, (snapshot) =>
    snapshot.status === 'done'
      ? 'closed'
      : snapshot.matches('succeeded')
        ? 'succeeded'
        : snapshot.matches('failed')
          ? 'failed'
          : snapshot.matches('busy')
            ? 'busy'
            : 'idle',
  );
  const withMessage = useSelector(dialog, (snapshot) => snapshot.context.withMessage);
  const message = useSelector(dialog, (snapshot) => snapshot.context.message);
  const resultText = useSelector(dialog, (snapshot) => snapshot.context.resultText);
  const canRetry = useSelector(dialog, (snapshot) => snapshot.can({ type: 'action.confirm' }));
  const warningId = useId();
  if (step === 'closed') return null;
  const busy = step === 'busy';
  const asking = step === 'idle' || step === 'busy';
  const close = () => dialog.send({ type: 'dialog.close' });

  return (
    <ModalDialog
      title={texts.title}
      isOpen
      isKeyboardDismissDisabled={busy}
      onOpenChange={(isOpen) => {
        if (!isOpen && !busy) close();
      }}
    >
      {asking && <div className={styles.text}>{texts.question}</div>}
      {asking && texts.warning && (
        <p id={warningId} className={styles.warning}>
          {texts.warning}
        </p>
      )}
      {asking && withMessage && (
        <div className={styles.field}>
          <TextArea
            label={texts.messageLabel ?? 'Personalised message (optional)'}
            value={message}
            maxLength={personalisedMessageMaxLength}
            isDisabled={busy}
            description={`${message.length} / ${personalisedMessageMaxLength}`}
            onChange={(value) => dialog.send({ type: 'message.change', value })}
          />
        </div>
      )}
      {/* The result is announced where it appears: politely on success, at once on failure. */}
      <div role="status">
        {step === 'succeeded' && (
          <p className={styles.result} data-outcome="success">
            {resultText}
          </p>
        )}
      </div>
      <div role="alert">
        {step === 'failed' && (
          <p className={styles.result} data-outcome="failure">
            {resultText}
          </p>
        )}
      </div>
      <div className={styles.buttons}>
        <Button onPress={close} isDisabled={busy}>
          Close
        </Button>
        {asking && (
          <Button
            variant="primary"
            isPending={busy}
            aria-describedby={texts.warning ? warningId : undefined}
            onPress={() => dialog.send({ type: 'action.confirm' })}
          >
            {texts.confirmLabel}
          </Button>
        )}
        {step === 'failed' && canRetry && (
          <Button variant="primary" onPress={() => dialog.send({ type: 'action.confirm' })}>
            Try again
          </Button>
        )}
      </div>
    </ModalDialog>
  );
}
