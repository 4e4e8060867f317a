// The cart belongs to the signed-in user (issue 12): the rule, and the store with a real Storage-like
// object under the keys the shell also reads ("cart", "cart_owner").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cartOwnerDecision } from '../../src/cart/cartOwner.js';

describe('whose cart it is', () => {
  it('keeps the user’s own cart, takes over one without an owner, clears someone else’s', () => {
    expect(cartOwnerDecision('user-a', 'user-a')).toBe('keep');
    expect(cartOwnerDecision(null, 'user-a')).toBe('adopt');
    expect(cartOwnerDecision('', 'user-a')).toBe('adopt');
    expect(cartOwnerDecision('user-b', 'user-a')).toBe('clear');
  });
});

class MemoryStorage {
  private readonly values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, String(value));
  removeItem = (key: string) => void this.values.delete(key);
}

describe('the stored cart and its owner', () => {
  const storage = new MemoryStorage();
  let store: typeof import('../../src/cart/cartStore.js');
  // The badge's store, from the same module instance the cart store loaded.
  let counterValue: (typeof import('@tuber/shell-contract'))['counterValue'];
  const yam = { product_id: 'yam', product_name: 'Yam', images: [], price: 2000, unit: 'heap' as const, farmer_id: 'f' };

  beforeAll(async () => {
    vi.stubGlobal('window', { localStorage: storage, addEventListener: () => undefined, removeEventListener: () => undefined });
    storage.setItem('cart', JSON.stringify([{ ...yam, quantity: 2, total: 4000 }]));
    vi.resetModules();
    store = await import('../../src/cart/cartStore.js');
    ({ counterValue } = await import('@tuber/shell-contract'));
  });
  afterAll(() => vi.unstubAllGlobals());

  it('sets the cart badge to the sum of the quantities as soon as the remote loads', () => {
    expect(counterValue('cart')).toBe(2);
  });

  it('adopts a cart stored before owners were recorded, and records the owner on every save', () => {
    store.claimCart('buyer-a');
    expect(storage.getItem('cart_owner')).toBe('buyer-a');
    expect(store.getCart()).toHaveLength(1);
    store.updateCart((cart) => cart.map((item) => ({ ...item, quantity: 5 })));
    expect(counterValue('cart')).toBe(5);
    expect(store.cartVisibleTo('buyer-a')).toBe(true);
  });

  it('does not show buyer A’s cart to buyer B, and empties it when the remote runs for B', () => {
    expect(store.cartVisibleTo('buyer-b')).toBe(false);
    expect(store.cartVisibleTo(null)).toBe(false); // the session not known yet
    store.claimCart('buyer-b');
    expect(store.getCart()).toEqual([]);
    expect(storage.getItem('cart')).toBe('[]');
    expect(storage.getItem('cart_owner')).toBe('buyer-b');
    expect(counterValue('cart')).toBe(0);
  });

  it('keeps B’s own cart when B comes back', () => {
    store.updateCart((cart) => [...cart, { ...yam, quantity: 1, total: 2000 }]);
    store.claimCart('buyer-b');
    expect(store.getCart().map((item) => item.product_id)).toEqual(['yam']);
    expect(counterValue('cart')).toBe(1);
  });
});
