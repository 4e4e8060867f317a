// Issue 12 (ADR 0033): products posted before ProductCreated carried what the orders service keeps
// are announced once — a ProductChanged with changed ['snapshot'] recorded in each product's outbox
// and the product marked `announced` in the same update, in bulk writes of at most SAFE_BULK_WRITE
// (FerretDB 1.24 stalls on 50+). A second run announces nothing; a product being deleted, or
// already announced, is left alone; one whose write lock is held waits for the next pass. On a
// scratch database, with the start-up function itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import pino from 'pino';
import { randomUUID } from 'node:crypto';
import { connectRedis, type RedisClient } from '@tuber/kit';
import { announceProducts, snapshotMessageId } from '../../src/domain/announce.js';
import { productLockKey } from '../../src/domain/product-lock.js';
import { productModel, type ProductModel } from '../../src/domain/product.js';
import { mongoUrl, redisUrl } from '../../../../test/support/credentials.js';

const run = randomUUID().slice(0, 8);
const dbName = `catalog_test_announce_${run}`;
/** More than two bulk writes' worth. */
const OLD = 45;
const log = pino({ level: 'silent' });

let db: mongoose.Connection;
let Product: ProductModel;
let redis: RedisClient;
const ids = Array.from({ length: OLD }, () => randomUUID());
const deletingId = randomUUID();
const announcedId = randomUUID();

const product = (id: string, n: number, extra: Record<string, unknown> = {}) => ({
  product_id: id,
  farmer_id: `farmer-${n % 3}`,
  product_name: `Cassava lot ${n}`,
  description: 'Sweet cassava, dug this week.',
  price_kobo: 90_000 + n,
  unit: n % 2 ? 'heap' : 'kg',
  unit_weight_kg: n % 2 ? 4 : 1,
  quantity: n % 7 === 0 ? 0 : n,
  status: n % 7 === 0 ? 'sold_out' : 'available',
  price_per_kg_kobo: 90_000,
  tuber_type: 'cassava',
  images: [],
  image_cards: [],
  image_thumbs: [],
  image_ids: [`img-${n}-a`, `img-${n}-b`],
  location: 'Ibadan',
  business_name: 'Old Farm',
  cultural: 'Garri',
  created_at: new Date(Date.parse('2026-10-01T09:00:00.000Z') + n * 60_000),
  revision: 1 + (n % 3),
  feed_bucket: 0,
  deleting: false,
  outbox: [],
  ...extra,
});

beforeAll(async () => {
  db = await mongoose.createConnection(mongoUrl(dbName)).asPromise();
  Product = productModel(db);
  redis = await connectRedis(redisUrl());
  await db
    .collection('product')
    .insertMany([
      ...ids.map((id, n) => product(id, n)),
      product(deletingId, 100, { deleting: true }),
      product(announcedId, 101, { announced: true }),
    ]);
});

afterAll(async () => {
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  await redis?.quit();
});

describe('announce once', () => {
  it('records one snapshot per product not yet announced, and marks it', async () => {
    // One product is being written right now: it waits, the others go.
    const lockedId = ids[3];
    await redis.set(productLockKey(lockedId), 'someone-else', { PX: 60_000 });
    const first = await announceProducts(Product, redis, log, { passes: 2 });
    expect(first).toBe(OLD - 1);
    expect(await Product.countDocuments({ announced: true })).toBe(OLD); // OLD - 1 + the one announced before
    expect((await Product.findOne({ product_id: lockedId }).lean())?.outbox).toEqual([]);

    await redis.del(productLockKey(lockedId));
    expect(await announceProducts(Product, redis, log)).toBe(1);
    expect(await Product.countDocuments({ announced: { $ne: true }, deleting: { $ne: true } })).toBe(0);
  });

  it('the snapshot is a ProductChanged with the whole state, changed ["snapshot"], at the product’s revision', async () => {
    const doc = await Product.findOne({ product_id: ids[5] }).lean();
    expect(doc?.outbox).toHaveLength(1);
    expect(doc!.outbox[0]).toMatchObject({
      subject: 'tuber.catalog.product.changed.v1',
      message_id: snapshotMessageId(ids[5], 3),
      payload: {
        product_id: ids[5],
        farmer_id: 'farmer-2',
        revision: 3,
        changed: ['snapshot'],
        price_kobo: 90_005,
        unit: 'heap',
        quantity: 5,
        status: 'available',
        image_ids: ['img-5-a', 'img-5-b'],
        removed_image_ids: [],
        product_name: 'Cassava lot 5',
      },
    });
    const soldOut = await Product.findOne({ product_id: ids[7] }).lean();
    expect(soldOut!.outbox[0]?.payload).toMatchObject({ quantity: 0, status: 'sold_out', unit: 'heap' });
  });

  it('a second start announces nothing; a product being deleted or already announced is left alone', async () => {
    expect(await announceProducts(Product, redis, log)).toBe(0);
    for (const id of ids) expect((await Product.findOne({ product_id: id }).lean())?.outbox).toHaveLength(1);
    expect((await Product.findOne({ product_id: deletingId }).lean())?.outbox).toEqual([]);
    expect((await Product.findOne({ product_id: announcedId }).lean())?.outbox).toEqual([]);
  });
});
