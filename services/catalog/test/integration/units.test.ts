// Issue 11, ADR 0030: a farmer posts a product in the unit a Nigerian market sells it in (per kg,
// per tuber with a size, per heap, per 50 kg bag, per lot of 100 tubers) with the average weight of
// one unit, a stock quantity in that unit and a status; the product shows the price per unit and
// the computed ₦ per kg. Older clients that send `kg` keep working (sold per kg). Every rule answers
// a 400 a person can act on, and a refused post stores nothing. Through the gateway, running stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { lagosToday } from '../../src/domain/new-product.js';
import { farmerWithProfile, getProduct, postProduct, productBody, uploadPhotos } from './farmer-support.js';

let farmer: TestAccount;
let buyer: TestAccount;
beforeAll(async () => {
  [farmer, buyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Units Farm', location: 'Ogbomoso', tuber: ['yam', 'cassava', 'sweet potato'] }),
    signedInAccount({ role: 'buyer' }),
  ]);
});
afterAll(async () => {
  await Promise.all([farmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const day = (offsetDays: number) => lagosToday(new Date(Date.now() + offsetDays * 86_400_000));

/** Posts with two fresh photos and checks the answer is what a buyer then reads. */
async function posted(overrides: Record<string, unknown>) {
  const ids = (await uploadPhotos(farmer)).map((p) => p.id);
  const answer = await postProduct(farmer, productBody(ids, overrides));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const read = await getProduct(buyer, answer.body.product_id);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(answer.body);
  return answer.body;
}

describe('posting in each selling unit', () => {
  it('per kg: the unit weighs 1 kg, the price is the price per kg, kg is the quantity', async () => {
    const product = await posted({ unit: 'kg', price: 1500.5, quantity: 12.25 });
    expect(product).toMatchObject({ unit: 'kg', unit_weight_kg: 1, price: 1500.5, price_per_kg: 1500.5, quantity: 12.25, kg: 12.25 });
    expect(product).toMatchObject({ status: 'available', revision: 1 });
    expect(product).not.toHaveProperty('tuber_size');
    expect(product).not.toHaveProperty('next_harvest');
  });

  it('an older client sending kg and no unit posts a product sold per kg with that stock', async () => {
    const ids = (await uploadPhotos(farmer)).map((p) => p.id);
    const { quantity: _, ...older } = productBody(ids, { price: 2000, kg: 7.5 });
    const answer = await postProduct(farmer, older);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({
      unit: 'kg',
      unit_weight_kg: 1,
      quantity: 7.5,
      kg: 7.5,
      price: 2000,
      price_per_kg: 2000,
      status: 'available',
    });
  });

  it('per tuber with a size: ₦ per kg is the price over the average weight of one tuber', async () => {
    const product = await posted({ unit: 'tuber', tuber_size: 'large', unit_weight_kg: 2.5, price: 3000, quantity: 40 });
    expect(product).toMatchObject({
      unit: 'tuber',
      tuber_size: 'large',
      unit_weight_kg: 2.5,
      price: 3000,
      price_per_kg: 1200,
      quantity: 40,
      kg: 100,
    });
  });

  it('per heap: ₦ per kg rounded to the kobo', async () => {
    const product = await posted({ unit: 'heap', unit_weight_kg: 4.2, price: 2000, quantity: 3, tuber_type: 'cassava' });
    expect(product).toMatchObject({ unit: 'heap', unit_weight_kg: 4.2, price: 2000, price_per_kg: 476.19, quantity: 3, kg: 12.6 });
  });

  it('per 50 kg bag and per lot of 100 tubers', async () => {
    expect(await posted({ unit: 'bag_50kg', unit_weight_kg: 50, price: 45_000, quantity: 6 })).toMatchObject({
      unit: 'bag_50kg',
      price_per_kg: 900,
      kg: 300,
    });
    expect(await posted({ unit: 'lot_100', unit_weight_kg: 150, price: 120_000, quantity: 2, tuber_type: 'sweet potato' })).toMatchObject({
      unit: 'lot_100',
      price_per_kg: 800,
      kg: 300,
    });
  });

  it('stores a quantity of 0 posted as available as sold out', async () => {
    expect(await posted({ quantity: 0, status: 'available' })).toMatchObject({ quantity: 0, kg: 0, status: 'sold_out' });
  });

  it('takes a next harvest from today or a later day (Lagos time), and the date shows', async () => {
    expect(await posted({ quantity: 0, status: 'next_harvest', next_harvest: day(30) })).toMatchObject({
      status: 'next_harvest',
      next_harvest: day(30),
    });
    expect(await posted({ quantity: 0, status: 'next_harvest', next_harvest: lagosToday() })).toMatchObject({ status: 'next_harvest' });
  });
});

describe('the rules of posting', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = (await uploadPhotos(farmer)).map((p) => p.id);
  });

  it.each([
    [
      'a heap without the weight of one heap',
      { unit: 'heap', price: 2000 },
      'Give the average weight in kg of what you sell per heap (unit_weight_kg).',
    ],
    [
      'a 50 kg bag without its weight',
      { unit: 'bag_50kg' },
      'Give the average weight in kg of what you sell per 50 kg bag (unit_weight_kg).',
    ],
    [
      'per kg with a unit weight other than 1',
      { unit: 'kg', unit_weight_kg: 2 },
      'A product sold per kg weighs 1 kg per unit: leave out unit_weight_kg or send 1.',
    ],
    [
      'a tuber size on a product sold per heap',
      { unit: 'heap', unit_weight_kg: 3, tuber_size: 'small' },
      'A tuber size goes only with products sold per tuber; this one is sold per heap.',
    ],
    [
      'status next_harvest without a date',
      { status: 'next_harvest' },
      'Give the date of the next harvest (next_harvest, YYYY-MM-DD, today or later).',
    ],
    [
      'a next harvest in the past',
      { status: 'next_harvest', next_harvest: day(-2) },
      `The next harvest date must be today or later (today is ${lagosToday()} in Lagos).`,
    ],
    ['a next harvest on a day that does not exist', { status: 'next_harvest', next_harvest: '2031-02-30' }, 'next_harvest'],
    [
      'a next harvest date on an available product',
      { status: 'available', next_harvest: day(5) },
      'A next harvest date goes only with the status "next_harvest"; leave it out or set that status.',
    ],
    ['both kg and quantity', { kg: 10 }, 'Send the stock either as quantity (in the unit you sell in) or as kg (older clients), not both.'],
    [
      'kg with a unit other than kg',
      { quantity: undefined, kg: 10, unit: 'heap', unit_weight_kg: 3 },
      'kg is the stock of a product sold per kg; for one sold per heap, send quantity in that unit.',
    ],
    ['no stock at all', { quantity: undefined }, 'Give the quantity you have in stock (quantity, 0 or more, in the unit you sell in).'],
    ['a quantity with 3 decimals', { quantity: 1.125 }, 'Quantity must be 0 or more, with at most 2 decimals.'],
    [
      'a unit weight with 3 decimals',
      { unit: 'tuber', unit_weight_kg: 1.255 },
      'The weight of one unit must be more than 0 kg, with at most 2 decimals.',
    ],
    ['a price with 3 decimals', { price: 10.005 }, 'Price must be 0 or more, with at most 2 decimals.'],
    ['an unknown unit', { unit: 'basket' }, 'unit'],
    ['an unknown tuber size', { unit: 'tuber', unit_weight_kg: 1, tuber_size: 'huge' }, 'tuber_size'],
  ])('refuses %s with a clear 400 and stores nothing', async (_label, overrides, message) => {
    const before = (await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length;
    const answer = await postProduct(farmer, JSON.parse(JSON.stringify(productBody(ids, overrides))));
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.message).toContain(message);
    expect((await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length).toBe(before);
  });

  it('left the photos of the refused posts free for a good one', async () => {
    const answer = await postProduct(farmer, productBody(ids, { unit: 'heap', unit_weight_kg: 5, price: 2500 }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.image_ids).toEqual(ids);
  });
});
