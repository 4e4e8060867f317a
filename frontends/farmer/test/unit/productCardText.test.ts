import { describe, expect, it } from 'vitest';
import { productCardText, type CardProduct } from '../../src/product-list/productCardText.js';

const now = new Date('2026-11-23T12:00:00Z');
const product = (overrides: Partial<CardProduct> = {}): CardProduct => ({
  description: 'one two three four five six seven eight nine ten eleven twelve',
  price: 2500.5,
  kg: 12.5,
  created_at: '2026-11-23T09:00:00Z',
  ...overrides,
});
const heap = product({ price: 2000, unit: 'heap', unit_weight_kg: 5, price_per_kg: 400, quantity: 12, kg: 60 });

describe('product card text on "All Product List"', () => {
  it('cuts the description to 10 words and says it was cut (View more)', () => {
    const text = productCardText(product(), now);
    expect(text.descriptionPreview).toBe('one two three four five six seven eight nine ten');
    expect(text.descriptionCut).toBe(true);
  });
  it('does not offer View more for 10 words or fewer', () => {
    expect(productCardText(product({ description: 'Fresh white yam' }), now).descriptionCut).toBe(false);
  });
  it('shows the price in NGN with exactly 2 decimals and its unit', () => {
    expect(productCardText(product(), now).price).toBe('₦2,500.50 per kg');
    expect(productCardText(product({ price: 7 }), now).price).toBe('₦7.00 per kg');
    expect(productCardText(product({ price: 0.1 }), now).price).toBe('₦0.10 per kg');
  });
  it('shows a heap’s price and the ₦ per kg it makes: "₦2,000.00 per heap · ₦400.00/kg"', () => {
    const text = productCardText(heap, now);
    expect([text.price, text.perKg]).toEqual(['₦2,000.00 per heap', '₦400.00/kg']);
  });
  it('gives no separate ₦ per kg for a product sold per kg', () => {
    expect(productCardText(product({ unit: 'kg', price_per_kg: 2500.5 }), now).perKg).toBeNull();
  });
  it('shows the stock in the unit', () => {
    expect(productCardText(heap, now).quantity).toBe('12 heaps');
    expect(productCardText(product({ kg: 0.25 }), now).quantity).toBe('0.25 kg');
  });
  it('shows the status: Available, Sold out, Next harvest from 12 Jan 2027', () => {
    expect(productCardText(heap, now).statusText).toBe('Available');
    expect(productCardText({ ...heap, status: 'sold_out' }, now).statusText).toBe('Sold out');
    expect(productCardText({ ...heap, status: 'next_harvest', next_harvest: '2027-01-12' }, now).statusText).toBe(
      'Next harvest from 12 Jan 2027',
    );
  });
  it('shows the created age in short form without "ago"', () => {
    expect(productCardText(product(), now).age).toBe('3 hrs');
    expect(productCardText(product({ created_at: '2026-11-23T11:55:00Z' }), now).age).toBe('5 min');
  });
});
