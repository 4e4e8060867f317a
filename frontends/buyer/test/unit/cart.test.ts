import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addToCart,
  decrement,
  increment,
  parseCart,
  removeFromCart,
  serializeCart,
  summarize,
  type CartItem,
  type CartProduct,
} from '../../src/cart/cart.js';

const yam: CartProduct = {
  product_id: 'p-yam',
  product_name: 'White yam',
  images: ['http://x/files/yam.jpg'],
  price: 2500.5,
  farmer_id: 'f-1',
};
const ginger: CartProduct = { product_id: 'p-ginger', product_name: 'Ginger', images: [], price: 0.1, farmer_id: 'f-2' };
const garlic: CartProduct = { product_id: 'p-garlic', product_name: 'Garlic', images: [], price: 0.2, farmer_id: 'f-2' };

describe('adding to the cart', () => {
  it('appends a new product with quantity 1 and total = price, in the spec\'s item shape ("item added to cart")', () => {
    const { cart, outcome } = addToCart([], yam);
    expect(outcome).toBe('added');
    expect(cart).toEqual([
      {
        product_id: 'p-yam',
        product_name: 'White yam',
        images: ['http://x/files/yam.jpg'],
        price: 2500.5,
        unit: 'kg',
        farmer_id: 'f-1',
        quantity: 1,
        total: 2500.5,
      },
    ]);
  });

  it('adds one to a product already there and recomputes its total ("quantity increased"), not doubling it (ADR 0013)', () => {
    let cart: CartItem[] = addToCart([], yam).cart;
    cart = increment(cart, yam.product_id); // quantity 2
    const again = addToCart(cart, yam);
    expect(again.outcome).toBe('increased');
    expect(again.cart).toHaveLength(1);
    expect(again.cart[0]).toMatchObject({ quantity: 3, total: 7501.5 });
  });

  it('adding twice gives quantity 2 and twice the price', () => {
    const once = addToCart([], yam).cart;
    const twice = addToCart(once, yam).cart;
    expect(twice[0]).toMatchObject({ quantity: 2, total: 5001 });
  });

  it('does not change the cart it was given', () => {
    const cart = addToCart([], yam).cart;
    const frozen = structuredClone(cart);
    addToCart(cart, yam);
    increment(cart, yam.product_id);
    expect(cart).toEqual(frozen);
  });
});

describe('plus, minus and remove', () => {
  const start = () => addToCart(addToCart([], yam).cart, ginger).cart;

  it('plus adds 1 and recomputes the line total', () => {
    const cart = increment(start(), yam.product_id);
    expect(cart[0]).toMatchObject({ quantity: 2, total: 5001 });
    expect(cart[1]).toMatchObject({ quantity: 1 });
  });

  it('minus takes 1 away while the quantity is above 1', () => {
    const cart = decrement(increment(increment(start(), yam.product_id), yam.product_id), yam.product_id);
    expect(cart[0]).toMatchObject({ quantity: 2, total: 5001 });
  });

  it('minus stops at 1', () => {
    const cart = decrement(decrement(start(), yam.product_id), yam.product_id);
    expect(cart[0]).toMatchObject({ quantity: 1, total: 2500.5 });
  });

  it('remove deletes the item', () => {
    expect(removeFromCart(start(), yam.product_id).map((item) => item.product_id)).toEqual(['p-ginger']);
    expect(removeFromCart(removeFromCart(start(), yam.product_id), ginger.product_id)).toEqual([]);
  });
});

describe('totals', () => {
  it('sums quantities and line totals in kobo: 0.1 + 0.2 is exactly 0.30', () => {
    const cart = addToCart(addToCart([], ginger).cart, garlic).cart;
    expect(summarize(cart)).toEqual({ totalItems: 2, totalKobo: 30 });
  });

  it('has no drift over many small additions', () => {
    let cart: CartItem[] = addToCart([], ginger).cart;
    for (let i = 0; i < 9; i++) cart = increment(cart, ginger.product_id);
    expect(cart[0]!.total).toBe(1); // 10 × ₦0.10, where floats give 0.9999999999999999
    cart = addToCart(cart, { ...garlic, price: 19.99 }).cart;
    for (let i = 0; i < 2; i++) cart = increment(cart, garlic.product_id);
    expect(cart[1]!.total).toBe(59.97); // 3 × 19.99 is 59.97000000000001 in floats
    expect(summarize(cart)).toEqual({ totalItems: 13, totalKobo: 6097 });
  });

  it('an empty cart sums to nothing', () => {
    expect(summarize([])).toEqual({ totalItems: 0, totalKobo: 0 });
  });
});

