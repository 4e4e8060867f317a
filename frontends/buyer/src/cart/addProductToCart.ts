// "Add to cart" on the detail page: the cart rule, saved, with the spec's toast (§8); issue 12 adds the
// toast's "View cart" link and counts the add for the farmer's insights.
import type { ApiClient, Toaster } from '@tuber/shell-contract';
import type { Product } from '../catalog/types.js';
import { sendActivity } from '../orders/activity.js';
import { CART_ROUTE } from '../orders/types.js';
import { tr, type T } from '../i18n/t.js';
import { addToCart } from './cart.js';
import { getCart, saveCart } from './cartStore.js';

export const viewCart = (t: T = tr) => ({ label: t('product.view-cart'), to: CART_ROUTE }) as const;

export function addProductToCart(product: Product, toast: Toaster, api?: ApiClient, t: T = tr): void {
  const { cart, outcome } = addToCart(getCart(), product);
  saveCart(cart);
  if (outcome === 'added') toast.success(t('product.added'), { action: viewCart(t) });
  else toast.info(t('product.increased'), { action: viewCart(t) });
  if (api) sendActivity(api, product.product_id, 'cart_add');
}
