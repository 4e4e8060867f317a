// The dashboard menus (spec §2): chosen by user_type equal to buyer; anyone else sees the farmer menu.
import type { UserType } from '@tuber/ui';

export interface MenuLink {
  label: string;
  to: string;
}

export const buyerMenu: MenuLink[] = [
  { label: 'Products', to: '/dashboard/buyer' },
  { label: 'Carts', to: '/dashboard/cart' },
  { label: 'Profile', to: '/dashboard/buyerprofile' },
];

export const farmerMenu: MenuLink[] = [
  { label: 'Add Product', to: '/dashboard/farmer' },
  { label: 'Product Lists', to: '/dashboard/productLists' },
  { label: 'Profile', to: '/dashboard/farmerprofile' },
];

export const menuFor = (userType: UserType | string | undefined): MenuLink[] => (userType === 'buyer' ? buyerMenu : farmerMenu);

/** The header's "Go to Profile": the person's own profile page (the menu's Profile), not the dashboard home. */
export const profilePageOf = (userType: UserType | string | undefined): string =>
  userType === 'buyer' ? '/dashboard/buyerprofile' : '/dashboard/farmerprofile';

/** Small-screen menu width (spec §9): 40% of the viewport. */
export const SMALL_SCREEN_MENU_WIDTH = '40vw';
