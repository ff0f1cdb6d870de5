import type { NavigationItem } from '../../domain/navigation.ts';
import { Button } from '../ui/button.tsx';
import { ExternalIcon, MenuIcon } from '../ui/icons.tsx';
import { Menu, MenuItem, MenuPopover, MenuTrigger } from '../ui/menu.tsx';
import { AriaRouterBridge } from '../ui/router-bridge.tsx';
import focus from '../ui/focus.module.css';

/** SUV §2: below 768 px the side navigation's items (the same `navigationItems`, the same addresses and words) move into a hamburger menu. */
export function MobileNav({ items }: { items: readonly NavigationItem[] }) {
  return (
    <AriaRouterBridge>
      <MenuTrigger>
        <Button variant="icon" aria-label="Navigation menu">
          <MenuIcon />
        </Button>
        <MenuPopover placement="bottom start">
          <Menu aria-label="Navigation" items={items.map((item) => ({ ...item, id: item.label }))}>
            {(item) =>
              item.external ? (
                <MenuItem href={item.to} target="_blank" rel="noopener noreferrer" textValue={item.label}>
                  {item.label}
                  <ExternalIcon />
                  <span className={focus.visuallyHidden}> (opens in a new tab)</span>
                </MenuItem>
              ) : (
                <MenuItem href={item.to} textValue={item.label}>
                  {item.label}
                </MenuItem>
              )
            }
          </Menu>
        </MenuPopover>
      </MenuTrigger>
    </AriaRouterBridge>
  );
}
