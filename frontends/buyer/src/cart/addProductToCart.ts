// "Add to cart" on the detail page: the cart rule, saved, with the spec's toast (§8).
import type { Toaster } from '@tuber/ui';
import type { Product } from '../catalog/types.js';
import { addToCart } from './cart.js';
import { getCart, saveCart } from './cartStore.js';

export function addProductToCart(product: Product, toast: Toaster): void {
  const { cart, outcome } = addToCart(getCart(), product);
  saveCart(cart);
  if (outcome === 'added') toast.success('item added to cart');
  else toast.info('quantity increased');
}
