// How a product's price, unit, stock and status read on the card and the product page (issue 11).
import { describe, expect, it } from 'vitest';
import { availability, calendarDayText, pricePerKgText, productPriceText, quantityText } from '../../src/catalog/productText.js';

describe('price with its unit', () => {
  it('reads "₦2,000.00 per heap" and shows the computed ₦ per kg beside it', () => {
    const heap = { price: 2000, unit: 'heap', price_per_kg: 266.67 } as const;
    expect(productPriceText(heap)).toBe('₦2,000.00 per heap');
    expect(pricePerKgText(heap)).toBe('₦266.67 per kg');
  });

  it('does not repeat the price per kg for a product sold per kg', () => {
    expect(productPriceText({ price: 1234.5, unit: 'kg' })).toBe('₦1,234.50 per kg');
    expect(pricePerKgText({ unit: 'kg', price_per_kg: 1234.5 })).toBeNull();
  });

  it('names the size of a tuber sold one by one, and the bag and the lot', () => {
    expect(productPriceText({ price: 1500, unit: 'tuber', tuber_size: 'large' })).toBe('₦1,500.00 per large tuber');
    expect(productPriceText({ price: 45000, unit: 'bag_50kg' })).toBe('₦45,000.00 per 50 kg bag');
    expect(productPriceText({ price: 90000, unit: 'lot_100' })).toBe('₦90,000.00 per lot of 100 tubers');
  });

  it('treats a product from before units existed as sold per kg', () => {
    expect(productPriceText({ price: 800 })).toBe('₦800.00 per kg');
  });
});

describe('stock and status', () => {
  it('gives the quantity in the unit instead of "Number of KG"', () => {
    expect(availability({ status: 'available', quantity: 12, unit: 'heap', kg: 60 })).toEqual({
      kind: 'available',
      text: 'Available: 12 heaps',
    });
    expect(availability({ status: 'available', quantity: 1, unit: 'heap', kg: 5 }).text).toBe('Available: 1 heap');
    expect(availability({ status: 'available', quantity: 12.5, unit: 'kg', kg: 12.5 }).text).toBe('Available: 12.5 kg');
    expect(quantityText(2, 'bag_50kg')).toBe('2 bags of 50 kg');
    expect(quantityText(1500, 'tuber')).toBe('1,500 tubers');
  });

  it('says "Sold out" for a sold-out product', () => {
    expect(availability({ status: 'sold_out', quantity: 0, unit: 'heap', kg: 0 })).toEqual({ kind: 'sold-out', text: 'Sold out' });
  });

  it('says "Next harvest from 12 Jan 2027" for a product coming with the next harvest', () => {
    expect(availability({ status: 'next_harvest', next_harvest: '2027-01-12', quantity: 0, unit: 'kg', kg: 0 })).toEqual({
      kind: 'next-harvest',
      text: 'Next harvest from 12 Jan 2027',
    });
  });

  it('writes a calendar day the same in every time zone', () => {
    expect(calendarDayText('2026-12-01')).toBe('1 Dec 2026');
    expect(calendarDayText('2027-09-30')).toBe('30 Sep 2027');
  });

  it('falls back to the kg for an older product with no quantity', () => {
    expect(availability({ kg: 7 }).text).toBe('Available: 7 kg');
  });
});
