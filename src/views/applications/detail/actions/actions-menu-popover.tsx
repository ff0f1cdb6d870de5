import type { RefObject } from 'react';
import type { ActionsMenuItem } from '../../../../domain/actions-menu.ts';
import { Menu, MenuItem, MenuPopover } from '../../../ui/menu.tsx';

/**
 * AM §2 the Actions dropdown's menu, loaded when the person first reaches for it (hover, focus or
 * press): the menu and popover code stays out of the detail's first load. It opens from the
 * toolbar's own Actions button (`triggerRef`), so focus goes back to that button when it closes.
 */
export default function ActionsMenuPopover({
  triggerRef,
  items,
  onChoose,
  onClose,
}: {
  triggerRef: RefObject<HTMLButtonElement | null>;
  items: readonly ActionsMenuItem[];
  onChoose: (item: ActionsMenuItem) => void;
  onClose: () => void;
}) {
  return (
    <MenuPopover
      triggerRef={triggerRef}
      // Opened without a MenuTrigger, the popover is a dialog of its own: it needs a name too.
      aria-label="Actions"
      isOpen
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
    >
      <Menu
        aria-label="Actions"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the menu button pattern: an opened menu takes focus on its first item
        autoFocus="first"
        items={items}
        onClose={onClose}
        onAction={(key) => {
          const item = items.find((candidate) => candidate.id === key);
          if (item) onChoose(item);
        }}
      >
        {(item) => <MenuItem id={item.id}>{item.label}</MenuItem>}
      </Menu>
    </MenuPopover>
  );
}
