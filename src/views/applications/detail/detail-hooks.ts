import { useMemo } from 'react';
import { detailCards, type DetailCards } from '../../../domain/application-detail.ts';
import type { ApplicationDetail } from '../../../schemas/application-detail.schema.ts';
import { ApplicationDetailContext } from '../../../machines/application-detail.machine.ts';

/** Narrow selections from the detail machine (each card reads only what it shows). */
export const useDetailSelector = ApplicationDetailContext.useSelector;

export function useDetailSend() {
  return ApplicationDetailContext.useActorRef().send;
}

/** Which cards and controls show (AM §2, §6): the domain decides from the claims and the settings. */
export function useDetailCards(detail: ApplicationDetail): DetailCards {
  const claims = useDetailSelector((snapshot) => snapshot.context.claims);
  const settings = useDetailSelector((snapshot) => snapshot.context.configuration.settings);
  return useMemo(() => detailCards(detail, claims, settings), [detail, claims, settings]);
}
