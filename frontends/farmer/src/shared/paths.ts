// The shell's routes to the farmer pages (frontends/shell routes these paths to the exposed modules).
export const ADD_PRODUCT_PATH = '/dashboard/farmer';
export const PRODUCT_LIST_PATH = '/dashboard/productLists';
export const FARMER_PROFILE_PATH = '/dashboard/farmerprofile';
export const BUYER_HOME_PATH = '/dashboard/buyer';
export const EDIT_PRODUCT_ROUTE = `${PRODUCT_LIST_PATH}/:productId/edit`;
export const editProductPath = (productId: string) => `${PRODUCT_LIST_PATH}/${encodeURIComponent(productId)}/edit`;
export const INBOX_PATH = '/dashboard/inbox';
