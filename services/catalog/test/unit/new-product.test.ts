import { describe, expect, it } from 'vitest';
import type { NewProduct } from '@tuber/contracts';
import { checkNewProduct, checkSelling, lagosToday, sellingAfterChange, sellingTermsOf } from '../../src/domain/new-product.js';

const product: NewProduct = {
  product_name: 'Abuja yam',
  description: 'Big white yam tubers',
  price: 2500.5,
  kg: 10.25,
  tuber_type: 'yam',
  image_ids: ['i1', 'i2'],
  cultural: 'New yam festival',
};
const farmer = { tuber: ['yam', 'cassava'] };
const images = [
  { image_id: 'i1', farmer_id: 'f1' },
  { image_id: 'i2', farmer_id: 'f1' },
  { image_id: 'i3', farmer_id: 'f2' },
];

describe('posting a product', () => {
  it('accepts a valid product from an older client (kg, no unit) as sold per kg, and keeps the price in kobo', () => {
    expect(checkNewProduct(product, farmer, 'f1', images, '2026-11-24')).toEqual({
      priceKobo: 250_050,
      selling: { price_kobo: 250_050, unit: 'kg', unit_weight_kg: 1, quantity: 10.25, status: 'available', price_per_kg_kobo: 250_050 },
    });
  });
  it('rejects 1 or 6 images, or the same image twice, with "Please select between 2 to 5 images."', () => {
    for (const image_ids of [['i1'], ['a', 'b', 'c', 'd', 'e', 'f'], ['i1', 'i1']]) {
      expect(checkNewProduct({ ...product, image_ids }, farmer, 'f1', images)).toEqual({
        problem: { code: 'IMAGE_COUNT', message: 'Please select between 2 to 5 images.', params: { min: 2, max: 5 } },
      });
    }
  });
  it('rejects a 3-decimal price', () => {
    expect(checkNewProduct({ ...product, price: 10.005 }, farmer, 'f1', images)).toEqual({
      problem: { code: 'PRICE_INVALID', message: 'Price must be 0 or more, with at most 2 decimals.' },
    });
  });
  it('rejects a tuber type the farmer does not grow, naming the ones they do', () => {
    expect(checkNewProduct({ ...product, tuber_type: 'ginger' }, farmer, 'f1', images)).toEqual({
      problem: { code: 'TUBER_NOT_GROWN', message: 'Choose a tuber type you grow (yam, cassava).' },
    });
  });
  it("rejects another farmer's images and unknown images", () => {
    expect(checkNewProduct({ ...product, image_ids: ['i1', 'i3'] }, farmer, 'f1', images)).toHaveProperty('problem');
    expect(checkNewProduct({ ...product, image_ids: ['i1', 'nope'] }, farmer, 'f1', images)).toHaveProperty('problem');
  });
});

describe('selling units, stock and status (ADR 0030)', () => {
  const today = '2026-11-24';
  const heap = { price: 2000, unit: 'heap', unit_weight_kg: 4, quantity: 5, status: 'available' } as const;

  it('computes ₦ per kg in kobo from the price of one unit and its weight', () => {
    expect(checkSelling(heap, { today })).toEqual({
      price_kobo: 200_000,
      unit: 'heap',
      unit_weight_kg: 4,
      quantity: 5,
      status: 'available',
      price_per_kg_kobo: 50_000,
    });
    expect(checkSelling({ ...heap, unit_weight_kg: 3 }, { today })).toMatchObject({ price_per_kg_kobo: 66_667 });
  });

  it('stores stock 0 offered as available as sold out, and keeps sold out with stock', () => {
    expect(checkSelling({ ...heap, quantity: 0 }, { today })).toMatchObject({ status: 'sold_out' });
    expect(checkSelling({ ...heap, status: 'sold_out' }, { today })).toMatchObject({ status: 'sold_out', quantity: 5 });
  });

  it('judges a next-harvest date by the Lagos calendar day, and only when it is given now', () => {
    const harvest = { ...heap, status: 'next_harvest', next_harvest: '2026-11-23' } as const;
    expect(checkSelling(harvest, { today })).toEqual({
      problem: {
        code: 'NEXT_HARVEST_PAST',
        message: 'The next harvest date must be today or later (today is 2026-11-24 in Lagos).',
        params: { today: '2026-11-24' },
      },
    });
    expect(checkSelling(harvest, { today, checkDate: false })).toMatchObject({ status: 'next_harvest', next_harvest: '2026-11-23' });
    expect(checkSelling({ ...harvest, next_harvest: today }, { today })).toMatchObject({ next_harvest: today });
    // 23:30 UTC on the 23rd is already the 24th in Lagos (UTC+1).
    expect(lagosToday(new Date('2026-11-23T23:30:00Z'))).toBe('2026-11-24');
    expect(lagosToday(new Date('2026-11-23T22:30:00Z'))).toBe('2026-11-23');
  });

  it('reads an older client (kg, no unit) as sold per kg, and refuses kg beside quantity', () => {
    const old = { product_name: 'y', description: 'd', price: 1, kg: 3, tuber_type: 'yam', image_ids: ['a', 'b'], cultural: 'c' };
    expect(sellingTermsOf(old)).toMatchObject({ unit: 'kg', quantity: 3, status: 'available' });
    expect(sellingTermsOf({ ...old, quantity: 3 })).toHaveProperty('problem');
  });

  describe('an edit', () => {
    const stored = { price_kobo: 200_000, unit: 'heap', unit_weight_kg: 4, quantity: 5, status: 'available' };

    it('keeps the unit weight while the unit stays, and drops it when the unit changes', () => {
      expect(sellingAfterChange(stored, { price: 2500 })).toMatchObject({ unit: 'heap', unit_weight_kg: 4, price: 2500 });
      expect(sellingAfterChange(stored, { unit: 'bag_50kg' })).toMatchObject({ unit: 'bag_50kg', unit_weight_kg: undefined });
      expect(sellingAfterChange(stored, { unit: 'kg' })).toMatchObject({ unit: 'kg', unit_weight_kg: 1 });
    });

    it('drops a tuber size when the unit is no longer tuber, and on null', () => {
      const tuber = { ...stored, unit: 'tuber', tuber_size: 'large', unit_weight_kg: 2 };
      expect(sellingAfterChange(tuber, { price: 10 })).toMatchObject({ tuber_size: 'large' });
      expect(sellingAfterChange(tuber, { unit: 'heap', unit_weight_kg: 5 })).toMatchObject({ tuber_size: undefined });
      expect(sellingAfterChange(tuber, { tuber_size: null })).toMatchObject({ tuber_size: undefined });
    });

    it('makes a product that sold out at 0 available again when restocked, unless a status is sent', () => {
      const soldOut = { ...stored, quantity: 0, status: 'sold_out' };
      expect(sellingAfterChange(soldOut, { quantity: 3 })).toMatchObject({ status: 'available' });
      expect(sellingAfterChange(soldOut, { quantity: 3, status: 'sold_out' })).toMatchObject({ status: 'sold_out' });
      expect(sellingAfterChange({ ...stored, status: 'sold_out' }, { quantity: 3 })).toMatchObject({ status: 'sold_out' });
    });

    it('drops the next-harvest date when the status leaves next_harvest', () => {
      const harvest = { ...stored, status: 'next_harvest', next_harvest: '2026-12-01' };
      expect(sellingAfterChange(harvest, { price: 10 })).toMatchObject({ status: 'next_harvest', next_harvest: '2026-12-01' });
      expect(sellingAfterChange(harvest, { status: 'available' })).toMatchObject({ next_harvest: undefined });
    });
  });
});
