import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import {
  canTakeAction,
  canUnlockApplicant,
  signingModeLabel,
  type ApplicationAction,
} from '../../../../domain/application-actions.ts';
import { canCreateLabels, signingModeCode, type EditorField } from '../../../../domain/application-editors.ts';
import { changedUnderneathText } from '../../../../domain/live-changes.ts';
import { actionTexts } from '../../../../schemas/application-actions.schema.ts';
import type { ApplicantApproval, ApplicationDetail } from '../../../../schemas/application-detail.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { useDetailSelector, useDetailSend } from '../detail-hooks.ts';
import styles from './editors.module.css';

// Lazy: each modal (and react-aria's combobox, radio group and text field behind it) loads when first opened.
const AssigneePickerModal = lazy(() => import('./assignee-picker-modal.tsx'));
const LabelPickerModal = lazy(() => import('./label-picker-modal.tsx'));
const FieldEditorModal = lazy(() => import('./field-editor-modal.tsx'));
const ConfirmActionModal = lazy(() => import('../actions/confirm-action-modal.tsx'));

type Editor = 'assignee' | 'label' | EditorField;

/**
 * AM §6: the action each editor takes (its rule in src/domain) and the Edit control's accessible
 * name, which starts with its visible text 'Edit' (WCAG 2.5.3 label in name).
 */
const editors: Record<Editor, { action: ApplicationAction; name: string }> = {
  assignee: { action: 'assign', name: 'Edit assignee' },
  label: { action: 'setLabel', name: 'Edit label' },
  owner: { action: 'changeOwner', name: 'Edit owner' },
  email: { action: 'changePrimaryEmail', name: 'Edit email address' },
  signingMode: { action: 'changeSigningMode', name: 'Edit signing mode' },
};

/** The Details rows (AM §3 optional rows) that carry an editor. */
const rowEditors: Partial<Record<string, Editor>> = {
  Assignee: 'assignee',
  Label: 'label',
  Owner: 'owner',
  Mode: 'signingMode',
};

/** The value each editor changes, as the loaded application has it (to tell a change made underneath it). */
const editedValue: Record<Editor, (detail: ApplicationDetail) => string> = {
  assignee: (detail) => detail.AssigneeDisplayName,
  label: (detail) => detail.Label,
  owner: (detail) => detail.AdviserName,
  email: (detail) => detail.Email,
  signingMode: (detail) => signingModeLabel(signingModeCode(detail.ApplicationModeCode)),
};

/** A value with its editor beside it: the Details row's value, or the header's e-mail. */
export function EditableValue({ editor, detail, children }: { editor: Editor; detail: ApplicationDetail; children: ReactNode }) {
  return (
    <span className={styles.value}>
      {children}
      <EditControl editor={editor} detail={detail} />
    </span>
  );
}

/** The Details row's value, with its editor when the row has one. */
export function DetailRowValue({ rowName, detail, children }: { rowName: string; detail: ApplicationDetail; children: ReactNode }) {
  const editor = rowEditors[rowName];
  return editor ? (
    <EditableValue editor={editor} detail={detail}>
      {children}
    </EditableValue>
  ) : (
    <>{children}</>
  );
}

