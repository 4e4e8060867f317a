// The cart's rules (spec §3, §4, §9) as pure functions over the stored items. Money is integer kobo while
// computing (ADR 0010); the stored item keeps the spec's shape, with `price` and `total` as 2-decimal naira,
// plus the selling unit that price was for (issue 11: a line carries the price and unit it was added at).
import { koboToNaira, nairaToKobo, unitOf } from '@tuber/ui';
import type { SellingUnit } from '../catalog/types.js';

export interface CartItem {
  product_id: string;
  product_name: string;
  images: string[];
  /** Naira per `unit`, 2 decimals: the price when the line was added (or when the buyer last accepted a new one). */
  price: number;
  /** The selling unit of `price`; a cart stored before units existed is per kg. */
  unit: SellingUnit;
  farmer_id: string;
  quantity: number;
  /** price × quantity in naira, 2 decimals; always recomputed from kobo, never summed as floats. */
  total: number;
}

export type Cart = readonly CartItem[];

/** What is needed to put a product in the cart. */
export interface CartProduct {
  product_id: string;
  product_name: string;
  images: string[];
  price: number;
  /** Absent: per kg. */
  unit?: SellingUnit;
  farmer_id: string;
}

export type AddOutcome = 'added' | 'increased';

export const INITIAL_QUANTITY = 1;

export const priceKobo = (item: Pick<CartItem, 'price'>): number => nairaToKobo(item.price);
export const lineTotalKobo = (item: Pick<CartItem, 'price' | 'quantity'>): number => priceKobo(item) * item.quantity;

function withQuantity(item: CartItem, quantity: number): CartItem {
  return { ...item, quantity, total: koboToNaira(priceKobo(item) * quantity) };
}

/**
 * Adds a product: a new one is appended with quantity 1; one already there gets one more, with its line
 * total recomputed. (The spec records the original doubling the quantity here; see ADR 0013.)
 */
export function addToCart(cart: Cart, product: CartProduct): { cart: CartItem[]; outcome: AddOutcome } {
  const existing = cart.find((item) => item.product_id === product.product_id);
  if (existing) {
    return { cart: cart.map((item) => (item === existing ? withQuantity(item, item.quantity + 1) : item)), outcome: 'increased' };
  }
  const price = koboToNaira(nairaToKobo(product.price));
  const item: CartItem = {
    product_id: product.product_id,
    product_name: product.product_name,
    images: [...product.images],
    price,
    unit: unitOf(product),
    farmer_id: product.farmer_id,
    quantity: INITIAL_QUANTITY,
    total: price,
  };
  return { cart: [...cart, withQuantity(item, INITIAL_QUANTITY)], outcome: 'added' };
}

export function increment(cart: Cart, productId: string): CartItem[] {
  return cart.map((item) => (item.product_id === productId ? withQuantity(item, item.quantity + 1) : item));
}

/** One less, but never below 1 (spec §5: decrement stops at quantity 1). */
export function decrement(cart: Cart, productId: string): CartItem[] {
  return cart.map((item) => (item.product_id === productId && item.quantity > 1 ? withQuantity(item, item.quantity - 1) : item));
}

/** Sets a line's quantity (a whole number, at least 1), e.g. to what the farmer still has (issue 12). */
export function setQuantity(cart: Cart, productId: string, quantity: number): CartItem[] {
  const next = Math.max(1, Math.floor(quantity));
  return cart.map((item) => (item.product_id === productId ? withQuantity(item, next) : item));
}

export function removeFromCart(cart: Cart, productId: string): CartItem[] {
  return cart.filter((item) => item.product_id !== productId);
}

export interface CartSummary {
  /** Sum of the quantities. */
  totalItems: number;
  /** Sum of the line totals, in kobo. */
  totalKobo: number;
}

export function summarize(cart: Cart): CartSummary {
  return cart.reduce<CartSummary>(
    (sum, item) => ({ totalItems: sum.totalItems + item.quantity, totalKobo: sum.totalKobo + lineTotalKobo(item) }),
    {
      totalItems: 0,
      totalKobo: 0,
    },
  );
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** One stored item, checked and normalised (totals recomputed); null when it cannot be a cart item. */
function parseItem(value: unknown): CartItem | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  const { product_id, product_name, images, price, farmer_id, quantity } = raw;
  if (!isString(product_id) || product_id === '' || !isString(product_name) || !isString(farmer_id)) return null;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return null;
  if (typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 1) return null;
  const item: CartItem = {
    product_id,
    product_name,
    images: Array.isArray(images) ? images.filter(isString) : [],
    price: koboToNaira(nairaToKobo(price)),
    unit: unitOf(raw), // carts stored before issue 11 have no unit: every product then was sold per kg
    farmer_id,
    quantity,
    total: 0,
  };
  return withQuantity(item, quantity);
}

/**
 * Reads the stored cart text. Anything unreadable (not JSON, not a list, broken items) is tolerated: the
 * bad parts are dropped rather than breaking the page. Duplicate products are merged.
 */
export function parseCart(stored: string | null): CartItem[] {
  if (!stored) return [];
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const items: CartItem[] = [];
  for (const entry of value) {
    const item = parseItem(entry);
    if (!item) continue;
    const index = items.findIndex((other) => other.product_id === item.product_id);
    if (index === -1) items.push(item);
    else items[index] = withQuantity(items[index]!, items[index]!.quantity + item.quantity);
  }
  return items;
}

/** The buyer takes the product's current price (and unit) for this line; the line total follows. */
export function acceptPrice(cart: Cart, productId: string, current: { price: number; unit?: SellingUnit }): CartItem[] {
  return cart.map((item) =>
    item.product_id === productId
      ? withQuantity({ ...item, price: koboToNaira(nairaToKobo(current.price)), unit: unitOf(current) }, item.quantity)
      : item,
  );
}

export const serializeCart = (cart: Cart): string => JSON.stringify(cart);
