import type { ReactNode } from 'react';
import {
  Header,
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  type MenuItemProps as AriaMenuItemProps,
  type MenuProps as AriaMenuProps,
  type PopoverProps,
} from 'react-aria-components';
import styles from './menu.module.css';

/** Opens a Menu from a Button: `<MenuTrigger><Button/><MenuPopover><Menu>…`. */
export { MenuTrigger };

export function MenuPopover(props: Omit<PopoverProps, 'className'>) {
  return <Popover placement="bottom end" {...props} className={styles.popover} />;
}

export function Menu<T extends object>(props: Omit<AriaMenuProps<T>, 'className'>) {
  return <AriaMenu {...props} className={styles.menu} />;
}

export function MenuItem<T extends object>(props: Omit<AriaMenuItemProps<T>, 'className'>) {
  return <AriaMenuItem {...props} className={styles.item} />;
}

/** A group of items under a non-interactive heading (e.g. the signed-in user's name). */
export function MenuGroup({ heading, children }: { heading: ReactNode; children: ReactNode }) {
  return (
    <MenuSection>
      <Header className={styles.header}>{heading}</Header>
      {children}
    </MenuSection>
  );
}
