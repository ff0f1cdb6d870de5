import { lazy, Suspense, useCallback } from 'react';
import { unlockConfirmText, userActionTexts, type UserListRow } from '../../schemas/users.schema.ts';
import type { ConfirmActionTexts } from '../applications/detail/actions/confirm-action-modal.tsx';
import { fullName, type RowAction } from './users-table.tsx';

// The one confirm modal of the portal (the confirm-action machine), loaded when first opened.
const ConfirmActionModal = lazy(() => import('../applications/detail/actions/confirm-action-modal.tsx'));

/** SUV §2/§8: each row action's question and button; the texts of each outcome come from the schema. */
function textsOf(action: RowAction, name: string): ConfirmActionTexts {
  switch (action) {
    case 'unlock':
      return { title: 'Unlock User', question: unlockConfirmText(name), confirmLabel: 'Unlock' };
    case 'deactivate':
      return { title: 'Deactivate User', question: `Please confirm you would like to deactivate user ${name}.`, confirmLabel: 'Deactivate' };
    case 'reactivate':
      return { title: 'Reactivate User', question: `Please confirm you would like to reactivate user ${name}.`, confirmLabel: 'Reactivate' };
    case 'resendInvitation':
      return { title: 'Resend invitation', question: `Send ${name} a new invitation link? The link sent before stops working.`, confirmLabel: 'Resend' };
    case 'revokeInvitation':
      return { title: 'Revoke invitation', question: `Withdraw the invitation of ${name}? Their link stops working.`, confirmLabel: 'Revoke' };
  }
}

/** Unlock, Reactivate, Deactivate, Resend and Revoke invitation through the confirm-action machine; the list reloads after each (SUV §4). */
export function UserActionModal({ user, action, onChanged, onClose }: { user: UserListRow; action: RowAction; onChanged: () => void; onClose: () => void }) {
  const closed = useCallback(() => onClose(), [onClose]);
  return (
    <Suspense fallback={null}>
      <ConfirmActionModal
        texts={textsOf(action, fullName(user))}
        input={{
          call: { type: 'userAction', action, userId: user.GlobalUserId },
          successText: userActionTexts[action].success,
          failureText: userActionTexts[action].failure,
        }}
        onChanged={onChanged}
        onClose={closed}
      />
    </Suspense>
  );
}
