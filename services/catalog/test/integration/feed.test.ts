// The feed, product by id and "my products" (ADR 0023), on a scratch database with the catalog
// built in-process: products written before feed buckets get theirs at start-up; a crowded hour
// pages newest first with nothing missed or repeated, from the Redis read model and from the
// database alike, with the same answers; the read model is rebuilt when its marker goes, serving
// from the database meanwhile; a deleted product leaves every set; a farmer's new name reaches
// the copies; a cursor of the old hour-based feed gets the 400 that says to reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { createClient } from 'redis';
import { randomUUID } from 'node:crypto';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { CatalogConfig } from '../../src/config.js';
import { FEED_BUCKET_SIZE } from '../../src/domain/product.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { mongoUrl, redisUrl } from '../../../../test/support/credentials.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';

const run = randomUUID().slice(0, 8);
const dbName = `catalog_test_feed_${run}`;
const prefix = `catalog:test:${run}:`;
const COUNT = 260;
const env = { ...serviceEnv('catalog'), MONGO_URL: mongoUrl(dbName), READ_MODEL_PREFIX: prefix };

let buyer: TestAccount;
let farmer: TestAccount;
let db: mongoose.Connection;
let cached: ServiceApp;
let database: ServiceApp;
const redis = createClient({ url: redisUrl() });

interface Seeded {
  product_id: string;
  created_at: Date;
  farmer_id: string;
}
const seeded: Seeded[] = [];

/** Newest first, product id breaking ties: the feed's order. */
const feedOrder = (a: Seeded, b: Seeded) => b.created_at.getTime() - a.created_at.getTime() || (a.product_id < b.product_id ? 1 : -1);

beforeAll(async () => {
  [buyer, farmer] = await Promise.all([signedInAccount({ role: 'buyer' }), signedInAccount({ role: 'farmer' })]);
  await redis.connect();
  db = await mongoose.createConnection(mongoUrl(dbName)).asPromise();
  // Products as the hour-bucket feed (ADR 0014) left them: a feed hour, no bucket. 240 of them
  // within one hour, some sharing a millisecond; the rest on earlier days.
  const hour = Date.parse('2026-11-20T09:00:00.000Z');
  for (let n = 0; n < COUNT; n++) {
    const created_at = n < 240 ? new Date(hour + Math.floor(n / 3) * 1_000) : new Date(hour - (n - 239) * 86_400_000);
    seeded.push({ product_id: randomUUID(), created_at, farmer_id: n % 10 === 0 ? farmer.id : `farmer-${n % 7}` });
  }
  await db.collection('product').insertMany(
    seeded.map((p, n) => ({
      ...p,
      product_name: `Yam lot ${n}`,
      description: 'Fresh white yam tubers from the farm near the river.',
      price_kobo: 150_000 + n,
      kg: 10,
      tuber_type: 'yam',
      images: ['http://localhost:8080/files/a.jpg', 'http://localhost:8080/files/b.jpg'],
      image_cards: ['http://localhost:8080/files/a.jpg.card.webp', 'http://localhost:8080/files/b.jpg.card.webp'],
      image_thumbs: ['http://localhost:8080/files/a.jpg.thumb.webp', 'http://localhost:8080/files/b.jpg.thumb.webp'],
      image_ids: [],
      location: 'Ibadan',
      business_name: `Farm ${n % 7}`,
      cultural: 'New yam festival',
      feed_hour: p.created_at.toISOString().slice(0, 13),
      deleting: false,
      outbox: [],
    })),
  );
  seeded.sort(feedOrder);
  // Both copies leave the running catalog's durable consumers alone.
  cached = await buildApp(loadConfig(CatalogConfig, env), { events: false });
  await cached.readModel!.settled();
  database = await buildApp(loadConfig(CatalogConfig, env), { events: false, readModel: false });
}, 120_000);

afterAll(async () => {
  await cached?.close();
  await database?.close();
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1_000 })) if (keys.length) await redis.unlink(keys);
  await redis.quit();
  await Promise.all([buyer, farmer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const get = (app: ServiceApp, url: string, account: TestAccount = buyer) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${account.accessToken}` } });

async function walk(app: ServiceApp, limit: number) {
  const pages: unknown[] = [];
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const answer = await get(app, `/api/catalog/products?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(answer.statusCode).toBe(200);
    const body = answer.json() as { items: { product_id: string }[]; next_cursor: string | null };
    pages.push(body);
    ids.push(...body.items.map((item) => item.product_id));
    cursor = body.next_cursor;
  } while (cursor && pages.length < 100);
  return { pages, ids };
}

