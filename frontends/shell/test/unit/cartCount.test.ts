import { describe, expect, it } from 'vitest';
import { cartItemCount, forgetCart, storedCartCount } from '../../src/counters/cartCount.js';

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const line = (product_id: string, quantity: number) => ({
  product_id,
  product_name: 'Yam',
  images: [],
  price: 400,
  unit: 'kg',
  farmer_id: 'f1',
  quantity,
  total: 400 * quantity,
});

describe('the cart badge count (issue 12)', () => {
  it('counts the items of the stored cart as its "Total items" does: the sum of the quantities', () => {
    expect(cartItemCount(JSON.stringify([line('p1', 3), line('p2', 2)]))).toBe(5);
    expect(cartItemCount(JSON.stringify([line('p1', 1), { ...line('p2', 4), quantity: 'four' }, { ...line('p3', 2), quantity: -2 }]))).toBe(
      1,
    );
    expect(cartItemCount('[]')).toBe(0);
  });

  it('counts 0 for no cart or one it cannot read', () => {
    for (const text of [null, '', 'not json', '{"product_id":"p1"}', '[1, "x", null]']) expect(cartItemCount(text), String(text)).toBe(0);
  });

  it("counts another account's cart left on a shared phone as 0 (cart_owner, raw or as JSON)", () => {
    const storage = new MemoryStorage();
    storage.setItem('cart', JSON.stringify([line('p1', 2)]));
    expect(storedCartCount(storage, 'u1')).toBe(2); // no owner recorded yet
    storage.setItem('cart_owner', 'u1');
    expect(storedCartCount(storage, 'u1')).toBe(2);
    expect(storedCartCount(storage, 'u2')).toBe(0);
    storage.setItem('cart_owner', JSON.stringify('u2'));
    expect(storedCartCount(storage, 'u2')).toBe(2);
    expect(storedCartCount(storage, 'u1')).toBe(0);
    expect(storedCartCount(null, 'u1')).toBe(0);
  });

  it('forgets the cart and its owner at logout, and leaves the rest of the storage', () => {
    const storage = new MemoryStorage();
    storage.setItem('cart', '[]');
    storage.setItem('cart_owner', 'u1');
    storage.setItem('tuber.flash', 'x');
    forgetCart(storage);
    expect([...storage.items.keys()]).toEqual(['tuber.flash']);
    expect(() => forgetCart(null)).not.toThrow();
  });
});
