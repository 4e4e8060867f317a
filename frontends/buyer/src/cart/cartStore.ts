// The cart in local storage under "cart" (spec §3, §9), as a store React can subscribe to. Every change is
// saved at once; other tabs learn of it through the `storage` event, this tab through its own listeners.
import { useSyncExternalStore } from 'react';
import { parseCart, serializeCart, type Cart, type CartItem } from './cart.js';

export const CART_STORAGE_KEY = 'cart';

const listeners = new Set<() => void>();
let cachedText: string | null | undefined;
let cachedCart: CartItem[] = [];
const empty: CartItem[] = [];

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode): the cart lives for this page only
  }
}

let memoryText: string | null = null;

function readText(): string | null {
  const store = storage();
  if (!store) return memoryText;
  try {
    return store.getItem(CART_STORAGE_KEY);
  } catch {
    return memoryText;
  }
}

/** The current cart; the same array until the stored text changes (what useSyncExternalStore needs). */
export function getCart(): CartItem[] {
  const text = readText();
  if (text !== cachedText) {
    cachedText = text;
    cachedCart = parseCart(text);
  }
  return cachedCart;
}

function notify() {
  for (const listener of listeners) listener();
}

export function saveCart(cart: Cart): void {
  const text = serializeCart(cart);
  memoryText = text;
  try {
    storage()?.setItem(CART_STORAGE_KEY, text);
  } catch {
    // quota or disabled storage: keep the in-memory copy
  }
  notify();
}

/** Applies a change to the current cart, saves it and returns the new cart. */
export function updateCart(change: (cart: CartItem[]) => CartItem[]): CartItem[] {
  const next = change(getCart());
  saveCart(next);
  return getCart();
}

function onStorage(event: StorageEvent) {
  // key null: another tab cleared the whole storage.
  if (event.key === CART_STORAGE_KEY || event.key === null) notify();
}

export function subscribeToCart(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

export function useCart(): CartItem[] {
  return useSyncExternalStore(subscribeToCart, getCart, () => empty);
}
