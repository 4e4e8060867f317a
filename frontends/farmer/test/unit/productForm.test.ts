import { describe, expect, it } from 'vitest';
import type { Nutrition } from '@tuber/contracts';
import { emptyProductForm, toNewProduct, twoDecimals, type ProductFormValues } from '../../src/add-product/productForm.js';

const filled: ProductFormValues = {
  productName: '  White yam ',
  description: 'Freshly harvested white yam tubers from our farm near the river',
  price: '2500.50',
  kg: '12.5',
  cultural: 'Central to the New Yam festival',
  health: '',
  tuberType: 'yam',
};

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

describe('form → POST /api/catalog/products', () => {
  it('maps every field to the catalog request with image_ids in the order chosen', () => {
    expect(toNewProduct(filled, ['img-2', 'img-1'], yam)).toEqual({
      product_name: 'White yam',
      description: 'Freshly harvested white yam tubers from our farm near the river',
      price: 2500.5,
      kg: 12.5,
      tuber_type: 'yam',
      image_ids: ['img-2', 'img-1'],
      cultural: 'Central to the New Yam festival',
      nutrition: yam,
    });
  });
  it('leaves out health benefits when none were written (optional field)', () => {
    expect(toNewProduct({ ...filled, health: '   ' }, ['a', 'b'], null)).not.toHaveProperty('health');
  });
  it('sends health benefits when written, trimmed', () => {
    expect(toNewProduct({ ...filled, health: ' Rich in potassium \n' }, ['a', 'b'], null).health).toBe('Rich in potassium');
  });
  it('leaves out nutrition when the lookup found nothing', () => {
    expect(toNewProduct(filled, ['a', 'b'], null)).not.toHaveProperty('nutrition');
  });
  it('sends only fields the catalog knows (it rejects unknown ones)', () => {
    const keys = Object.keys(toNewProduct({ ...filled, health: 'x' }, ['a', 'b'], yam)).sort();
    expect(keys).toEqual(['cultural', 'description', 'health', 'image_ids', 'kg', 'nutrition', 'price', 'product_name', 'tuber_type']);
  });
  it('copies the image ids rather than sharing the array', () => {
    const ids = ['a', 'b'];
    const body = toNewProduct(filled, ids, null);
    ids.push('c');
    expect(body.image_ids).toEqual(['a', 'b']);
  });
});

describe('price and kg stay numbers with at most 2 decimals', () => {
  it.each([
    ['2500.50', 2500.5],
    ['0', 0],
    ['0.1', 0.1],
    ['19.99', 19.99],
    ['1234.56', 1234.56],
    ['1.005', 1.01],
    [' 42 ', 42],
  ])('"%s" → %d', (typed, expected) => {
    const value = twoDecimals(typed);
    expect(value).toBe(expected);
    expect(typeof value).toBe('number');
    expect(Math.round(value * 100) / 100).toBe(value);
  });
  it('the price is a number in the request, not a string', () => {
    expect(typeof toNewProduct(filled, ['a', 'b'], null).price).toBe('number');
  });
  it.each(['', '  ', 'abc', 'Infinity'])('refuses "%s"', (typed) => {
    expect(() => twoDecimals(typed)).toThrow(RangeError);
  });
});

describe('the empty form', () => {
  it('starts with tuber type "none" and every field empty', () => {
    expect(Object.values(emptyProductForm).every((value) => value === '')).toBe(true);
  });
});

describe('twoDecimals edge cases', () => {
  it.each([
    ['.5', 0.5],
    ['7.', 7],
    ['0.994', 0.99],
    ['0.995', 1],
    ['1e3', 1000],
    ['100000000.00', 100000000],
  ])('"%s" → %d', (typed, expected) => {
    expect(twoDecimals(typed)).toBe(expected);
  });
  it('refuses a lone dot or a negative sign it cannot read', () => {
    expect(() => twoDecimals('.')).toThrow(RangeError);
    expect(() => twoDecimals('1.2.3')).toThrow(RangeError);
  });
});
