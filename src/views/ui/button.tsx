import type { Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { classNames } from './class-names.ts';
import styles from './button.module.css';

export interface ButtonProps extends Omit<AriaButtonProps, 'className'> {
  variant?: 'primary' | 'secondary' | 'quiet' | 'icon';
  className?: string;
  /** React 19 passes `ref` as a prop: a popover anchored to this button (e.g. a menu loaded later) needs it. */
  ref?: Ref<HTMLButtonElement>;
}

/** The react-aria Button with the portal's look; state (hover, press, focus, disabled) styled from data attributes. */
export function Button({ variant = 'secondary', className, ...props }: ButtonProps) {
  return <AriaButton {...props} className={classNames(styles.button, styles[variant], className)} />;
}