describe('products written before feed buckets', () => {
  it('are numbered oldest first at start-up, at most 100 to a bucket, and the counter continues after them', async () => {
    const docs = await db
      .collection('product')
      .find({}, { projection: { product_id: 1, created_at: 1, feed_bucket: 1 } })
      .toArray();
    expect(docs.every((d) => Number.isInteger(d.feed_bucket))).toBe(true);
    const sizes = new Map<number, number>();
    for (const d of docs) sizes.set(d.feed_bucket, (sizes.get(d.feed_bucket) ?? 0) + 1);
    expect(Math.max(...sizes.values())).toBeLessThanOrEqual(FEED_BUCKET_SIZE);
    // Older products never sit in a newer bucket.
    // Same order as the migration: by created_at, then product id (two may share a millisecond).
    const byAge = [...docs].sort(
      (a, b) => a.created_at.getTime() - b.created_at.getTime() || (String(a.product_id) < String(b.product_id) ? -1 : 1),
    );
    for (let i = 1; i < byAge.length; i++) expect(byAge[i]!.feed_bucket).toBeGreaterThanOrEqual(byAge[i - 1]!.feed_bucket);
    expect((await db.collection('feed_counter').findOne({ _id: 'feed' as never }))?.seq).toBe(COUNT);
  });
});

describe('the feed with 240 products in one hour', () => {
  it.each([5, 12, 48])('pages newest first with nothing missed or repeated, %i at a time, from the database', async (limit) => {
    const { ids } = await walk(database, limit);
    expect(ids).toEqual(seeded.map((p) => p.product_id));
  });

  it('gives the same pages, cursors included, from the Redis read model', async () => {
    const fromRedis = await walk(cached, 12);
    const fromDatabase = await walk(database, 12);
    expect(fromRedis.ids).toEqual(seeded.map((p) => p.product_id));
    expect(fromRedis.pages).toEqual(fromDatabase.pages);
  });

  it('answers a product by id the same from both, and 404 for one that does not exist', async () => {
    const id = seeded[100]!.product_id;
    const [a, b] = [await get(cached, `/api/catalog/products/${id}`), await get(database, `/api/catalog/products/${id}`)];
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe(b.headers['content-type']);
    expect(a.json()).toEqual(b.json());
    const missing = await get(cached, `/api/catalog/products/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'PRODUCT_NOT_FOUND', statusCode: 404, error: 'Not Found', message: 'This product does not exist or has been removed.' });
  });

  it("lists the farmer's own products newest first from both", async () => {
    const [a, b] = [await get(cached, '/api/catalog/products/mine', farmer), await get(database, '/api/catalog/products/mine', farmer)];
    const mine = seeded.filter((p) => p.farmer_id === farmer.id).map((p) => p.product_id);
    expect(a.json().items.map((p: { product_id: string }) => p.product_id)).toEqual(mine);
    expect(
      b
        .json()
        .items.map((p: { product_id: string }) => p.product_id)
        .sort(),
    ).toEqual([...mine].sort());
  });

  it('refuses a cursor of the hour-based feed (ADR 0014) with the 400 that says to reload', async () => {
    const old = Buffer.from(`${seeded[5]!.created_at.toISOString()}|${seeded[5]!.product_id}`).toString('base64url');
    for (const app of [cached, database]) {
      const answer = await get(app, `/api/catalog/products?cursor=${old}`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe('The page cursor is not valid. Reload the feed to start again.');
    }
  });
});

describe('the read model', () => {
  it('is rebuilt when its marker is gone (a flush, a restart), serving from the database meanwhile', async () => {
    await redis.unlink([`${prefix}ready`, `${prefix}feed`]);
    const during = await get(cached, '/api/catalog/products?limit=12');
    expect(during.statusCode).toBe(200);
    expect(during.json().items.map((p: { product_id: string }) => p.product_id)).toEqual(seeded.slice(0, 12).map((p) => p.product_id));
    await cached.readModel!.settled();
    expect(await redis.get(`${prefix}ready`)).toBeTruthy();
    expect(await redis.zCard(`${prefix}feed`)).toBe(COUNT);
  });

  it('loses a deleted product from the feed, the farmer set and its own key', async () => {
    const gone = seeded.find((p) => p.farmer_id === farmer.id)!;
    const deleted = await cached.inject({
      method: 'DELETE',
      url: `/api/catalog/products/${gone.product_id}`,
      headers: { authorization: `Bearer ${farmer.accessToken}` },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await redis.exists(`${prefix}p:${gone.product_id}`)).toBe(0);
    expect(await redis.zScore(`${prefix}feed`, gone.product_id)).toBeNull();
    expect(await redis.zScore(`${prefix}f:${farmer.id}`, gone.product_id)).toBeNull();
    expect((await get(cached, `/api/catalog/products/${gone.product_id}`)).statusCode).toBe(404);
    const mine = (await get(cached, '/api/catalog/products/mine', farmer)).json().items.map((p: { product_id: string }) => p.product_id);
    expect(mine).not.toContain(gone.product_id);
    // A late copy of it (an event re-read before the delete) is not put back.
    await cached.readModel!.refresh(gone.product_id, farmer.id);
    expect(await redis.exists(`${prefix}p:${gone.product_id}`)).toBe(0);
  });

  it("takes a farmer's new name and place onto every product of theirs when refreshed", async () => {
    await db.collection('product').updateMany({ farmer_id: farmer.id }, { $set: { business_name: 'Ada & Sons', location: 'Moniya' } });
    await cached.readModel!.refreshFarmer(farmer.id);
    const items = (await get(cached, '/api/catalog/products/mine', farmer)).json().items as { business_name: string; location: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((p) => p.business_name === 'Ada & Sons' && p.location === 'Moniya')).toBe(true);
  });
});
