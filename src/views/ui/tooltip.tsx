import type { ReactElement, ReactNode } from 'react';
import {
  Tooltip as AriaTooltip,
  TooltipTrigger,
  type TooltipProps as AriaTooltipProps,
} from 'react-aria-components';
import styles from './tooltip.module.css';

export interface TooltipProps extends Omit<AriaTooltipProps, 'className' | 'children'> {
  /** What the tooltip says. */
  content: ReactNode;
  /** A focusable element (a Button): the tooltip shows on hover and on keyboard focus. */
  children: ReactElement;
  delay?: number;
}

/** A tooltip on a focusable trigger, described to assistive technology by the trigger. */
export function Tooltip({ content, children, delay = 300, placement = 'top', ...props }: TooltipProps) {
  return (
    <TooltipTrigger delay={delay}>
      {children}
      <AriaTooltip {...props} placement={placement} offset={6} className={styles.tooltip}>
        {content}
      </AriaTooltip>
    </TooltipTrigger>
  );
}