/** 'Edit' beside the value, only when the action's rule holds (AM §6); its modal opens on demand. */
function EditControl({ editor, detail }: { editor: Editor; detail: ApplicationDetail }) {
  const claims = useDetailSelector((snapshot) => snapshot.context.claims);
  // Whether the modal is open is screen state; its workflow is the editor's machine.
  const [open, setOpen] = useState(false);
  // What the value was when the editor opened: a colleague's change refreshes the detail under it
  // (issue 42), and the editor keeps the person's input but says so.
  const [openedWith, setOpenedWith] = useState('');
  const close = useCallback(() => setOpen(false), []);
  const allowed = canTakeAction(editors[editor].action, detail, claims);
  if (!allowed && !open) return null;
  const applicationId = String(detail.ApplicationID);
  const now = editedValue[editor](detail);
  const changedUnderneath = open && now !== openedWith ? changedUnderneathText(now) : undefined;
  const modal = (): ReactNode => {
    switch (editor) {
      case 'assignee':
        return (
          <AssigneePickerModal
            input={{ applicationId, savedAssigneeId: detail.AssigneeUserId }}
            savedName={detail.AssigneeDisplayName}
            changedUnderneath={changedUnderneath}
            onClose={close}
          />
        );
      case 'label':
        return (
          <LabelPickerModal
            input={{ applicationGuid: detail.ApplicationGuid, currentLabel: detail.Label, canCreate: canCreateLabels(claims) }}
            changedUnderneath={changedUnderneath}
            onClose={close}
          />
        );
      case 'owner':
        return (
          <FieldEditorModal
            input={{ field: 'owner', applicationId, current: detail.AdviserName }}
            shownCurrent={detail.AdviserName}
            changedUnderneath={changedUnderneath}
            onClose={close}
          />
        );
      case 'email':
        return (
          <FieldEditorModal
            input={{ field: 'email', applicationId, current: detail.Email }}
            shownCurrent={detail.Email}
            changedUnderneath={changedUnderneath}
            onClose={close}
          />
        );
      case 'signingMode':
        return (
          <FieldEditorModal
            input={{ field: 'signingMode', applicationId, current: signingModeCode(detail.ApplicationModeCode) }}
            shownCurrent={signingModeLabel(signingModeCode(detail.ApplicationModeCode))}
            changedUnderneath={changedUnderneath}
            onClose={close}
          />
        );
    }
  };
  return (
    <>
      {allowed && (
        <Button
          variant="quiet"
          className={styles.edit}
          aria-label={editors[editor].name}
          onPress={() => {
            setOpenedWith(now);
            setOpen(true);
          }}
        >
          Edit
        </Button>
      )}
      {open && <Suspense fallback={null}>{modal()}</Suspense>}
    </>
  );
}

type ApproverAction = 'unlock' | 'resend';

/**
 * AM §4 Approval Status: an MFA-locked approver can be unlocked (app.labformmfaunlock), and an
 * approver the application e-mails can have their resume link sent again (the Email Resume Link
 * rule, AM §6). Both confirm in the generic confirm modal, then the detail refetches.
 */
export function ApproverActions({ detail, approval }: { detail: ApplicationDetail; approval: ApplicantApproval }) {
  const claims = useDetailSelector((snapshot) => snapshot.context.claims);
  const send = useDetailSend();
  const [open, setOpen] = useState<ApproverAction | undefined>(undefined);
  const close = useCallback(() => setOpen(undefined), []);
  const refetch = useCallback(() => send({ type: 'detail.refetch' }), [send]);
  const unlock = canUnlockApplicant(detail, approval, claims);
  const resend = approval.SendEmail && canTakeAction('emailResumeLink', detail, claims);
  // The open modal stays while the refetched detail no longer offers its button (an unlocked applicant).
  if (!unlock && !resend && open === undefined) return null;
  const name = approval.ApplicantName;
  return (
    <span className={styles.approverActions}>
      {unlock && (
        <Button variant="quiet" className={styles.edit} aria-label={`Unlock ${name}`} onPress={() => setOpen('unlock')}>
          Unlock
        </Button>
      )}
      {resend && (
        <Button variant="quiet" className={styles.edit} aria-label={`Resend email to ${name}`} onPress={() => setOpen('resend')}>
          Resend email
        </Button>
      )}
      {open === 'unlock' && (
        <Suspense fallback={null}>
          <ConfirmActionModal
            texts={{
              title: 'Unlock applicant',
              question: <p>Unlock {name}? They were locked out after too many multi-factor attempts and can then sign in again.</p>,
              confirmLabel: 'Unlock',
            }}
            input={{
              call: {
                type: 'unlockApplicant',
                request: { ApplicationId: detail.ApplicationGuid, IndividualId: approval.IndividualId, InstanceName: detail.InstanceName },
              },
            }}
            onChanged={refetch}
            onClose={close}
          />
        </Suspense>
      )}
      {open === 'resend' && (
        <Suspense fallback={null}>
          <ConfirmActionModal
            texts={{
              title: 'Resend email',
              question: <p>Send {name} the link to resume the application again?</p>,
              confirmLabel: 'Send',
            }}
            input={{
              call: { type: 'resendIndividualResumeLink', applicationId: String(detail.ApplicationID), individualId: approval.IndividualId },
              withMessage: true,
              successText: actionTexts.emailSent,
            }}
            onChanged={refetch}
            onClose={close}
          />
        </Suspense>
      )}
    </span>
  );
}
