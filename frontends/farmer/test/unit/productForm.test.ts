import { describe, expect, it } from 'vitest';
import type { Nutrition, Product } from '@tuber/contracts';
import {
  becomesSoldOut,
  checkProductForm,
  emptyProductForm,
  formFromProduct,
  priceLabel,
  pricePerKgText,
  quantityLabel,
  toNewProduct,
  toProductChange,
  twoDecimals,
  unitWeightLabel,
  type ProductFormValues,
} from '../../src/add-product/productForm.js';

const filled: ProductFormValues = {
  ...emptyProductForm,
  productName: '  White yam ',
  description: 'Freshly harvested white yam tubers from our farm near the river',
  price: '2500.50',
  quantity: '12.5',
  cultural: 'Central to the New Yam festival',
  tuberType: 'yam',
};

const heap: ProductFormValues = { ...filled, price: '2000', unit: 'heap', unitWeightKg: '5', quantity: '12' };

const yam: Nutrition = {
  serving_weight_grams: 100,
  serving_qty: 1,
  calories: 118,
  dietary_fiber: 4.1,
  protein: 1.53,
  saturated_fat: 0.037,
  sugars: 0.5,
  potassium: 816,
  sodium: 9,
  total_fat: 0.17,
};

const today = '2026-11-23';

describe('form → POST /api/catalog/products', () => {
  it('maps every field of a product sold per kg, image_ids in the order shown', () => {
    expect(toNewProduct(filled, ['img-2', 'img-1'], yam)).toEqual({
      product_name: 'White yam',
      description: 'Freshly harvested white yam tubers from our farm near the river',
      price: 2500.5,
      unit: 'kg',
      quantity: 12.5,
      status: 'available',
      tuber_type: 'yam',
      image_ids: ['img-2', 'img-1'],
      cultural: 'Central to the New Yam festival',
      nutrition: yam,
    });
  });
  it('sends the average weight of a heap, and no weight for kg (the catalog keeps 1)', () => {
    expect(toNewProduct(heap, ['a', 'b'], null)).toMatchObject({ unit: 'heap', unit_weight_kg: 5, price: 2000, quantity: 12 });
    expect(toNewProduct(filled, ['a', 'b'], null)).not.toHaveProperty('unit_weight_kg');
  });
  it('sends the tuber size only with unit tuber', () => {
    expect(toNewProduct({ ...heap, unit: 'tuber', tuberSize: 'large', unitWeightKg: '2.5' }, ['a', 'b'], null)).toMatchObject({
      unit: 'tuber',
      tuber_size: 'large',
      unit_weight_kg: 2.5,
    });
    expect(toNewProduct({ ...heap, tuberSize: 'large' }, ['a', 'b'], null)).not.toHaveProperty('tuber_size');
    expect(toNewProduct({ ...heap, unit: 'tuber', tuberSize: '' }, ['a', 'b'], null)).not.toHaveProperty('tuber_size');
  });
  it('sends the next harvest date only with that status', () => {
    expect(toNewProduct({ ...filled, status: 'next_harvest', nextHarvest: '2027-01-12' }, ['a', 'b'], null)).toMatchObject({
      status: 'next_harvest',
      next_harvest: '2027-01-12',
    });
    expect(toNewProduct({ ...filled, status: 'sold_out', nextHarvest: '2027-01-12' }, ['a', 'b'], null)).not.toHaveProperty('next_harvest');
  });
  it('sends health benefits only when written, trimmed', () => {
    expect(toNewProduct({ ...filled, health: '   ' }, ['a', 'b'], null)).not.toHaveProperty('health');
    expect(toNewProduct({ ...filled, health: ' Rich in potassium \n' }, ['a', 'b'], null).health).toBe('Rich in potassium');
  });
  it('sends only fields the catalog knows (it rejects unknown ones), and no kg: the stock is the quantity', () => {
    const keys = Object.keys(toNewProduct({ ...heap, health: 'x', status: 'next_harvest', nextHarvest: '2027-01-12' }, ['a', 'b'], yam));
    expect(keys.sort()).toEqual(
      [
        'cultural',
        'description',
        'health',
        'image_ids',
        'next_harvest',
        'nutrition',
        'price',
        'product_name',
        'quantity',
        'status',
        'tuber_type',
        'unit',
        'unit_weight_kg',
      ].sort(),
    );
  });
  it('copies the image ids rather than sharing the array', () => {
    const ids = ['a', 'b'];
    const body = toNewProduct(filled, ids, null);
    ids.push('c');
    expect(body.image_ids).toEqual(['a', 'b']);
  });
});

