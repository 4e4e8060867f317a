// The cart in local storage under "cart" (spec §3, §9), as a store React can subscribe to. Every change is
// saved at once; other tabs learn of it through the `storage` event, this tab through its own listeners.
// Issue 12: the signed-in user the cart belongs to is kept beside it under "cart_owner" (the items keep the
// spec's shape), and the shell's cart badge (counter 'cart', the sum of the quantities) follows every change.
import { useSyncExternalStore } from 'react';
import { setCounter } from '@tuber/shell-contract';
import { parseCart, serializeCart, summarize, type Cart, type CartItem } from './cart.js';
import { cartOwnerDecision } from './cartOwner.js';

export const CART_STORAGE_KEY = 'cart';
export const CART_OWNER_KEY = 'cart_owner';

const listeners = new Set<() => void>();
let cachedText: string | null | undefined;
let cachedCart: CartItem[] = [];
const empty: CartItem[] = [];

/** The browser's localStorage, or null where it is refused (privacy mode) or absent. */
export function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode): the cart lives for this page only
  }
}

let memoryText: string | null = null;
let memoryOwner: string | null = null;
/** The signed-in user this page runs for (claimCart), so a save records the owner. */
let currentUser: string | null = null;

function readText(): string | null {
  const store = storage();
  if (!store) return memoryText;
  try {
    return store.getItem(CART_STORAGE_KEY);
  } catch {
    return memoryText;
  }
}

/** The user id the stored cart belongs to, or null (a cart from before issue 12, or none yet). */
export function readCartOwner(): string | null {
  const store = storage();
  if (!store) return memoryOwner;
  try {
    return store.getItem(CART_OWNER_KEY);
  } catch {
    return memoryOwner;
  }
}

function writeOwner(userId: string): void {
  memoryOwner = userId;
  try {
    storage()?.setItem(CART_OWNER_KEY, userId);
  } catch {
    // disabled storage: the in-memory owner is enough for this page
  }
}

/** Tells the shell's badges how many items the cart holds. */
function publishCount(): void {
  setCounter('cart', summarize(getCart()).totalItems);
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
  publishCount();
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
  if (currentUser) writeOwner(currentUser);
  notify();
}

/**
 * The buyer remote runs for `userId`: a cart recorded for someone else (left on a shared phone) is emptied
 * rather than shown, a cart without an owner is taken over, and the badge is brought up to date.
 */
export function claimCart(userId: string): void {
  currentUser = userId;
  const decision = cartOwnerDecision(readCartOwner(), userId);
  if (decision === 'clear') saveCart([]);
  else if (decision === 'adopt') writeOwner(userId);
  publishCount();
}

/**
 * True when the stored cart may be shown to `userId`: no owner recorded, or this user. While the user is
 * not known yet (the session still loading), an owned cart is not shown.
 */
export function cartVisibleTo(userId: string | null): boolean {
  const owner = readCartOwner();
  if (!owner) return true;
  return userId !== null && cartOwnerDecision(owner, userId) === 'keep';
}

/** Applies a change to the current cart, saves it and returns the new cart. */
export function updateCart(change: (cart: CartItem[]) => CartItem[]): CartItem[] {
  const next = change(getCart());
  saveCart(next);
  return getCart();
}

function onStorage(event: StorageEvent) {
  // key null: another tab cleared the whole storage.
  if (event.key === CART_STORAGE_KEY || event.key === CART_OWNER_KEY || event.key === null) notify();
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

// The badge is right as soon as the remote loads, and follows changes made in other tabs even when no page
// of this remote is subscribed.
if (typeof window !== 'undefined') {
  publishCount();
  window.addEventListener('storage', (event) => {
    if (event.key === CART_STORAGE_KEY || event.key === null) publishCount();
  });
}
