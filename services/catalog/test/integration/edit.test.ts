// Issue 11: a farmer edits a posted product — name, text, price, unit, stock, status, photos (add,
// remove, reorder; still 2 to 5) — with PATCH /api/catalog/products/:productId. Every rule of
// posting applies to the result; only the farmer who posted it may change it (403 for another
// farmer, 404 when it does not exist); an edit made on an older revision is refused (409); fields
// the server owns can never be set. Each edit publishes ProductChanged, and the media service
// removes the files of a photo taken off the product. Through the gateway, on the running stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import pino from 'pino';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { ProductChanged, type EventPayload } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl, natsUrl } from '../../../../test/support/credentials.js';
import { lagosToday } from '../../src/domain/new-product.js';
import { PRODUCT_EDIT_LIMIT } from '../../src/routes/farmer-products.js';
import { farmerWithProfile, getProduct, patchProduct, postProduct, productBody, uploadPhotos } from './farmer-support.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let buyer: TestAccount;
let bus: EventBus;
let subscription: Subscription;
let media: mongoose.Connection;
let catalog: mongoose.Connection;
/** Every ProductChanged seen on the bus while the tests run, with its message id. */
const seen: { messageId: string; payload: EventPayload<typeof ProductChanged> }[] = [];

let productId: string;
let photos: { id: string; url: string; card: string; thumb: string }[];

beforeAll(async () => {
  [farmer, otherFarmer, buyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Edit Farm', location: 'Iseyin', tuber: ['yam', 'cassava'] }),
    farmerWithProfile({ businessName: 'Other Farm', location: 'Oyo', tuber: ['yam'] }),
    signedInAccount({ role: 'buyer' }),
  ]);
  bus = await EventBus.connect(natsUrl(), 'edit-test', pino({ level: 'silent' }));
  subscription = bus.connection.subscribe(ProductChanged.subject);
  void (async () => {
    for await (const message of subscription as AsyncIterable<Msg>) {
      seen.push({ messageId: message.headers?.get('Nats-Msg-Id') ?? '', payload: message.json() });
    }
  })();
  media = await mongoose.createConnection(mongoUrl('media')).asPromise();
  catalog = await mongoose.createConnection(mongoUrl('catalog')).asPromise();
  photos = await uploadPhotos(farmer, 2);
  const posted = await postProduct(
    farmer,
    productBody(
      photos.map((p) => p.id),
      { price: 2500, quantity: 10 },
    ),
  );
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  productId = posted.body.product_id;
});

