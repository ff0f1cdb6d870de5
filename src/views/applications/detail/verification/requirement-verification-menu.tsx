import { Suspense, useCallback, useState } from 'react';
import {
  addsIdentification,
  verificationMenuModes,
  verificationTitle,
} from '../../../../domain/identity-verification.ts';
import type { Requirement } from '../../../../schemas/application-detail.schema.ts';
import type { VerificationMode } from '../../../../schemas/identity-verification.schema.ts';
import { Button } from '../../../ui/button.tsx';
import { Menu, MenuItem, MenuPopover, MenuTrigger } from '../../../ui/menu.tsx';
import { preloadableLazy } from '../../../ui/preloadable-lazy.tsx';
import { useReturnFocus } from '../../../ui/use-return-focus.ts';
import { useDetailSelector, useDetailSend } from '../detail-hooks.ts';

/** The modal (and, for re-verification, rjsf) load when the menu first opens, never with the detail. */
const { Component: IdentityVerificationModal, preload: preloadModal } = preloadableLazy(
  () => import('./identity-verification-modal.tsx'),
);
const formModule = () => import('./identification-form.tsx');

/** Opening the menu starts the downloads the chosen item will need, so the form is ready when the modal opens. */
function prefetch(modes: readonly VerificationMode[]) {
  void preloadModal();
  if (modes.some(addsIdentification)) void formModule();
}

/**
 * AM §2/§6: a requirement's verification menu: re-verify, verify, PEP/Sanctions screening, each
 * shown by its claim and the requirement's matching eligibility flag (rules in src/domain). No
 * item, no menu. A result makes the detail refetch.
 */
export function RequirementVerificationMenu({
  applicationGuid,
  applicationStatus,
  requirement,
  individualName,
}: {
  applicationGuid: string;
  applicationStatus: string;
  requirement: Requirement;
  individualName: string;
}) {
  const claims = useDetailSelector((snapshot) => snapshot.context.claims);
  const send = useDetailSend();
  // Which modal is open is this control's own display state; the workflow is the modal's machine.
  const [mode, setMode] = useState<VerificationMode | undefined>(undefined);
  // The chosen item left with its menu: closing the modal puts focus back on Verify….
  const { triggerRef, returnFocus } = useReturnFocus<HTMLButtonElement>();
  const onClose = useCallback(() => {
    setMode(undefined);
    returnFocus();
  }, [returnFocus]);
  const onChanged = useCallback(() => send({ type: 'detail.refetch' }), [send]);
  const modes = verificationMenuModes(claims, requirement, applicationStatus);
  if (modes.length === 0) return null;
  return (
    <>
      <MenuTrigger
        onOpenChange={(isOpen) => {
          if (isOpen) prefetch(modes);
        }}
      >
        {/* The name starts with the visible text (WCAG 2.5.3 label in name), then says whose. */}
        <Button ref={triggerRef} aria-label={`Verify ${individualName}`}>Verify…</Button>
        <MenuPopover>
          <Menu onAction={(key) => setMode(modes.find((candidate) => candidate === key))}>
            {modes.map((item) => (
              <MenuItem key={item} id={item}>
                {verificationTitle(item)}
              </MenuItem>
            ))}
          </Menu>
        </MenuPopover>
      </MenuTrigger>
      {mode && (
        <Suspense fallback={null}>
          <IdentityVerificationModal
            applicationGuid={applicationGuid}
            individualId={requirement.EntityGuid}
            individualName={individualName}
            mode={mode}
            onClose={onClose}
            onChanged={onChanged}
          />
        </Suspense>
      )}
    </>
  );
}
