// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { navigationItems } from '../../src/domain/navigation.ts';
import { Link } from 'react-aria-components';
import { AriaRouterBridge } from '../../src/views/ui/router-bridge.tsx';
import { SideNav } from '../../src/views/shell/side-nav.tsx';

/** Issue 39 point 2: the hamburger menu and the side navigation give every item the same address. */
describe('the mobile navigation menu and the side navigation', () => {
  beforeEach(() => {
    // jsdom has no CSS.escape; react-aria's popover reads a meta tag with it.
    if (typeof globalThis.CSS?.escape !== 'function') vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/["\\\]]/g, '\\$&'), supports: () => false });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  const items = navigationItems(['view.myapps', 'entityverification.access', 'usermanagement.access'], 'https://help.demo.test/');

  it('react-aria links under the router bridge (the hamburger menu\'s items) keep an external address and resolve portal paths', () => {
    render(
      <MemoryRouter initialEntries={['/verifications']}>
        <AriaRouterBridge>
          {items.map((item) => (
            <Link key={item.label} href={item.to}>
              {item.label}
            </Link>
          ))}
        </AriaRouterBridge>
      </MemoryRouter>,
    );
    expect(Array.from(document.querySelectorAll('a')).map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Applications', '/list'],
      ['Verifications', '/verifications'],
      ['Users', '/users'],
      // Was '/https:/help.demo.test/': react-router read the address as a relative path.
      ['Help', 'https://help.demo.test/'],
    ]);
  });

  it('the side navigation gives the same addresses', () => {
    render(
      <MemoryRouter initialEntries={['/verifications']}>
        <SideNav items={items} />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(Array.from(nav.querySelectorAll('a')).map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('target')])).toEqual([
      ['Applications', '/list', null],
      ['Verifications', '/verifications', null],
      ['Users', '/users', null],
      ['Help (opens in a new tab)', 'https://help.demo.test/', '_blank'],
    ]);
  });
});