afterAll(async () => {
  subscription?.unsubscribe();
  await bus?.close();
  await media?.close();
  await catalog?.close();
  await Promise.all([farmer, otherFarmer, buyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const current = async () => (await getProduct(farmer, productId)).body;
const eventOf = (revision: number) =>
  eventually(
    async () => seen.find((e) => e.payload.product_id === productId && e.payload.revision === revision),
    (found) => found !== undefined,
  );

describe('a farmer edits their product', () => {
  it('changes price and stock: 200 with the product at revision 2, and buyers read the change', async () => {
    const answer = await patchProduct(farmer, productId, { price: 2800, quantity: 8, revision: 1 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ product_id: productId, price: 2800, price_per_kg: 2800, quantity: 8, kg: 8, revision: 2 });
    expect(Date.parse(answer.body.updated_at)).toBeGreaterThan(Date.parse(answer.body.created_at));
    const read = await getProduct(buyer, productId);
    expect(read.body).toEqual(answer.body);
    const mine = await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken });
    expect(mine.body.items.find((p: { product_id: string }) => p.product_id === productId)).toEqual(answer.body);
  });

  it('publishes ProductChanged with what changed, the new price and stock, and its message id', async () => {
    const event = await eventOf(2);
    expect(event?.messageId).toBe(`product-changed:${productId}:2`);
    expect(event?.payload).toEqual({
      product_id: productId,
      farmer_id: farmer.id,
      revision: 2,
      changed: ['price', 'price_per_kg', 'quantity', 'kg'],
      price_kobo: 280_000,
      unit: 'kg',
      quantity: 8,
      status: 'available',
      image_ids: photos.map((p) => p.id),
      removed_image_ids: [],
      changed_at: expect.any(String),
      // Issue 12: the orders service's projection shows the name (sent with every change).
      product_name: 'White yam',
      // Issue 27: the price guide's tuber and unit weight.
      tuber_type: 'yam',
      unit_weight_kg: 1,
    });
  });

  it('changes name and texts (trimmed), and an empty health text removes it', async () => {
    const answer = await patchProduct(farmer, productId, {
      product_name: '  Ikire yam ',
      description: 'Big tubers, dug this week',
      cultural: 'Served at the New Yam festival',
      health: 'Rich in fibre',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ product_name: 'Ikire yam', description: 'Big tubers, dug this week', health: 'Rich in fibre' });
    // Buyers find it by its new name (the search words follow the edit).
    const stored = await catalog.collection('product').findOne({ product_id: productId });
    expect(stored?.search_terms).toEqual(expect.arrayContaining(['ikire', 'yam', 'dug']));
    const cleared = await patchProduct(farmer, productId, { health: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('health');
  });

  it('switching to per heap without the weight of a heap is a 400 and changes nothing', async () => {
    const before = await current();
    const answer = await patchProduct(farmer, productId, { unit: 'heap' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Give the average weight in kg of what you sell per heap (unit_weight_kg).');
    expect(await current()).toEqual(before);
  });

  it('changes the unit: per heap of 4 kg at ₦2,000 is ₦500 per kg, and back to per kg drops the weight', async () => {
    const heap = await patchProduct(farmer, productId, { unit: 'heap', unit_weight_kg: 4, price: 2000, quantity: 5 });
    expect(heap.status, JSON.stringify(heap.body)).toBe(200);
    expect(heap.body).toMatchObject({ unit: 'heap', unit_weight_kg: 4, price: 2000, price_per_kg: 500, quantity: 5, kg: 20 });
    const tuber = await patchProduct(farmer, productId, { unit: 'tuber', unit_weight_kg: 2, tuber_size: 'medium' });
    expect(tuber.body).toMatchObject({ unit: 'tuber', tuber_size: 'medium', unit_weight_kg: 2, price_per_kg: 1000 });
    const kg = await patchProduct(farmer, productId, { unit: 'kg', quantity: 10 });
    expect(kg.status, JSON.stringify(kg.body)).toBe(200);
    expect(kg.body).toMatchObject({ unit: 'kg', unit_weight_kg: 1, price_per_kg: 2000, kg: 10 });
    expect(kg.body).not.toHaveProperty('tuber_size');
  });

  it('marks sold out; stock 0 while available is stored as sold out; restocking makes it available again', async () => {
    const soldOut = await patchProduct(farmer, productId, { status: 'sold_out' });
    expect(soldOut.body).toMatchObject({ status: 'sold_out', quantity: 10 });
    const empty = await patchProduct(farmer, productId, { status: 'available', quantity: 0 });
    expect(empty.body).toMatchObject({ status: 'sold_out', quantity: 0 });
    const restocked = await patchProduct(farmer, productId, { quantity: 6 });
    expect(restocked.body).toMatchObject({ status: 'available', quantity: 6 });
    const event = await eventOf(restocked.body.revision);
    expect(event?.payload).toMatchObject({ status: 'available', quantity: 6, changed: expect.arrayContaining(['quantity', 'status']) });
  });

  it('next harvest needs a date, today or later, and leaving that status drops the date', async () => {
    const noDate = await patchProduct(farmer, productId, { status: 'next_harvest' });
    expect(noDate.status).toBe(400);
    expect(noDate.body.message).toBe('Give the date of the next harvest (next_harvest, YYYY-MM-DD, today or later).');
    const past = await patchProduct(farmer, productId, { status: 'next_harvest', next_harvest: '2020-01-01' });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(`The next harvest date must be today or later (today is ${lagosToday()} in Lagos).`);
    const later = lagosToday(new Date(Date.now() + 20 * 86_400_000));
    const harvest = await patchProduct(farmer, productId, { status: 'next_harvest', next_harvest: later, quantity: 0 });
    expect(harvest.body).toMatchObject({ status: 'next_harvest', next_harvest: later });
    const dateAlone = await patchProduct(farmer, productId, { status: 'available', next_harvest: later });
    expect(dateAlone.status).toBe(400);
    const back = await patchProduct(farmer, productId, { status: 'available', quantity: 4 });
    expect(back.body).toMatchObject({ status: 'available', quantity: 4 });
    expect(back.body).not.toHaveProperty('next_harvest');
  });

  it('an edit that changes nothing answers the product as it is, without a new revision', async () => {
    const before = await current();
    const answer = await patchProduct(farmer, productId, { quantity: before.quantity, price: before.price });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(before);
  });
});

describe('photos of an edited product', () => {
  let added: typeof photos;

  it('adds, removes and reorders in one edit: the new list in its order, URLs following their ids', async () => {
    added = await uploadPhotos(farmer, 2);
    const order = [added[0]!, photos[1]!, added[1]!]; // photos[0] taken off, two added, the kept one moved
    const answer = await patchProduct(farmer, productId, { image_ids: order.map((p) => p.id) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.image_ids).toEqual(order.map((p) => p.id));
    expect(answer.body.images).toEqual(order.map((p) => p.url));
    expect(answer.body.image_cards).toEqual(order.map((p) => p.card));
    expect(answer.body.image_thumbs).toEqual(order.map((p) => p.thumb));
    const event = await eventOf(answer.body.revision);
    expect(event?.payload).toMatchObject({ changed: ['image_ids'], image_ids: order.map((p) => p.id), removed_image_ids: [photos[0]!.id] });
  });

  it('the media service removes the files of the photo taken off and keeps the added ones for the product', async () => {
    for (const url of [photos[0]!.url, photos[0]!.card, photos[0]!.thumb]) {
      const status = await eventually(
        async () => (await fetch(url)).status,
        (s) => s === 403 || s === 404,
      );
      expect([403, 404]).toContain(status);
    }
    const records = media.collection('image');
    expect(
      await eventually(
        () => records.countDocuments({ image_id: photos[0]!.id }),
        (n) => n === 0,
      ),
    ).toBe(0);
    const attached = await eventually(
      () => records.countDocuments({ image_id: { $in: added.map((p) => p.id) }, product_id: productId }),
      (n) => n === 2,
    );
    expect(attached).toBe(2);
    expect((await fetch(photos[1]!.url)).status).toBe(200);
    // The catalog marks the photo gone: nobody can take it again.
    expect(await catalog.collection('image').findOne({ image_id: photos[0]!.id })).toMatchObject({ removed: true });
  });

  it.each([
    ['one photo', () => [photos[1]!.id], 'Please select between 2 to 5 images.'],
    ['six photos', () => [photos[1]!.id, 'a', 'b', 'c', 'd', 'e'], 'Please select between 2 to 5 images.'],
    ['the same photo twice', () => [photos[1]!.id, photos[1]!.id], 'Please select between 2 to 5 images.'],
  ])('refuses %s with a 400 and keeps the photos as they were', async (_label, ids, message) => {
    const before = await current();
    const answer = await patchProduct(farmer, productId, { image_ids: ids() });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(await current()).toEqual(before);
  });

  it("refuses another farmer's photo (400) and a photo another product uses (409), leaving the fresh one free", async () => {
    const before = await current();
    const [theirs] = await uploadPhotos(otherFarmer, 1);
    const foreign = await patchProduct(farmer, productId, { image_ids: [...before.image_ids, theirs!.id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('Use photos you uploaded yourself; upload them again if this keeps happening.');

    const secondPhotos = await uploadPhotos(farmer, 2);
    const second = await postProduct(
      farmer,
      productBody(
        secondPhotos.map((p) => p.id),
        { product_name: 'Second yam' },
      ),
    );
    expect(second.status).toBe(201);
    const [fresh] = await uploadPhotos(farmer, 1);
    const taken = await patchProduct(farmer, productId, { image_ids: [...before.image_ids, fresh!.id, secondPhotos[0]!.id] });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('These photos already belong to another product. Upload new photos for this one.');
    expect(await current()).toEqual(before);
    // The fresh photo was not kept by the refused edit.
    const withFresh = await patchProduct(farmer, second.body.product_id, { image_ids: [...second.body.image_ids, fresh!.id] });
    expect(withFresh.status, JSON.stringify(withFresh.body)).toBe(200);
    expect(withFresh.body.image_ids).toHaveLength(3);
  });
});

describe('who may edit, and what', () => {
  it("answers another farmer 403 'You can only change your own products.' and changes nothing", async () => {
    const before = await current();
    const answer = await patchProduct(otherFarmer, productId, { price: 1 });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'NOT_YOUR_PRODUCT', statusCode: 403, error: 'Forbidden', message: 'You can only change your own products.' });
    expect(await current()).toEqual(before);
  });

  it('answers a buyer 403 and an anonymous caller 401', async () => {
    expect((await patchProduct(buyer, productId, { price: 1 })).status).toBe(403);
    expect((await patchProduct(undefined, productId, { price: 1 })).status).toBe(401);
    expect((await current()).price).not.toBe(1);
  });

  it('answers 404 for a product that does not exist, or no longer does', async () => {
    const missing = await patchProduct(farmer, 'no-such-product', { price: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('This product does not exist or has been removed.');
    const ids = (await uploadPhotos(farmer, 2)).map((p) => p.id);
    const doomed = await postProduct(farmer, productBody(ids, { product_name: 'Gone soon' }));
    expect((await api('DELETE', `/api/catalog/products/${doomed.body.product_id}`, { token: farmer.accessToken })).status).toBe(204);
    expect((await patchProduct(farmer, doomed.body.product_id, { price: 1 })).status).toBe(404);
  });

  it('refuses an edit made on an older revision with 409, and changes nothing', async () => {
    const before = await current();
    expect(before.revision).toBeGreaterThan(2);
    const answer = await patchProduct(farmer, productId, { price: 1, revision: before.revision - 1 });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('This product was changed elsewhere; reload it and try again.');
    expect(await current()).toEqual(before);
    const fresh = await patchProduct(farmer, productId, { price: 3100, revision: before.revision });
    expect(fresh.status).toBe(200);
    expect(fresh.body.revision).toBe(before.revision + 1);
  });

  it('keeps one of two edits made at once on the same revision, and refuses the other with 409', async () => {
    const { revision } = await current();
    const answers = await Promise.all([
      patchProduct(farmer, productId, { price: 3200, revision }),
      patchProduct(farmer, productId, { price: 3300, revision }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(await current()).toMatchObject({ price: winner.body.price, revision: revision + 1 });
  });

  it.each([
    ['farmer_id', 'someone-else'],
    ['product_id', 'another-id'],
    ['created_at', '2020-01-01T00:00:00.000Z'],
    ['updated_at', '2020-01-01T00:00:00.000Z'],
    ['business_name', 'Not my farm'],
    ['location', 'Lagos'],
    ['tuber_type', 'cassava'],
    ['images', ['http://evil.example/x.jpg']],
    ['price_kobo', 1],
    ['price_per_kg', 1],
    ['kg', 1000],
    ['feed_bucket', 0],
    ['deleting', true],
    ['outbox', []],
    ['search_terms', ['free']],
  ])('refuses to set %s (mass assignment) with a 400 and changes nothing', async (field, value) => {
    const before = await current();
    const answer = await patchProduct(farmer, productId, { price: 1, [field]: value });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(`body: unknown field "${field}".`);
    expect(await current()).toEqual(before);
  });

  it('takes a revision only as the one edited, never as a new one', async () => {
    const before = await current();
    const answer = await patchProduct(farmer, productId, { revision: before.revision + 50 });
    expect(answer.status).toBe(409);
    expect((await current()).revision).toBe(before.revision);
  });

  it('refuses an empty change with a 400', async () => {
    expect((await patchProduct(farmer, productId, {})).status).toBe(400);
  });

  it('declares every answer of the route in the OpenAPI document, the per-farmer limit included', async () => {
    expect(PRODUCT_EDIT_LIMIT.max).toBeGreaterThan(0);
    const doc = (await api('GET', '/api/catalog/openapi.json')).body;
    expect(Object.keys(doc.paths['/api/catalog/products/{productId}'].patch.responses).sort()).toEqual(
      ['200', '400', '401', '403', '404', '409', '429', '503'].sort(),
    );
  });
});