describe('the form’s checks mirror the catalog’s', () => {
  it('passes a complete product sold per kg and one sold per heap', () => {
    expect(checkProductForm(filled, { today })).toEqual({});
    expect(checkProductForm(heap, { today })).toEqual({});
  });
  it('asks for every required field of an empty form', () => {
    expect(Object.keys(checkProductForm(emptyProductForm, { today })).sort()).toEqual(
      ['cultural', 'description', 'price', 'productName', 'quantity', 'tuberType'].sort(),
    );
  });
  it('requires the average weight unless the product is sold per kg', () => {
    expect(checkProductForm({ ...heap, unitWeightKg: '' }, { today }).unitWeightKg).toBe('Enter the average weight.');
    expect(checkProductForm({ ...heap, unitWeightKg: '0' }, { today }).unitWeightKg).toBe('The average weight must be at least 0.01 kg.');
    expect(checkProductForm({ ...heap, unitWeightKg: '5001' }, { today }).unitWeightKg).toBe('The average weight can be at most 5,000 kg.');
    expect(checkProductForm({ ...filled, unitWeightKg: '' }, { today })).toEqual({});
  });
  it('names the unit in the price’s problem', () => {
    expect(checkProductForm({ ...heap, price: '' }, { today }).price).toBe('Enter the price per heap.');
    expect(checkProductForm({ ...heap, price: '100000001' }, { today }).price).toBe('The price per heap can be at most 100,000,000.');
  });
  it('refuses a stock above 1,000,000 and text that is not a number', () => {
    expect(checkProductForm({ ...heap, quantity: '1000001' }, { today }).quantity).toBe('The quantity available can be at most 1,000,000.');
    expect(checkProductForm({ ...heap, quantity: 'twelve' }, { today }).quantity).toBe('The quantity available must be a number.');
  });
  it('requires a next harvest date with that status, today or later', () => {
    const next = { ...heap, status: 'next_harvest' as const };
    expect(checkProductForm(next, { today }).nextHarvest).toBe('Choose the date of the next harvest.');
    expect(checkProductForm({ ...next, nextHarvest: '2026-11-22' }, { today }).nextHarvest).toBe('The next harvest cannot be in the past.');
    expect(checkProductForm({ ...next, nextHarvest: today }, { today })).toEqual({});
  });
  it('does not hold an edit back for a next harvest date the product already had', () => {
    const next = { ...heap, status: 'next_harvest' as const, nextHarvest: '2026-11-01' };
    expect(checkProductForm(next, { today, original: { next_harvest: '2026-11-01' } })).toEqual({});
  });
  it('does not ask an edit for the tuber type (it stays as posted)', () => {
    expect(checkProductForm({ ...heap, tuberType: '' }, { today, original: {} })).toEqual({});
  });
  it('warns that no stock while available will show as sold out', () => {
    expect(becomesSoldOut({ status: 'available', quantity: '0' })).toBe(true);
    expect(becomesSoldOut({ status: 'available', quantity: '0.5' })).toBe(false);
    expect(becomesSoldOut({ status: 'sold_out', quantity: '0' })).toBe(false);
  });
});

