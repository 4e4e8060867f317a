// Feed latency with 10 000 products: the first page and a page deep in the feed (by cursor),
// against the same service's /health as the baseline, measured in this run.
import autocannon from 'autocannon';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { loadConfig } from '@tuber/kit';
import { buildApp } from '../services/catalog/src/app.js';
import { CatalogConfig } from '../services/catalog/src/config.js';
import { encodeCursor } from '../services/catalog/src/domain/cursor.js';
import { feedHourOf } from '../services/catalog/src/domain/product.js';
import { serviceEnv } from '../test/support/env.js';
import { mongoUrl as testMongoUrl } from '../test/support/credentials.js';
import { deleteAccount, signedInAccount } from '../test/support/accounts.js';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const db = 'catalog_bench';
const mongoUrl = testMongoUrl(db);

const connection = await mongoose.createConnection(mongoUrl).asPromise();
const products = connection.collection('product');
const feedDays = connection.collection('feed_day');
const existing = (await products.findOne({ feed_hour: { $exists: true } })) ? await products.countDocuments() : 0;
if (existing !== PRODUCTS) {
  await products.deleteMany({});
  await feedDays.deleteMany({});
  const started = Date.now();
  const base = Date.now() - PRODUCTS * 60_000;
  for (let batch = 0; batch < PRODUCTS; batch += 1000) {
    await products.insertMany(
      Array.from({ length: Math.min(1000, PRODUCTS - batch) }, (_, i) => {
        const n = batch + i;
        return {
          product_id: randomUUID(),
          farmer_id: `farmer-${n % 50}`,
          product_name: `Yam lot ${n}`,
          description: 'Fresh white yam tubers harvested this week from the farm near the river, sorted by size and ready for market.',
          price_kobo: 150_000 + n,
          kg: 10 + (n % 40),
          tuber_type: 'yam',
          images: ['http://localhost:8080/files/a.jpg', 'http://localhost:8080/files/b.jpg'],
          image_cards: ['http://localhost:8080/files/a.jpg.card.webp', 'http://localhost:8080/files/b.jpg.card.webp'],
          image_thumbs: ['http://localhost:8080/files/a.jpg.thumb.webp', 'http://localhost:8080/files/b.jpg.thumb.webp'],
          image_ids: [],
          location: 'Ibadan',
          business_name: `Farm ${n % 50}`,
          cultural: 'New yam festival',
          created_at: new Date(base + n * 60_000),
          feed_hour: feedHourOf(new Date(base + n * 60_000)),
          deleting: false,
          outbox: [],
        };
      }),
    );
  }
  const hours = [...new Set(Array.from({ length: PRODUCTS }, (_, n) => feedHourOf(new Date(base + n * 60_000))))];
  const days = [...new Set(hours.map((h) => h.slice(0, 10)))];
  await feedDays.insertMany(days.map((day) => ({ day, hours: hours.filter((h) => h.startsWith(day)).map((h) => h.slice(11, 13)) })));
  console.log(`seeded ${PRODUCTS} products over ${hours.length} hours in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const middle = await products.find({}).sort({ created_at: -1, product_id: -1 }).skip(Math.floor(PRODUCTS / 2)).limit(1).next();

const app = await buildApp(loadConfig(CatalogConfig, { ...serviceEnv('catalog'), MONGO_URL: mongoUrl }));
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const buyer = await signedInAccount({ role: 'buyer' });
const headers = { authorization: `Bearer ${buyer.accessToken}` };

async function measure(label: string, path: string, auth: boolean) {
  await autocannon({ url: base + path, connections: 4, duration: 1, headers: auth ? headers : {} });
  const r = await autocannon({ url: base + path, connections: 4, duration: DURATION_S, headers: auth ? headers : {} });
  return { label, p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.errors + r.non2xx };
}

const results = [
  await measure('catalog /health (baseline)', '/health', false),
  await measure('feed first page (12)', '/api/catalog/products?limit=12', true),
  await measure(`feed page at item ${Math.floor(PRODUCTS / 2)} (cursor)`, `/api/catalog/products?limit=12&cursor=${encodeCursor({ createdAt: middle!.created_at, productId: middle!.product_id })}`, true),
  await measure('one product by id', `/api/catalog/products/${middle!.product_id}`, true),
];
const baseline = results[0]!;
console.log(`\nfeed latency with ${PRODUCTS} products (${DURATION_S}s each, 4 connections)`);
for (const r of results) {
  console.log(`${r.label.padEnd(36)} p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ratio ${(Math.max(r.p50, 0.5) / Math.max(baseline.p50, 0.5)).toFixed(1)}  errors ${r.errors}`);
}
await app.close();
await connection.close();
await deleteAccount(buyer.id);
