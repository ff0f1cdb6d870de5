import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { cancelApplicationsMachine } from '../../../../machines/cancel-applications.machine.ts';
import type { ApplicationDetail } from '../../../../schemas/application-detail.schema.ts';
import CancelApplicationsModal from '../../cancel-applications-modal.tsx';
import type { ConfirmActionModalProps } from './confirm-action-modal.tsx';

/** What the modal names the application by, as the list's cancel modal does. */
type Subject = Pick<ApplicationDetail, 'ApplicationId' | 'ApplicationGuid' | 'AccountName'>;

/**
 * AM §2/§8 Cancel Application on the detail: the list's cancel modal and machine for this one
 * application, so the result is the same view, 'Application(s) cancelled' with Cancelled or Error.
 * A cancelled application has left every listing: the host goes back to the list.
 */
export function DetailCancelModal({
  detail,
  onRemoved,
  onClose,
}: { detail: Subject } & Pick<ConfirmActionModalProps, 'onRemoved' | 'onClose'>) {
  const dialog = useActorRef(cancelApplicationsMachine, {
    input: {
      applications: [{ applicationGuid: detail.ApplicationGuid, applicationId: detail.ApplicationId, accountName: detail.AccountName }],
    },
  });
  const output = useSelector(dialog, (snapshot) => snapshot.output);
  useEffect(() => {
    if (!output) return;
    if (output.cancelledAny) onRemoved?.();
    onClose({ changed: output.cancelledAny, resultText: output.cancelledAny ? 'Application(s) cancelled' : '' });
  }, [output, onRemoved, onClose]);
  return <CancelApplicationsModal dialog={dialog} />;
}
