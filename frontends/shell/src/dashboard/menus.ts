// The dashboard menus (spec §2): chosen by user_type equal to buyer; anyone else sees the farmer menu.
// Issue 12 adds My requests (buyer), Requests and Insights (farmer) after the spec's items, and badges.
import type { CounterName, UserType } from '@tuber/ui';

export interface MenuLink {
  label: string;
  to: string;
  /** The counter shown as a badge beside the label (nothing while it is 0). */
  badge?: CounterName;
}

export const buyerMenu: MenuLink[] = [
  { label: 'Products', to: '/dashboard/buyer' },
  { label: 'Carts', to: '/dashboard/cart', badge: 'cart' },
  { label: 'My requests', to: '/dashboard/requests', badge: 'unread' },
  { label: 'Profile', to: '/dashboard/buyerprofile' },
];

export const farmerMenu: MenuLink[] = [
  { label: 'Add Product', to: '/dashboard/farmer' },
  { label: 'Product Lists', to: '/dashboard/productLists' },
  { label: 'Requests', to: '/dashboard/inbox', badge: 'unread' },
  { label: 'Insights', to: '/dashboard/insights' },
  { label: 'Profile', to: '/dashboard/farmerprofile' },
];

export const menuFor = (userType: UserType | string | undefined): MenuLink[] => (userType === 'buyer' ? buyerMenu : farmerMenu);

/** The header's "Go to Profile": the person's own profile page (the menu's Profile), not the dashboard home. */
export const profilePageOf = (userType: UserType | string | undefined): string =>
  userType === 'buyer' ? '/dashboard/buyerprofile' : '/dashboard/farmerprofile';

/** What a badge shows: nothing at 0, the number up to 99, then "99+" (a badge stays two digits wide). */
export const badgeText = (count: number): string => (count <= 0 ? '' : count > 99 ? '99+' : String(count));

/** What a screen reader hears for a badge: "3 items in cart", "1 unread request". */
export function badgeLabel(counter: CounterName, count: number): string {
  if (counter === 'cart') return `${count} ${count === 1 ? 'item' : 'items'} in cart`;
  return `${count} unread ${count === 1 ? 'request' : 'requests'}`;
}

/** Small-screen menu width (spec §9): 40% of the viewport. */
export const SMALL_SCREEN_MENU_WIDTH = '40vw';
