import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import styles from './dialog.module.css';

export interface ModalDialogProps {
  title: string;
  isOpen: boolean;
  /** Called with false when Escape or (if dismissable) an outside click asks to close. */
  onOpenChange: (isOpen: boolean) => void;
  isDismissable?: boolean;
  /** Escape closes unless this is set (e.g. while a request is in flight). */
  isKeyboardDismissDisabled?: boolean;
  children: ReactNode;
}

/** A modal dialog: focus is trapped inside, restored on close, the title labels it. */
export function ModalDialog({
  title,
  isOpen,
  onOpenChange,
  isDismissable = false,
  isKeyboardDismissDisabled,
  children,
}: ModalDialogProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
      isKeyboardDismissDisabled={isKeyboardDismissDisabled}
      className={styles.overlay}
    >
      <Modal className={styles.modal}>
        <Dialog className={styles.dialog}>
          <Heading slot="title" className={styles.title}>
            {title}
          </Heading>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