describe('stored cart', () => {
  it('round-trips through its stored text', () => {
    const cart = increment(addToCart(addToCart([], yam).cart, ginger).cart, yam.product_id);
    expect(parseCart(serializeCart(cart))).toEqual(cart);
  });

  it.each([
    ['nothing stored', null],
    ['an empty string', ''],
    ['text that is not JSON', '{"oops'],
    ['JSON that is not a list', '{"product_id":"p"}'],
    ['a list of junk', '[1, "two", null, {"product_id": 3}]'],
  ])('reads %s as an empty cart', (_what, stored) => {
    expect(parseCart(stored)).toEqual([]);
  });

  it('keeps the good items of a partly broken list and recomputes their totals', () => {
    const stored = JSON.stringify([
      { product_id: 'p-yam', product_name: 'White yam', images: ['a.jpg', 7], price: 2500.5, farmer_id: 'f-1', quantity: 2, total: 99 },
      { product_id: 'p-bad', product_name: 'No price', images: [], farmer_id: 'f-1', quantity: 1, total: 1 },
      { product_id: 'p-neg', product_name: 'Zero quantity', images: [], price: 10, farmer_id: 'f-1', quantity: 0, total: 0 },
      { product_id: 'p-frac', product_name: 'Half', images: [], price: 10, farmer_id: 'f-1', quantity: 1.5, total: 15 },
    ]);
    expect(parseCart(stored)).toEqual([
      {
        product_id: 'p-yam',
        product_name: 'White yam',
        images: ['a.jpg'],
        price: 2500.5,
        unit: 'kg',
        farmer_id: 'f-1',
        quantity: 2,
        total: 5001,
      },
    ]);
  });

  it('merges the same product stored twice', () => {
    const item = { product_id: 'p-yam', product_name: 'White yam', images: [], price: 1, farmer_id: 'f-1', quantity: 1, total: 1 };
    expect(parseCart(JSON.stringify([item, { ...item, quantity: 2 }]))).toEqual([{ ...item, unit: 'kg', quantity: 3, total: 3 }]);
  });
});

describe('cart store (local storage key "cart")', () => {
  let data: Map<string, string>;
  const listeners = new Map<string, (event: unknown) => void>();

  beforeEach(() => {
    data = new Map();
    const localStorage = {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
      removeItem: (key: string) => void data.delete(key),
    };
    vi.stubGlobal('window', {
      localStorage,
      addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
      removeEventListener: (type: string) => listeners.delete(type),
    });
    vi.resetModules();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    listeners.clear();
  });

  it('saves every change under "cart" and reads it back', async () => {
    const store = await import('../../src/cart/cartStore.js');
    store.updateCart((cart) => addToCart(cart, yam).cart);
    expect(JSON.parse(data.get('cart')!)).toMatchObject([{ product_id: 'p-yam', quantity: 1 }]);
    store.updateCart((cart) => increment(cart, yam.product_id));
    expect(store.getCart()[0]).toMatchObject({ quantity: 2, total: 5001 });
  });

  it('tolerates a corrupt stored value', async () => {
    data.set('cart', 'not json at all');
    const store = await import('../../src/cart/cartStore.js');
    expect(store.getCart()).toEqual([]);
    store.updateCart((cart) => addToCart(cart, ginger).cart);
    expect(store.getCart()).toHaveLength(1);
  });

  it('tells subscribers when another tab changes the cart (the storage event)', async () => {
    const store = await import('../../src/cart/cartStore.js');
    const seen = vi.fn();
    const unsubscribe = store.subscribeToCart(seen);
    data.set('cart', serializeCart(addToCart([], yam).cart)); // written by another tab
    listeners.get('storage')!({ key: 'cart' });
    expect(seen).toHaveBeenCalledTimes(1);
    expect(store.getCart()).toHaveLength(1);
    listeners.get('storage')!({ key: 'something-else' });
    expect(seen).toHaveBeenCalledTimes(1);
    unsubscribe();
    expect(listeners.has('storage')).toBe(false);
  });

  it('returns the same array until the stored text changes (stable snapshots for React)', async () => {
    data.set('cart', serializeCart(addToCart([], yam).cart));
    const store = await import('../../src/cart/cartStore.js');
    expect(store.getCart()).toBe(store.getCart());
  });
});
