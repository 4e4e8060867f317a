import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { badgeLabel, badgeText, buyerMenu, farmerMenu } from '../../src/dashboard/menus.js';
import { routePage } from '../../src/remotes/routePages.js';

describe('menu badges (issue 12)', () => {
  it('say "3 items in cart" and "2 unread requests" to a screen reader, in the singular for one', () => {
    expect(badgeLabel('cart', 3)).toBe('3 items in cart');
    expect(badgeLabel('cart', 1)).toBe('1 item in cart');
    expect(badgeLabel('unread', 2)).toBe('2 unread requests');
    expect(badgeLabel('unread', 1)).toBe('1 unread request');
  });

  it('show nothing at 0, the number up to 99, then 99+', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(-1)).toBe('');
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('link every menu item to a page of the routes (a remote page, or the shell own)', () => {
    const routes = fs.readFileSync(new URL('../../src/routes.tsx', import.meta.url), 'utf8');
    for (const link of [...buyerMenu, ...farmerMenu]) {
      const path = link.to.replace('/dashboard/', '');
      expect(routes, link.to).toContain(`path: '${path}'`);
      expect(routePage(link.to), link.to).not.toBeNull();
    }
  });

  it('badge the cart on Carts and unread requests on My requests and Requests', () => {
    expect(buyerMenu.filter((l) => l.badge).map((l) => `${l.label}:${l.badge}`)).toEqual(['Cart:cart', 'My requests:unread']);
    expect(farmerMenu.filter((l) => l.badge).map((l) => `${l.label}:${l.badge}`)).toEqual(['Requests:unread']);
  });
});
