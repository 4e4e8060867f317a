// Farmer side through the gateway: profiles, photos, products, the authorisation matrix, bad
// input, and events between profile, catalog and media.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { api, eventually, imageForm, photo, pngBomb } from '../support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../support/accounts.js';
import { PUBLIC_URL, serviceEnv } from '../support/env.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let buyer: TestAccount;
/** The media service's own database, read to prove that a refused photo left no record behind. */
let media: mongoose.Connection;
const storedImagesOf = (account: TestAccount) => media.collection('image').countDocuments({ farmer_id: account.id });

const nutrition = {
  serving_weight_grams: 100,
  serving_qty: 1,
  calories: 118,
  dietary_fiber: 4.1,
  protein: 1.53,
  saturated_fat: 0.04,
  sugars: 0.5,
  potassium: 816,
  sodium: 9,
  total_fat: 0.17,
};

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
  return eventually(
    () => api('POST', '/api/catalog/products', { token: account.accessToken, json: body }),
    (answer) => answer.status !== 409,
  );
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
  media = await mongoose.createConnection(serviceEnv('media').MONGO_URL!).asPromise();
});

afterAll(async () => {
  await media?.close();
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

  it.each([
    ['a text file renamed .jpg', () => Buffer.from('not a photo at all'), 'yam.jpg', 400, 'not an image'],
    [
      'a decompression bomb (a 20 000 × 20 000 PNG of 1 KB)',
      () => pngBomb(20_000, 20_000),
      'bomb.png',
      400,
      'This image is too large (20000×20000 pixels)',
    ],
    ['an 11 MB file', () => Buffer.alloc(11 * 1024 * 1024, 1), 'huge.jpg', 413, 'This photo is larger than 10 MB. Choose a smaller one.'],
    ['a 13 MB file', () => Buffer.alloc(13 * 1024 * 1024, 1), 'huge.jpg', 413, 'This photo is larger than 10 MB. Choose a smaller one.'],
  ])('rejects %s with a clear error, and nothing is stored', async (_label, make, name, status, message) => {
    const before = await storedImagesOf(farmer);
    const answer = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(make(), name) });
    expect(answer.status).toBe(status);
    expect(answer.body.message).toContain(message);
    expect(await storedImagesOf(farmer)).toBe(before);
  });

  it('gives photos sent at the same moment under the same name their own files', async () => {
    const answers = await Promise.all(
      [30, 120, 210, 300].map(async (hue) =>
        api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(await photo(320, 240, hue), 'image.jpg') }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const names = answers.map((a) => a.body.file_name as string);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(/^\d{13}_image\.jpg$/);
    // Each name serves its own bytes.
    const sizes = await Promise.all(answers.map(async (a) => (await (await fetch(a.body.url)).arrayBuffer()).byteLength));
    expect(sizes).toEqual(answers.map((a) => a.body.bytes));
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
      ['PATCH', '/api/catalog/products/x'],
      ['POST', '/api/media/images'],
      ['GET', '/api/media/images/x'],
    ] as const) {
      expect({ method, path, status: (await api(method, path, { json: method === 'POST' ? {} : undefined })).status }).toEqual({
        method,
        path,
        status: 401,
      });
    }
  });

  it('answers 403 to a buyer on every farmer route: posting a product or a photo, listing, changing or deleting "my" products', async () => {
    const before = await storedImagesOf(buyer);
    expect((await api('POST', '/api/catalog/products', { token: buyer.accessToken, json: newProduct(['a', 'b']) })).status).toBe(403);
    expect((await api('POST', '/api/media/images', { token: buyer.accessToken, form: imageForm(await photo(), 'x.jpg') })).status).toBe(
      403,
    );
    expect((await api('GET', '/api/catalog/products/mine', { token: buyer.accessToken })).status).toBe(403);
    expect((await api('DELETE', '/api/catalog/products/x', { token: buyer.accessToken })).status).toBe(403);
    expect((await api('PATCH', '/api/catalog/products/x', { token: buyer.accessToken, json: { price: 1 } })).status).toBe(403);
    expect(await storedImagesOf(buyer)).toBe(before);
  });

  it("lets any signed-in user read the feed; a photo record no product uses is its farmer's alone", async () => {
    const photoId = (await upload(farmer)).body.image_id;
    expect((await api('GET', `/api/media/images/${photoId}`, { token: farmer.accessToken })).status).toBe(200);
    for (const account of [buyer, otherFarmer]) {
      expect((await api('GET', '/api/catalog/products?limit=1', { token: account.accessToken })).status).toBe(200);
      expect((await api('GET', `/api/media/images/${photoId}`, { token: account.accessToken })).status).toBe(404);
    }
  });
});

