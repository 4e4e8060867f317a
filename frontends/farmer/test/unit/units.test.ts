import { describe, expect, it } from 'vitest';
import * as contracts from '@tuber/contracts';
import {
  PRODUCT_STATUSES,
  SELLING_UNITS,
  SELLING_UNIT_LABELS,
  TUBER_SIZES,
  calendarDayText,
  perKgText,
  pricePerKg,
  priceWithUnit,
  quantityText,
  statusOf,
  statusText,
  todayCalendarDay,
  unitOf,
} from '../../src/shared/units.js';

describe('the remote’s copy of the contract’s units (it imports contracts for types only)', () => {
  it('has the same selling units, labels, sizes and statuses as @tuber/contracts', () => {
    expect(SELLING_UNITS).toEqual(contracts.SELLING_UNITS);
    expect(SELLING_UNIT_LABELS).toEqual(contracts.SELLING_UNIT_LABELS);
    expect(TUBER_SIZES).toEqual(contracts.TUBER_SIZES);
    expect(PRODUCT_STATUSES).toEqual(contracts.PRODUCT_STATUSES);
  });
});

describe('price with its unit', () => {
  it('reads "₦2,000.00 per heap"', () => {
    expect(priceWithUnit(2000, 'heap')).toBe('₦2,000.00 per heap');
  });
  it('names the size of a tuber sold one by one', () => {
    expect(priceWithUnit(1500, 'tuber', 'large')).toBe('₦1,500.00 per large tuber');
    expect(priceWithUnit(1500, 'tuber')).toBe('₦1,500.00 per tuber');
  });
  it('says the bag and the lot in full', () => {
    expect(priceWithUnit(30000, 'bag_50kg')).toBe('₦30,000.00 per 50 kg bag');
    expect(priceWithUnit(45000.5, 'lot_100')).toBe('₦45,000.50 per lot of 100 tubers');
  });
  it('gives ₦ per kg as "₦400.00/kg"', () => {
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

describe('stock in the selling unit', () => {
  it.each([
    [12, 'heap', '12 heaps'],
    [1, 'heap', '1 heap'],
    [12.5, 'kg', '12.5 kg'],
    [1500, 'tuber', '1,500 tubers'],
    [3, 'bag_50kg', '3 50 kg bags'],
    [1, 'lot_100', '1 lot of 100 tubers'],
    [0, 'heap', '0 heaps'],
  ] as const)('%d %s → "%s"', (quantity, unit, text) => {
    expect(quantityText(quantity, unit)).toBe(text);
  });
});

describe('status', () => {
  it('reads "Sold out" and "Next harvest from 12 Jan 2027"', () => {
    expect(statusText('sold_out')).toBe('Sold out');
    expect(statusText('next_harvest', '2027-01-12')).toBe('Next harvest from 12 Jan 2027');
    expect(statusText('available')).toBe('Available');
  });
  it('shows the calendar day as given, whatever the time zone', () => {
    expect(calendarDayText('2026-12-31')).toBe('31 Dec 2026');
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
