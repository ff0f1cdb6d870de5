import { useEffect, useId, type Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { classNames } from './class-names.ts';
import styles from './button.module.css';

export interface ButtonProps extends Omit<AriaButtonProps, 'className'> {
  variant?: 'primary' | 'secondary' | 'quiet' | 'icon';
  className?: string;
  /** React 19 passes `ref` as a prop: a popover anchored to this button (e.g. a menu loaded later) needs it. */
  ref?: Ref<HTMLButtonElement>;
}

const lateAnnouncementMs = 300;

/**
 * react-aria announces a pending button's change by pointing its live announcer at the button's
 * id (an element with role img and aria-labelledby). A pending button that the result replaces
 * (Verify, Cancel, Save) leaves that pointer dangling: a nameless image until it times out
 * (issue 32, axe role-img-alt), announcing nothing. When the button leaves, so do its announcements.
 */
function useAnnouncementsLeaveWith(buttonId: string) {
  useEffect(
    () => () => {
      const remove = () => {
        for (const node of document.querySelectorAll('[data-live-announcer] [role="img"][aria-labelledby]')) {
          if (node.getAttribute('aria-labelledby')?.split(' ').includes(buttonId)) node.remove();
        }
      };
      remove();
      // react-aria makes the page's very first announcement 100 ms late (its regions must be in the
      // page first), so one made just before the button left may arrive after it: it goes as it comes.
      const observer = new MutationObserver(remove);
      observer.observe(document.body, { childList: true, subtree: true });
      window.setTimeout(() => observer.disconnect(), lateAnnouncementMs);
    },
    [buttonId],
  );
}

/** The react-aria Button with the portal's look; state (hover, press, focus, disabled) styled from data attributes. */
export function Button({ variant = 'secondary', className, id, ...props }: ButtonProps) {
  const ownId = useId();
  const buttonId = id ?? ownId;
  useAnnouncementsLeaveWith(buttonId);
  return <AriaButton {...props} id={buttonId} className={classNames(styles.button, styles[variant], className)} />;
}
