// Issue 11, ADR 0030: products posted before selling units keep working as sold per kg. Old-shape
// documents (no unit, stock in `kg`) are written through the native driver into a scratch
// database; the start-up migration converts them in bounded batches, a second run changes nothing,
// and the API shows each as the new shape: unit kg, weight 1, quantity = the old kg, available (sold
// out when the stock was 0), ₦ per kg = the price, revision 1. A product already in the new shape is
// left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { CatalogConfig } from '../../src/config.js';
import { assignSellingUnits } from '../../src/domain/migrations.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';

const run = randomUUID().slice(0, 8);
const dbName = `catalog_test_units_${run}`;
const env = { ...serviceEnv('catalog'), MONGO_URL: mongoUrl(dbName), READ_MODEL_PREFIX: `catalog:test:${run}:` };
/** More than FerretDB 1.24 takes in one bulk write (50 statements stall it; ADR 0030). */
const OLD = 63;

let db: mongoose.Connection;
let app: ServiceApp;
let buyer: TestAccount;
const ids: string[] = [];
const newShapeId = randomUUID();

const oldProduct = (n: number) => ({
  product_id: ids[n],
  farmer_id: `farmer-${n % 3}`,
  product_name: `Yam lot ${n}`,
  description: 'Fresh white yam tubers from the farm near the river.',
  price_kobo: 150_000 + n * 25,
  kg: n % 5 === 0 ? 0 : n + 0.5,
  tuber_type: 'yam',
  images: ['http://localhost:8080/files/a.jpg', 'http://localhost:8080/files/b.jpg'],
  image_cards: ['http://localhost:8080/files/a.jpg.card.webp', 'http://localhost:8080/files/b.jpg.card.webp'],
  image_thumbs: ['http://localhost:8080/files/a.jpg.thumb.webp', 'http://localhost:8080/files/b.jpg.thumb.webp'],
  image_ids: [],
  location: 'Ibadan',
  business_name: 'Old Farm',
  cultural: 'New yam festival',
  created_at: new Date(Date.parse('2026-10-01T09:00:00.000Z') + n * 60_000),
  feed_bucket: 0,
  deleting: false,
  outbox: [],
});

beforeAll(async () => {
  buyer = await signedInAccount({ role: 'buyer' });
  db = await mongoose.createConnection(mongoUrl(dbName)).asPromise();
  for (let n = 0; n < OLD; n++) ids.push(randomUUID());
  await db.collection('product').insertMany(ids.map((_, n) => oldProduct(n)));
  await db.collection('feed_counter').insertOne({ _id: 'feed' as never, seq: OLD });
  // One product already sold per heap: the migration must not touch it.
  const { kg: _kg, ...rest } = oldProduct(0);
  await db.collection('product').insertOne({
    ...rest,
    product_id: newShapeId,
    unit: 'heap',
    unit_weight_kg: 4,
    quantity: 3,
    status: 'available',
    price_per_kg_kobo: 37_500,
    revision: 5,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  if (buyer) await deleteAccount(buyer.id);
});

describe('the selling-units migration', () => {
  it('converts every old product with one write per batch of the given size, once: a second run converts nothing', async () => {
    const watched = await mongoose.createConnection(mongoUrl(dbName), { monitorCommands: true }).asPromise();
    const writes: number[] = [];
    watched.getClient().on('commandStarted', (event) => {
      if (event.commandName === 'update') writes.push((event.command.updates as unknown[]).length);
    });
    try {
      expect(await assignSellingUnits(watched, { batchSize: 10 })).toBe(OLD);
      expect(writes).toEqual([10, 10, 10, 10, 10, 10, 3]);
      const after = await db.collection('product').find({}).sort({ product_id: 1 }).toArray();
      expect(await assignSellingUnits(watched, { batchSize: 10 })).toBe(0);
      expect(writes).toHaveLength(7);
      expect(await db.collection('product').find({}).sort({ product_id: 1 }).toArray()).toEqual(after);
    } finally {
      await watched.close();
    }
  });

  it('gives each the per-kg shape in the database: quantity = the old kg, status from it, price per kg = price', async () => {
    const docs = await db
      .collection('product')
      .find({ product_id: { $in: ids } })
      .toArray();
    expect(docs).toHaveLength(OLD);
    for (const doc of docs) {
      const n = ids.indexOf(doc.product_id);
      const kg = oldProduct(n).kg;
      expect(doc).toMatchObject({
        unit: 'kg',
        unit_weight_kg: 1,
        quantity: kg,
        status: kg > 0 ? 'available' : 'sold_out',
        price_per_kg_kobo: oldProduct(n).price_kobo,
        revision: 1,
      });
    }
  });

  it('leaves a product already in the new shape alone', async () => {
    expect(await db.collection('product').findOne({ product_id: newShapeId })).toMatchObject({
      unit: 'heap',
      unit_weight_kg: 4,
      quantity: 3,
      revision: 5,
    });
  });

  it('shows migrated products through the API in the new shape (the catalog starting on the database runs it again harmlessly)', async () => {
    app = await buildApp(loadConfig(CatalogConfig, env), { events: false, readModel: false });
    const get = (id: string) =>
      app.inject({ method: 'GET', url: `/api/catalog/products/${id}`, headers: { authorization: `Bearer ${buyer.accessToken}` } });
    const available = await get(ids[1]!);
    expect(available.statusCode).toBe(200);
    expect(available.json()).toMatchObject({
      unit: 'kg',
      unit_weight_kg: 1,
      price: 1500.25,
      price_per_kg: 1500.25,
      quantity: 1.5,
      kg: 1.5,
      status: 'available',
      revision: 1,
    });
    expect(available.json()).not.toHaveProperty('tuber_size');
    const soldOut = await get(ids[5]!);
    expect(soldOut.json()).toMatchObject({ quantity: 0, kg: 0, status: 'sold_out' });
    const heap = await get(newShapeId);
    expect(heap.json()).toMatchObject({ unit: 'heap', price: 1500, price_per_kg: 375, quantity: 3, kg: 12, revision: 5 });
    const feed = await app.inject({
      method: 'GET',
      url: '/api/catalog/products?limit=48',
      headers: { authorization: `Bearer ${buyer.accessToken}` },
    });
    expect(feed.statusCode).toBe(200);
    expect(feed.json().items).toHaveLength(48);
  });
});
