// The dashboard menus (spec §2): chosen by user_type equal to buyer; anyone else sees the farmer menu.
// Issue 12 adds My requests (buyer), Requests and Insights (farmer) after the spec's items, and badges.
import { type CounterName, type UserType } from '@tuber/shell-contract';
import { translate } from '@tuber/ui';
import { shellCatalogue } from '../i18n/catalogue.js';

export interface MenuLink {
  /** The English label (the spec's); shown through the shell catalogue's `key`. */
  label: string;
  key: string;
  to: string;
  /** The counter shown as a badge beside the label (nothing while it is 0). */
  badge?: CounterName;
}

export const buyerMenu: MenuLink[] = [
  { label: 'Products', key: 'menu.products', to: '/dashboard/buyer' },
  { label: 'Cart', key: 'menu.carts', to: '/dashboard/cart', badge: 'cart' },
  { label: 'My requests', key: 'menu.my-requests', to: '/dashboard/requests', badge: 'unread' },
  { label: 'Profile', key: 'menu.profile', to: '/dashboard/buyerprofile' },
];

export const farmerMenu: MenuLink[] = [
  { label: 'Add Product', key: 'menu.add-product', to: '/dashboard/farmer' },
  { label: 'Product Lists', key: 'menu.product-lists', to: '/dashboard/productLists' },
  { label: 'Requests', key: 'menu.requests', to: '/dashboard/inbox', badge: 'unread' },
  { label: 'Insights', key: 'menu.insights', to: '/dashboard/insights' },
  { label: 'Profile', key: 'menu.profile', to: '/dashboard/farmerprofile' },
];

/** The moderation desk (issue 26), after the person's own menu, for moderators only. */
export const moderatorLink: MenuLink = { label: 'Moderation', key: 'menu.moderation', to: '/dashboard/moderation' };

export const menuFor = (userType: UserType | string | undefined, roles: readonly string[] = []): MenuLink[] => [
  ...(userType === 'buyer' ? buyerMenu : farmerMenu),
  ...(roles.includes('moderator') ? [moderatorLink] : []),
];

/** The header's "Go to Profile": the person's own profile page (the menu's Profile), not the dashboard home. */
export const profilePageOf = (userType: UserType | string | undefined): string =>
  userType === 'buyer' ? '/dashboard/buyerprofile' : '/dashboard/farmerprofile';

/** What a badge shows: nothing at 0, the number up to 99, then "99+" (a badge stays two digits wide). */
export const badgeText = (count: number): string => (count <= 0 ? '' : count > 99 ? '99+' : String(count));

/** What a screen reader hears for a badge: "3 items in cart", "1 unread request". */
export function badgeLabel(counter: CounterName, count: number): string {
  return translate(shellCatalogue, counter === 'cart' ? 'badge.cart' : 'badge.unread', { count });
}

/** Small-screen menu width (spec §9): 40% of the viewport. */
export const SMALL_SCREEN_MENU_WIDTH = '40vw';
