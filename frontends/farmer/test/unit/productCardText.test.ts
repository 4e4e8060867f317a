import { describe, expect, it } from 'vitest';
import { productCardText } from '../../src/product-list/productCardText.js';

const now = new Date('2026-11-23T12:00:00Z');
const product = (overrides: Partial<{ description: string; price: number; kg: number; created_at: string }> = {}) => ({
  description: 'one two three four five six seven eight nine ten eleven twelve',
  price: 2500.5,
  kg: 12.5,
  created_at: '2026-11-23T09:00:00Z',
  ...overrides,
});

describe('product card text on "All Product List"', () => {
  it('cuts the description to 10 words and says it was cut (View more)', () => {
    const text = productCardText(product(), now);
    expect(text.descriptionPreview).toBe('one two three four five six seven eight nine ten');
    expect(text.descriptionCut).toBe(true);
  });
  it('does not offer View more for 10 words or fewer', () => {
    expect(productCardText(product({ description: 'Fresh white yam' }), now).descriptionCut).toBe(false);
  });
  it('shows the price in NGN with exactly 2 decimals', () => {
    expect(productCardText(product(), now).price).toBe('₦2,500.50');
    expect(productCardText(product({ price: 7 }), now).price).toBe('₦7.00');
    expect(productCardText(product({ price: 0.1 }), now).price).toBe('₦0.10');
  });
  it('shows the created age in short form without "ago"', () => {
    expect(productCardText(product(), now).age).toBe('3 hrs');
    expect(productCardText(product({ created_at: '2026-11-23T11:55:00Z' }), now).age).toBe('5 min');
  });
  it('shows kg as posted', () => {
    expect(productCardText(product({ kg: 0.25 }), now).kg).toBe('0.25');
  });
});
