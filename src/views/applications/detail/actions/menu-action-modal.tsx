import type { ActionsMenuItem } from '../../../../domain/actions-menu.ts';
import type { ConfirmActionInput } from '../../../../machines/confirm-action.machine.ts';
import { actionTexts } from '../../../../schemas/application-actions.schema.ts';
import type { ApplicationDetail } from '../../../../schemas/application-detail.schema.ts';
import { DetailCancelModal } from './detail-cancel-modal.tsx';
import ConfirmActionModal, { type ConfirmActionModalProps, type ConfirmActionTexts } from './confirm-action-modal.tsx';
import styles from './actions.module.css';

/** A menu item that opens a confirm modal (reports download at once). */
export type ModalMenuItem = Exclude<ActionsMenuItem, { kind: 'report' }>;

type Subject = Pick<ApplicationDetail, 'ApplicationId' | 'ApplicationGuid' | 'AccountName' | 'Email'>;

/** Which application the modal acts on, as a person recognises it (as the list's cancel modal shows it). */
function SubjectLine({ detail }: { detail: Subject }) {
  return (
    <p className={styles.subject}>
      {detail.ApplicationId} {detail.AccountName}
    </p>
  );
}

/** The menu items that open the generic confirm modal (Cancel has the list's cancel modal). */
type ConfirmMenuItem = Exclude<ModalMenuItem, { kind: 'cancel' }>;

/** AM §2 the modal of each menu item: its call, its texts (AM §8) and whether it closes itself. */
export function menuItemModal(item: ConfirmMenuItem, detail: Subject): { texts: ConfirmActionTexts; input: ConfirmActionInput } {
  const applicationId = String(detail.ApplicationId);
  const applicationGuid = detail.ApplicationGuid;
  switch (item.kind) {
    case 'unlockApplication':
      return {
        texts: {
          title: 'Unlock Application',
          question: (
            <>
              <p>Unlock this application? Its applicants can then continue it.</p>
              <SubjectLine detail={detail} />
            </>
          ),
          confirmLabel: 'Unlock',
        },
        // The refetched detail shows the new status; the host announces the success text.
        input: { call: { type: 'unlockApplication', applicationId }, closeOnSuccess: true },
      };
    case 'emailResumeLink':
      return {
        texts: {
          title: 'Email resume link',
          question: <p>Send the link to resume this application to {detail.Email || 'the primary applicant'}?</p>,
          confirmLabel: 'Send',
        },
        input: { call: { type: 'emailResumeLink', applicationId }, withMessage: true, successText: actionTexts.emailSent },
      };
    case 'resendCompletionEmail':
      return {
        texts: {
          title: 'Resend email',
          question: <p>Send the completion email to {detail.Email || 'the primary applicant'} again?</p>,
          confirmLabel: 'Send',
        },
        input: {
          call: { type: 'resendCompletionEmail', applicationId },
          withMessage: true,
          successText: actionTexts.emailSent,
        },
      };
    case 'triggerApi':
      return {
        texts: {
          title: 'Confirm Action',
          question: (
            <>
              <p>Run “{item.label}” for this application?</p>
              <SubjectLine detail={detail} />
            </>
          ),
          confirmLabel: 'Confirm',
        },
        input: { call: { type: 'triggerApi', request: { ApplicationGuid: applicationGuid, ApiName: item.apiName } } },
      };
    case 'depersonalise':
      return {
        texts: {
          title: 'Depersonalise application',
          question: (
            <>
              <p>Depersonalise this application?</p>
              <SubjectLine detail={detail} />
            </>
          ),
          warning:
            'This permanently removes the personal data of its applicants (names, email, phone, date of birth, TFN, addresses and documents). It cannot be undone. The activity feed is kept.',
          confirmLabel: 'Depersonalise',
        },
        input: {
          call: { type: 'depersonalise', applicationGuid },
          successText: actionTexts.depersonalised,
          failureText: actionTexts.depersonaliseFailed,
        },
      };
  }
}

/** The confirm modal of one Actions menu item (loaded with the first one opened). */
export default function MenuActionModal({
  item,
  detail,
  ...handlers
}: { item: ModalMenuItem; detail: Subject } & Omit<ConfirmActionModalProps, 'texts' | 'input'>) {
  // AM §8: one result view for every cancel, with Cancelled or Error per application.
  if (item.kind === 'cancel') return <DetailCancelModal detail={detail} onRemoved={handlers.onRemoved} onClose={handlers.onClose} />;
  const { texts, input } = menuItemModal(item, detail);
  return <ConfirmActionModal texts={texts} input={input} {...handlers} />;
}
