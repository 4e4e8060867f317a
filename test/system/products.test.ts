// Farmer side through the gateway: profiles, photos, products, the authorisation matrix, bad
// input, and events between profile, catalog and media.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, imageForm, photo } from '../support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { PUBLIC_URL } from '../support/env.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let buyer: TestAccount;

const newProduct = (image_ids: string[], overrides: Record<string, unknown> = {}) => ({
  product_name: 'White yam',
  description: 'Freshly harvested white yam tubers from our farm near the river',
  price: 2500.5,
  kg: 12.5,
  tuber_type: 'yam',
  image_ids,
  cultural: 'Central to the New Yam festival',
  ...overrides,
});

async function upload(account: TestAccount, name = 'farm photo.jpg') {
  return api('POST', '/api/media/images', { token: account.accessToken, form: imageForm(await photo(), name) });
}

/** Posts once the catalog has the farmer's projection (it arrives by event). */
async function post(account: TestAccount, body: unknown) {
  return eventually(() => api('POST', '/api/catalog/products', { token: account.accessToken, json: body }), (answer) => answer.status !== 409);
}

beforeAll(async () => {
  [farmer, otherFarmer, buyer] = await Promise.all([
    signedInAccount({ role: 'farmer', businessName: 'Ada Farms', location: 'Ibadan', tuber: ['yam', 'cassava'] }),
    signedInAccount({ role: 'farmer', businessName: 'Bola Farms', location: 'Oyo', tuber: ['ginger'] }),
    signedInAccount({ role: 'buyer' }),
  ]);
  for (const account of [farmer, otherFarmer, buyer]) {
    expect((await api('POST', '/api/profile/me', { token: account.accessToken })).status).toBe(201);
  }
});

afterAll(async () => {
  await Promise.all([farmer, otherFarmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('photos', () => {
  it('stores a photo under the spec file name with card and thumbnail variants served by the gateway', async () => {
    const answer = await upload(farmer, 'My Yam (1).jpg');
    expect(answer.status).toBe(201);
    expect(answer.body.file_name).toMatch(/^\d{13}_My_Yam_1\.jpg$/);
    for (const url of [answer.body.url, answer.body.card_url, answer.body.thumb_url]) {
      expect(url.startsWith(`${PUBLIC_URL}/files/`)).toBe(true);
      expect((await fetch(url)).status).toBe(200);
    }
  });

  it('rejects a text file renamed .jpg, and nothing is stored', async () => {
    const answer = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(Buffer.from('not a photo at all'), 'yam.jpg') });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('not an image');
  });

  it.each([11, 13])('rejects a %i MB file with 413 and a clear message', async (megabytes) => {
    const big = Buffer.alloc(megabytes * 1024 * 1024, 1);
    const answer = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(big, 'huge.jpg') });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe('This photo is larger than 10 MB. Choose a smaller one.');
  });
});

describe('authorisation', () => {
  it('answers 401 to anonymous calls on every catalog and media route', async () => {
    for (const [method, path] of [
      ['GET', '/api/catalog/products'],
      ['GET', '/api/catalog/products/mine'],
      ['GET', '/api/catalog/products/x'],
      ['POST', '/api/catalog/products'],
      ['DELETE', '/api/catalog/products/x'],
      ['POST', '/api/media/images'],
      ['GET', '/api/media/images/x'],
    ] as const) {
      expect({ method, path, status: (await api(method, path, { json: method === 'POST' ? {} : undefined })).status }).toEqual({ method, path, status: 401 });
    }
  });

  it('answers 403 to a buyer posting a product or a photo', async () => {
    expect((await api('POST', '/api/catalog/products', { token: buyer.accessToken, json: newProduct(['a', 'b']) })).status).toBe(403);
    expect((await api('POST', '/api/media/images', { token: buyer.accessToken, form: imageForm(await photo(), 'x.jpg') })).status).toBe(403);
  });
});

describe('products', () => {
  let productId: string;
  let imageUrls: string[];

  it('posts a product with 2 photos and sees it in the list and the feed', async () => {
    const images = [(await upload(farmer)).body, (await upload(farmer)).body];
    const answer = await post(farmer, newProduct(images.map((i) => i.image_id)));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ business_name: 'Ada Farms', location: 'Ibadan', price: 2500.5, farmer_id: farmer.id });
    productId = answer.body.product_id;
    imageUrls = answer.body.images;
    const mine = await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken });
    expect(mine.body.items.map((p: { product_id: string }) => p.product_id)).toContain(productId);
    const feed = await api('GET', '/api/catalog/products?limit=5', { token: buyer.accessToken });
    expect(feed.body.items[0].product_id).toBe(productId);
  });

  it.each([
    ['1 image', (ids: string[]) => newProduct(ids.slice(0, 1)), 'Please select between 2 to 5 images.'],
    ['a negative price', (ids: string[]) => newProduct(ids, { price: -1 }), 'price'],
    ['a 3-decimal price', (ids: string[]) => newProduct(ids, { price: 10.005 }), 'at most 2 decimals'],
    ['a tuber the farmer does not grow', (ids: string[]) => newProduct(ids, { tuber_type: 'ginger' }), 'Choose a tuber type you grow (yam, cassava).'],
    ['an unknown field', (ids: string[]) => newProduct(ids, { farmer_id: 'someone-else' }), 'unknown field "farmer_id"'],
  ])('rejects %s with a clear 400 and stores nothing', async (_label, make, message) => {
    const ids = [(await upload(farmer)).body.image_id, (await upload(farmer)).body.image_id];
    const before = (await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length;
    const answer = await post(farmer, make(ids));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
    expect((await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length).toBe(before);
  });

  it("rejects another farmer's photos", async () => {
    const mine = (await upload(farmer)).body.image_id;
    const theirs = (await upload(otherFarmer)).body.image_id;
    const answer = await post(farmer, newProduct([mine, theirs]));
    expect(answer.status).toBe(400);
  });

  it("answers another farmer's delete as not found and leaves the product alone", async () => {
    const answer = await api('DELETE', `/api/catalog/products/${productId}`, { token: otherFarmer.accessToken });
    expect(answer.status).toBe(404);
    expect((await api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken })).status).toBe(200);
  });

  it("shows the farmer's new business name on their products", async () => {
    const renamed = await api('PATCH', '/api/profile/me', { token: farmer.accessToken, json: { business_name: 'Ada & Sons Farms' } });
    expect(renamed.status).toBe(200);
    const product = await eventually(
      () => api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken }),
      (answer) => answer.body.business_name === 'Ada & Sons Farms',
    );
    expect(product.body.business_name).toBe('Ada & Sons Farms');
  });

  it('deletes my product and its photos leave the bucket', async () => {
    expect((await api('DELETE', `/api/catalog/products/${productId}`, { token: farmer.accessToken })).status).toBe(204);
    expect((await api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken })).status).toBe(404);
    for (const url of imageUrls) {
      // MinIO answers a missing object to anonymous readers with 403 or 404, depending on its policy.
      const status = await eventually(async () => (await fetch(url)).status, (s) => s === 404 || s === 403);
      expect([403, 404]).toContain(status);
    }
  });
});