describe('labels and the live ₦ per kg', () => {
  it('labels the fields in the unit', () => {
    expect(quantityLabel('kg')).toBe('Quantity available (kg)');
    expect(quantityLabel('heap')).toBe('Quantity available (heaps)');
    expect(priceLabel('heap')).toBe('Price per heap (₦)');
    expect(unitWeightLabel('heap')).toBe('Average weight per heap (kg)');
  });
  it('shows "₦400.00 per kg" for ₦2,000 a heap of 5 kg', () => {
    expect(pricePerKgText(heap)).toBe('₦400.00 per kg');
  });
  it('shows the price itself for a product sold per kg', () => {
    expect(pricePerKgText(filled)).toBe('₦2,500.50 per kg');
  });
  it('shows nothing until price and weight are numbers', () => {
    expect(pricePerKgText({ ...heap, unitWeightKg: '' })).toBeNull();
    expect(pricePerKgText({ ...heap, unitWeightKg: '0' })).toBeNull();
    expect(pricePerKgText({ ...heap, price: 'abc' })).toBeNull();
  });
});

const posted: Product = {
  product_id: 'p-1',
  farmer_id: 'f-1',
  product_name: 'White yam',
  description: 'Freshly harvested',
  price: 2000,
  unit: 'heap',
  unit_weight_kg: 5,
  price_per_kg: 400,
  quantity: 12,
  kg: 60,
  status: 'available',
  tuber_type: 'yam',
  images: ['/files/1.jpg', '/files/2.jpg', '/files/3.jpg'],
  image_cards: ['/files/1-card.webp', '/files/2-card.webp', '/files/3-card.webp'],
  image_thumbs: ['/files/1-thumb.webp', '/files/2-thumb.webp', '/files/3-thumb.webp'],
  image_ids: ['i1', 'i2', 'i3'],
  location: 'Ibadan',
  business_name: 'Ada Farms',
  cultural: 'New Yam festival',
  health: 'Potassium',
  created_at: '2026-11-23T10:00:00.000Z',
  revision: 3,
};

describe('edit: the form filled from a posted product', () => {
  it('shows price, unit, weight, stock and status as posted', () => {
    expect(formFromProduct(posted)).toEqual({
      productName: 'White yam',
      description: 'Freshly harvested',
      price: '2000',
      unit: 'heap',
      tuberSize: '',
      unitWeightKg: '5',
      quantity: '12',
      status: 'available',
      nextHarvest: '',
      cultural: 'New Yam festival',
      health: 'Potassium',
      tuberType: 'yam',
    });
  });
  it('reads a product from before units as sold per kg with its kg as the stock', () => {
    const old = {
      ...posted,
      unit: undefined,
      unit_weight_kg: undefined,
      quantity: undefined,
      status: undefined,
      kg: 12.5,
    } as unknown as Product;
    expect(formFromProduct(old)).toMatchObject({ unit: 'kg', unitWeightKg: '', quantity: '12.5', status: 'available' });
  });
});

