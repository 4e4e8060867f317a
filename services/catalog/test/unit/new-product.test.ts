import { describe, expect, it } from 'vitest';
import type { NewProduct } from '@tuber/contracts';
import { checkNewProduct } from '../../src/domain/new-product.js';

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
      expect(checkNewProduct({ ...product, image_ids }, farmer, 'f1', images)).toEqual({ problem: 'Please select between 2 to 5 images.' });
    }
  });
  it('rejects a 3-decimal price', () => {
    expect(checkNewProduct({ ...product, price: 10.005 }, farmer, 'f1', images)).toEqual({
      problem: 'Price must be 0 or more, with at most 2 decimals.',
    });
  });
  it('rejects a tuber type the farmer does not grow, naming the ones they do', () => {
    expect(checkNewProduct({ ...product, tuber_type: 'ginger' }, farmer, 'f1', images)).toEqual({
      problem: 'Choose a tuber type you grow (yam, cassava).',
    });
  });
  it("rejects another farmer's images and unknown images", () => {
    expect(checkNewProduct({ ...product, image_ids: ['i1', 'i3'] }, farmer, 'f1', images)).toHaveProperty('problem');
    expect(checkNewProduct({ ...product, image_ids: ['i1', 'nope'] }, farmer, 'f1', images)).toHaveProperty('problem');
  });
});