describe('products', () => {
  let productId: string;
  let imageUrls: string[];
  let imageIds: string[];

  it('posts a product with 2 photos and sees it in the list and the feed', async () => {
    const images = [(await upload(farmer)).body, (await upload(farmer)).body];
    const answer = await post(farmer, newProduct(images.map((i) => i.image_id)));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ business_name: 'Ada Farms', location: 'Ibadan', price: 2500.5, farmer_id: farmer.id });
    productId = answer.body.product_id;
    imageIds = images.map((i) => i.image_id);
    // The photo as uploaded, and its card and thumbnail variants.
    imageUrls = [...answer.body.images, ...answer.body.image_cards, ...answer.body.image_thumbs];
    expect(imageUrls).toHaveLength(6);
    const mine = await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken });
    expect(mine.body.items.map((p: { product_id: string }) => p.product_id)).toContain(productId);
    const feed = await api('GET', '/api/catalog/products?limit=5', { token: buyer.accessToken });
    expect(feed.body.items[0].product_id).toBe(productId);
  });

  it.each([
    ['1 image', (ids: string[]) => newProduct(ids.slice(0, 1)), 'Please select between 2 to 5 images.'],
    ['6 images', (ids: string[]) => newProduct([...ids, 'c', 'd', 'e', 'f']), 'Please select between 2 to 5 images.'],
    ['the same image twice', (ids: string[]) => newProduct([ids[0]!, ids[0]!]), 'Please select between 2 to 5 images.'],
    [
      'a nutrition object with an unknown field',
      (ids: string[]) => newProduct(ids, { nutrition: { ...nutrition, vitamin_z: 1 } }),
      'unknown field "vitamin_z"',
    ],
    ['a negative price', (ids: string[]) => newProduct(ids, { price: -1 }), 'price'],
    ['a 3-decimal price', (ids: string[]) => newProduct(ids, { price: 10.005 }), 'at most 2 decimals'],
    [
      'a tuber the farmer does not grow',
      (ids: string[]) => newProduct(ids, { tuber_type: 'ginger' }),
      'Choose a tuber type you grow (yam, cassava).',
    ],
    ['an unknown field', (ids: string[]) => newProduct(ids, { farmer_id: 'someone-else' }), 'unknown field "farmer_id"'],
  ])('rejects %s with a clear 400 and stores nothing', async (_label, make, message) => {
    const ids = [(await upload(farmer)).body.image_id, (await upload(farmer)).body.image_id];
    const before = (await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length;
    const answer = await post(farmer, make(ids));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
    expect((await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length).toBe(before);
  });

  it("rejects another farmer's photos and stores nothing", async () => {
    const mine = (await upload(farmer)).body.image_id;
    const theirs = (await upload(otherFarmer)).body.image_id;
    const before = (await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length;
    const answer = await post(farmer, newProduct([mine, theirs]));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Use photos you uploaded yourself; upload them again if this keeps happening.');
    expect((await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items.length).toBe(before);
  });

  it('refuses photos that already belong to another product with 409, and the fresh one stays usable', async () => {
    const fresh = (await upload(farmer)).body.image_id;
    // Straight to the API: post() waits out 409s (for the farmer's projection), and this 409 is the answer.
    const answer = await api('POST', '/api/catalog/products', { token: farmer.accessToken, json: newProduct([imageIds[0]!, fresh]) });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('These photos already belong to another product. Upload new photos for this one.');
    const another = (await upload(farmer)).body.image_id;
    const retry = await post(farmer, newProduct([fresh, another], { product_name: 'Second yam' }));
    expect(retry.status).toBe(201);
    expect((await api('DELETE', `/api/catalog/products/${retry.body.product_id}`, { token: farmer.accessToken })).status).toBe(204);
  });

  it("answers another farmer's delete as not found and leaves the product alone", async () => {
    const answer = await api('DELETE', `/api/catalog/products/${productId}`, { token: otherFarmer.accessToken });
    expect(answer.status).toBe(404);
    expect((await api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken })).status).toBe(200);
  });

  it("shows the farmer's new business name and location on their products", async () => {
    const renamed = await api('PATCH', '/api/profile/me', {
      token: farmer.accessToken,
      json: { business_name: 'Ada & Sons Farms', location: 'Moniya, Ibadan' },
    });
    expect(renamed.status).toBe(200);
    const product = await eventually(
      () => api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken }),
      (answer) => answer.body.business_name === 'Ada & Sons Farms' && answer.body.location === 'Moniya, Ibadan',
    );
    expect(product.body).toMatchObject({ business_name: 'Ada & Sons Farms', location: 'Moniya, Ibadan' });
  });

  it('deletes my product; its photos and their variants leave the bucket, and their records go', async () => {
    expect((await api('DELETE', `/api/catalog/products/${productId}`, { token: farmer.accessToken })).status).toBe(204);
    expect((await api('GET', `/api/catalog/products/${productId}`, { token: buyer.accessToken })).status).toBe(404);
    for (const url of imageUrls) {
      // MinIO answers a missing object to anonymous readers with 403 or 404, depending on its policy.
      const status = await eventually(
        async () => (await fetch(url)).status,
        (s) => s === 404 || s === 403,
      );
      expect([403, 404]).toContain(status);
    }
    const left = await eventually(
      () => media.collection('image').countDocuments({ image_id: { $in: imageIds } }),
      (n) => n === 0,
    );
    expect(left).toBe(0);
  });
});