describe('edit → PATCH /api/catalog/products/:id with only what changed, plus the revision', () => {
  const form = formFromProduct(posted);
  const ids = posted.image_ids!;

  it('sends nothing when nothing changed', () => {
    expect(toProductChange(posted, form, ids)).toBeNull();
    expect(toProductChange(posted, { ...form, productName: ' White yam ' }, ids)).toBeNull();
  });
  it('sends a new price alone, with the revision edited', () => {
    expect(toProductChange(posted, { ...form, price: '2500' }, ids)).toEqual({ price: 2500, revision: 3 });
  });
  it('marks it sold out', () => {
    expect(toProductChange(posted, { ...form, status: 'sold_out' }, ids)).toEqual({ status: 'sold_out', revision: 3 });
  });
  it('sets a next harvest date, and clears it when the status moves on', () => {
    expect(toProductChange(posted, { ...form, status: 'next_harvest', nextHarvest: '2027-01-12' }, ids)).toEqual({
      status: 'next_harvest',
      next_harvest: '2027-01-12',
      revision: 3,
    });
    const waiting = { ...posted, status: 'next_harvest' as const, next_harvest: '2027-01-12' };
    expect(toProductChange(waiting, { ...formFromProduct(waiting), status: 'available' }, ids)).toEqual({
      status: 'available',
      next_harvest: null,
      revision: 3,
    });
  });
  it('sends a changed unit with its weight, and clears the tuber size when it is no longer sold per tuber', () => {
    expect(toProductChange(posted, { ...form, unit: 'bag_50kg', unitWeightKg: '50' }, ids)).toEqual({
      unit: 'bag_50kg',
      unit_weight_kg: 50,
      revision: 3,
    });
    const tuber = { ...posted, unit: 'tuber' as const, tuber_size: 'large' as const, unit_weight_kg: 2 };
    expect(toProductChange(tuber, { ...formFromProduct(tuber), unit: 'heap', unitWeightKg: '6' }, ids)).toEqual({
      unit: 'heap',
      tuber_size: null,
      unit_weight_kg: 6,
      revision: 3,
    });
    expect(toProductChange(tuber, { ...formFromProduct(tuber), tuberSize: 'small' }, ids)).toEqual({ tuber_size: 'small', revision: 3 });
  });
  it('sends the same weight again when the unit changes (it is now the weight of another unit)', () => {
    expect(toProductChange(posted, { ...form, unit: 'tuber' }, ids)).toEqual({ unit: 'tuber', unit_weight_kg: 5, revision: 3 });
  });
  it('sends the photos when one was removed, moved or added, in the order shown', () => {
    expect(toProductChange(posted, form, ['i3', 'i1', 'i2'])).toEqual({ image_ids: ['i3', 'i1', 'i2'], revision: 3 });
    expect(toProductChange(posted, form, ['i1', 'i2'])).toEqual({ image_ids: ['i1', 'i2'], revision: 3 });
    expect(toProductChange(posted, form, ['i1', 'i2', 'i3', 'new'])).toEqual({ image_ids: ['i1', 'i2', 'i3', 'new'], revision: 3 });
  });
  it('leaves the photos out when they cannot be changed here', () => {
    expect(toProductChange(posted, form, null)).toBeNull();
  });
  it('clears health benefits with an empty text, and trims the others', () => {
    expect(toProductChange(posted, { ...form, health: ' ', description: ' Dug this morning ' }, ids)).toEqual({
      description: 'Dug this morning',
      health: '',
      revision: 3,
    });
  });
  it('sends the stock as a number in the unit', () => {
    expect(toProductChange(posted, { ...form, quantity: '0' }, ids)).toEqual({ quantity: 0, revision: 3 });
  });
});

describe('price, weight and stock stay numbers with at most 2 decimals', () => {
  it.each([
    ['2500.50', 2500.5],
    ['0', 0],
    ['0.1', 0.1],
    ['19.99', 19.99],
    ['1234.56', 1234.56],
    ['1.005', 1.01],
    [' 42 ', 42],
    ['.5', 0.5],
    ['7.', 7],
    ['0.994', 0.99],
    ['0.995', 1],
    ['1e3', 1000],
    ['100000000.00', 100000000],
  ])('"%s" → %d', (typed, expected) => {
    const value = twoDecimals(typed);
    expect(value).toBe(expected);
    expect(Math.round(value * 100) / 100).toBe(value);
  });
  it('the price is a number in the request, not a string', () => {
    expect(typeof toNewProduct(filled, ['a', 'b'], null).price).toBe('number');
  });
  it.each(['', '  ', 'abc', 'Infinity', '.', '1.2.3'])('refuses "%s"', (typed) => {
    expect(() => twoDecimals(typed)).toThrow(RangeError);
  });
});

describe('the empty form', () => {
  it('starts sold per kg, available, with tuber type "none" and every text empty', () => {
    const { unit, status, ...texts } = emptyProductForm;
    expect([unit, status]).toEqual(['kg', 'available']);
    expect(Object.values(texts).every((value) => value === '')).toBe(true);
  });
});
