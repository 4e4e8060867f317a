// How a product's price, unit, stock and status read in both remotes (issue 11, ADR 0030).
import { describe, expect, it } from 'vitest';
import * as contracts from '@tuber/contracts';
import {
  PRODUCT_STATUSES,
  SELLING_UNITS,
  SELLING_UNIT_LABELS,
  STATUS_LABELS,
  TUBER_SIZES,
  TUBER_SIZE_LABELS,
  availability,
  calendarDayText,
  perKgText,
  pricePerKg,
  pricePerKgText,
  priceWithUnit,
  productPriceText,
  quantityText,
  statusOf,
  statusText,
  todayCalendarDay,
  unitOf,
  unitPlural,
} from '../../src/format/product.js';

describe('the ui copy of the contract’s lists (the browser bundles import contracts for types only)', () => {
  it('has the same selling units, labels, sizes and statuses as @tuber/contracts', () => {
    expect(SELLING_UNITS).toEqual(contracts.SELLING_UNITS);
    expect(SELLING_UNIT_LABELS).toEqual(contracts.SELLING_UNIT_LABELS);
    expect(TUBER_SIZES).toEqual(contracts.TUBER_SIZES);
    expect(PRODUCT_STATUSES).toEqual(contracts.PRODUCT_STATUSES);
  });
  it('has a label for every size and status', () => {
    expect(Object.keys(TUBER_SIZE_LABELS)).toEqual([...contracts.TUBER_SIZES]);
    expect(Object.keys(STATUS_LABELS)).toEqual([...contracts.PRODUCT_STATUSES]);
  });
});

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
  it('names the size of a tuber sold one by one, and the bag and the lot in full', () => {
    expect(priceWithUnit(1500, 'tuber', 'large')).toBe('₦1,500.00 per large tuber');
    expect(priceWithUnit(1500, 'tuber')).toBe('₦1,500.00 per tuber');
    expect(priceWithUnit(30000, 'bag_50kg')).toBe('₦30,000.00 per 50 kg bag');
    expect(priceWithUnit(45000.5, 'lot_100')).toBe('₦45,000.50 per lot of 100 tubers');
  });
  it('treats a product from before units existed as sold per kg', () => {
    expect(productPriceText({ price: 800 })).toBe('₦800.00 per kg');
  });
  it('gives ₦ per kg on the farmer’s list as "₦400.00/kg"', () => {
    expect(perKgText(400)).toBe('₦400.00/kg');
  });
});

describe('₦ per kg as the catalog computes it (price / average weight, to the kobo)', () => {
  it.each([
    [2000, 5, 400],
    [1000, 3, 333.33],
    [2000, 3, 666.67],
    [30000, 50, 600],
    [0.01, 3, 0],
    [900, 1, 900],
  ])('₦%d for %d kg → ₦%d per kg', (price, weight, perKg) => {
    expect(pricePerKg(price, weight)).toBe(perKg);
  });
  it('is unknown without a weight', () => {
    expect(pricePerKg(2000, 0)).toBeNull();
    expect(pricePerKg(2000, Number.NaN)).toBeNull();
  });
});

describe('stock in the selling unit (instead of "Number of KG")', () => {
  it.each([
    [12, 'heap', '12 heaps'],
    [1, 'heap', '1 heap'],
    [12.5, 'kg', '12.5 kg'],
    [1500, 'tuber', '1,500 tubers'],
    [2, 'bag_50kg', '2 bags of 50 kg'],
    [1, 'lot_100', '1 lot of 100 tubers'],
    [0, 'heap', '0 heaps'],
  ] as const)('%d %s → "%s"', (quantity, unit, text) => {
    expect(quantityText(quantity, unit)).toBe(text);
  });
  it('names the bag "50 kg bag" in the farmer’s short form', () => {
    expect(quantityText(3, 'bag_50kg', 'short')).toBe('3 50 kg bags');
    expect(quantityText(3, 'heap', 'short')).toBe('3 heaps');
    expect(unitPlural('bag_50kg', 'short')).toBe('50 kg bags');
    expect(unitPlural('heap')).toBe('heaps');
  });
  it('says "Available: 12 heaps" on the buyer’s card', () => {
    expect(availability({ status: 'available', quantity: 12, unit: 'heap', kg: 60 })).toEqual({
      kind: 'available',
      text: 'Available: 12 heaps',
    });
    expect(availability({ status: 'available', quantity: 1, unit: 'heap', kg: 5 }).text).toBe('Available: 1 heap');
    expect(availability({ status: 'available', quantity: 12.5, unit: 'kg', kg: 12.5 }).text).toBe('Available: 12.5 kg');
  });
  it('falls back to the kg for an older product with no quantity', () => {
    expect(availability({ kg: 7 }).text).toBe('Available: 7 kg');
  });
});

describe('status', () => {
  it('says "Sold out" and "Next harvest from 12 Jan 2027" on the buyer’s card', () => {
    expect(availability({ status: 'sold_out', quantity: 0, unit: 'heap', kg: 0 })).toEqual({ kind: 'sold-out', text: 'Sold out' });
    expect(availability({ status: 'next_harvest', next_harvest: '2027-01-12', quantity: 0, unit: 'kg', kg: 0 })).toEqual({
      kind: 'next-harvest',
      text: 'Next harvest from 12 Jan 2027',
    });
  });
  it('reads "Available", "Sold out", "Next harvest from 12 Jan 2027" on the farmer’s list', () => {
    expect(statusText('sold_out')).toBe('Sold out');
    expect(statusText('next_harvest', '2027-01-12')).toBe('Next harvest from 12 Jan 2027');
    expect(statusText('available')).toBe('Available');
  });
  it('writes a calendar day the same in every time zone', () => {
    expect(calendarDayText('2026-12-01')).toBe('1 Dec 2026');
    expect(calendarDayText('2027-09-30')).toBe('30 Sep 2027');
    expect(calendarDayText('not a day')).toBe('not a day');
  });
  it('treats a product from before units as sold per kg and available', () => {
    expect(unitOf({})).toBe('kg');
    expect(unitOf({ unit: 'sack' })).toBe('kg');
    expect(statusOf({})).toBe('available');
  });
  it('gives today in the farmer’s own calendar', () => {
    expect(todayCalendarDay(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});
