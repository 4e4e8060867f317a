// A cart line against the product as it is now (issue 11): price changed, sold out, next harvest, gone.
import { describe, expect, it } from 'vitest';
import { acceptPrice, addToCart, parseCart, type CartItem } from '../../src/cart/cart.js';
import { checkLine, mapWithLimit, priceChangeText, summarizeChecked, type LineCheck } from '../../src/cart/cartCheck.js';
import type { Product } from '../../src/catalog/types.js';

const product = (change: Partial<Product> = {}): Product => ({
  product_id: 'p-yam',
  farmer_id: 'f-1',
  product_name: 'White yam',
  description: 'Firm white yam',
  price: 1234.5,
  unit: 'kg',
  unit_weight_kg: 1,
  price_per_kg: 1234.5,
  quantity: 10,
  kg: 10,
  status: 'available',
  tuber_type: 'yam',
  images: ['yam.jpg'],
  image_cards: [],
  image_thumbs: [],
  location: 'Ibadan',
  business_name: 'Farm',
  cultural: 'King of crops',
  created_at: '2026-11-23T10:00:00.000Z',
  revision: 1,
  ...change,
});

const lineOf = (p: Product, quantity = 2): CartItem => {
  let cart = addToCart([], p).cart;
  for (let i = 1; i < quantity; i++) cart = addToCart(cart, p).cart;
  return cart[0]!;
};

describe('a cart line checked against the catalog', () => {
  it('carries the price and unit it was added at', () => {
    expect(lineOf(product({ price: 2000, unit: 'heap' }), 1)).toMatchObject({ price: 2000, unit: 'heap', total: 2000 });
  });

  it('is fine when nothing changed', () => {
    expect(checkLine(lineOf(product()), { kind: 'found', product: product({ revision: 3, description: 'edited' }) })).toEqual({
      state: 'ok',
    });
  });

  it('says "Price changed: was ₦X, now ₦Y" and counts the new price in the totals', () => {
    const item = lineOf(product(), 2);
    const check = checkLine(item, { kind: 'found', product: product({ price: 1500 }) });
    expect(check).toEqual({ state: 'price-changed', was: { price: 1234.5, unit: 'kg' }, now: { price: 1500, unit: 'kg' } });
    expect(priceChangeText(check as Extract<LineCheck, { state: 'price-changed' }>)).toBe(
      'Price changed: was ₦1,234.50, now ₦1,500.00 per kg',
    );
    expect(summarizeChecked([item], new Map([[item.product_id, check]]))).toEqual({
      totalItems: 2,
      totalKobo: 300000,
      leftOut: 0,
      checking: 0,
    });
  });

  it('names both units when the farmer changed the unit', () => {
    const item = lineOf(product(), 1);
    const check = checkLine(item, { kind: 'found', product: product({ price: 5000, unit: 'heap' }) });
    expect(priceChangeText(check as Extract<LineCheck, { state: 'price-changed' }>)).toBe(
      'Price changed: was ₦1,234.50 per kg, now ₦5,000.00 per heap',
    );
  });

  it('takes the new price once the buyer accepts it, and is fine again', () => {
    const now = product({ price: 1500 });
    const [accepted] = acceptPrice([lineOf(product(), 2)], 'p-yam', now);
    expect(accepted).toMatchObject({ price: 1500, unit: 'kg', quantity: 2, total: 3000 });
    expect(checkLine(accepted!, { kind: 'found', product: now })).toEqual({ state: 'ok' });
  });

  it('keeps a sold-out line but leaves it out of the totals', () => {
    const yam = lineOf(product(), 2);
    const ginger = lineOf(product({ product_id: 'p-ginger', price: 300 }), 1);
    const checks = new Map<string, LineCheck>([
      [yam.product_id, checkLine(yam, { kind: 'found', product: product({ status: 'sold_out', quantity: 0, price: 9999 }) })],
      [ginger.product_id, checkLine(ginger, { kind: 'found', product: product({ product_id: 'p-ginger', price: 300 }) })],
    ]);
    expect(checks.get('p-yam')).toEqual({ state: 'sold-out' });
    expect(summarizeChecked([yam, ginger], checks)).toEqual({ totalItems: 1, totalKobo: 30000, leftOut: 1, checking: 0 });
  });

  it('tells a product coming with the next harvest apart, also left out of the totals', () => {
    const item = lineOf(product());
    const check = checkLine(item, { kind: 'found', product: product({ status: 'next_harvest', next_harvest: '2027-01-12' }) });
    expect(check).toEqual({ state: 'next-harvest', text: 'Next harvest from 12 Jan 2027', next_harvest: '2027-01-12' });
    expect(summarizeChecked([item], new Map([[item.product_id, check]])).totalKobo).toBe(0);
  });

  it('says "No longer available" for a product the catalog answers 404 for', () => {
    const item = lineOf(product());
    const check = checkLine(item, { kind: 'gone' });
    expect(check).toEqual({ state: 'gone' });
    expect(summarizeChecked([item], new Map([[item.product_id, check]]))).toMatchObject({ totalItems: 0, leftOut: 1 });
  });

  it('keeps the price it was added at while checking, or when the check fails', () => {
    const item = lineOf(product(), 2);
    expect(checkLine(item, undefined)).toEqual({ state: 'checking' });
    expect(checkLine(item, { kind: 'failed', message: 'offline' })).toEqual({ state: 'unchecked', message: 'offline' });
    expect(summarizeChecked([item], new Map())).toEqual({ totalItems: 2, totalKobo: 246900, leftOut: 0, checking: 1 });
  });

  it('reads a cart stored before units existed as per kg, so an unchanged product is not flagged', () => {
    const stored = JSON.stringify([
      { product_id: 'p-yam', product_name: 'White yam', images: [], price: 1234.5, farmer_id: 'f-1', quantity: 1, total: 1234.5 },
    ]);
    const [old] = parseCart(stored);
    expect(old).toMatchObject({ unit: 'kg' });
    expect(checkLine(old!, { kind: 'found', product: product() })).toEqual({ state: 'ok' });
  });
});

describe('checking a few products at a time', () => {
  it('never has more than the limit in flight and keeps the order of the answers', async () => {
    let inFlight = 0;
    let most = 0;
    const answers = await mapWithLimit([1, 2, 3, 4, 5, 6, 7, 8, 9], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10 - n));
      inFlight -= 1;
      return n * 10;
    });
    expect(answers).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(most).toBe(3);
  });
});
