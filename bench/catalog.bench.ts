// The catalog's reads against baselines measured in the same run (issue 10, rows P2, P3, P4, P9;
// ADR 0023; issue 27, row P11: the price guide's lookup against product by id). The catalog under
// test runs in this process on bench databases (`catalog_bench_<n>`, seeded once through the native
// driver and reused while their size and layout match) with its read model under
// `catalog:bench:<n>:` (filled by the service's own rebuild, removed at the end); P3 goes through
// the gateway to the running catalog. P11's price guide read model (`prices_*` in the middle size's
// database) is filled through the service's own PriceStore (a year of places, listings and accepted
// sales, then a recompute of every tuber) and its raw documents reused within the same Lagos week.
// The bench read models live in a Redis of the benchmark's own (bench/support/private-redis.ts), as
// the catalog's read model has its own in production (ADR 0061): with the search sets (issue 25) a
// copy takes ~5 KB per product, so 100 k products do not fit the stack's Redis (256 MB, noeviction:
// the rebuild failed with OOM and every service's Redis writes were refused while it was full).
// BENCH_REDIS=shared puts them in the stack's Redis instead (only sizes that fit).
// Sizes by env for a quick run:
//   BENCH_SIZES=1000,10000,100000  BENCH_DURATION_S=3  BENCH_ROUNDS=3  BENCH_CONNECTIONS=8  BENCH_REDIS=private|shared
// Every series is measured once per round, rounds interleave them all, and the median run counts.
import autocannon from 'autocannon';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { createClient } from 'redis';
import { loadConfig } from '@tuber/kit';
import { buildApp } from '../services/catalog/src/app.js';
import { CatalogConfig } from '../services/catalog/src/config.js';
import { encodeCursor } from '../services/catalog/src/domain/cursor.js';
import {
  FEED_BUCKET_SIZE,
  FEED_COUNTER,
  feedBucketOf,
  toApiProduct,
  type ProductDocument,
} from '../services/catalog/src/domain/product.js';
import { serviceEnv, PUBLIC_URL } from '../test/support/env.js';
import { mongoUrl, readModelRedisUrl, redisUrl } from '../test/support/credentials.js';
import { deleteAccount, signedInAccount } from '../test/support/accounts.js';
import { TUBER_TYPES } from '@tuber/contracts';
import { PriceStore, seriesId } from '../services/catalog/src/prices/model.js';
import { SERIES_CACHE_MS } from '../services/catalog/src/prices/routes.js';
import { locationKey, mondayOf, weekId, weekStartMs } from '../services/catalog/src/prices/figures.js';
import { startPrivateRedis } from './support/private-redis.js';
import { report } from './support/report.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** P3's connections, one loopback address each: at ≤ 30 req/s per address the gateway's limiter never delays (64 → up to ~1 900 req/s). */
const SPREAD = Number(process.env.BENCH_SPREAD ?? 64);
const LAYOUT = 'v1'; // bump when the seeded documents change shape
const CROWDED = 5_000; // products posted within the newest hour of the largest data set
const PER_FARMER = 20; // each farmer has this many products, whatever the size ("my products" stays the same list)
const largest = Math.max(...SIZES);
const smallest = Math.min(...SIZES);
const middle = SIZES.includes(10_000) ? 10_000 : SIZES[Math.floor(SIZES.length / 2)]!;
const deepAt = Math.min(50_000, Math.floor(largest / 2));

type Lean = ProductDocument & { _id?: unknown };

// ---------- seeding ----------

function productAt(n: number, size: number, base: number): Lean {
  // Oldest first: n = 0 is the oldest. The newest CROWDED products of the largest set share one hour.
  const crowdedFrom = size === largest && size > CROWDED * 2 ? size - CROWDED : Infinity;
  const minute = 60_000;
  const createdAt =
    n < crowdedFrom ? base + n * minute : base + crowdedFrom * minute + Math.floor(((n - crowdedFrom) * 3_600_000) / CROWDED / 2);
  return {
    product_id: randomUUID(),
    farmer_id: `bench-farmer-${n % Math.max(1, Math.floor(size / PER_FARMER))}`,
    product_name: `Yam lot ${n}`,
    description: 'Fresh white yam tubers harvested this week from the farm near the river, sorted by size and ready for market.',
    price_kobo: 150_000 + n,
    kg: 10 + (n % 40),
    tuber_type: 'yam',
    images: [`${PUBLIC_URL}/files/a.jpg`, `${PUBLIC_URL}/files/b.jpg`],
    image_cards: [`${PUBLIC_URL}/files/a.jpg.card.webp`, `${PUBLIC_URL}/files/b.jpg.card.webp`],
    image_thumbs: [`${PUBLIC_URL}/files/a.jpg.thumb.webp`, `${PUBLIC_URL}/files/b.jpg.thumb.webp`],
    image_ids: [],
    location: 'Ibadan',
    business_name: `Farm ${n % 50}`,
    cultural: 'New yam festival',
    created_at: new Date(createdAt),
    feed_bucket: feedBucketOf(n + 1),
    deleting: false,
    outbox: [],
  } as unknown as Lean;
}

/** Seeds `catalog_bench_<size>` unless it already holds this layout at this size. */
async function seeded(size: number): Promise<mongoose.Connection> {
  const connection = await mongoose.createConnection(mongoUrl(`catalog_bench_${size}`)).asPromise();
  const db = connection.db!;
  const meta = await db.collection<{ _id: string; size: number; layout: string }>('bench_meta').findOne({ _id: 'seed' });
  if (meta?.size === size && meta.layout === LAYOUT) return connection;
  const started = Date.now();
  await db.collection('product').deleteMany({});
  await db.collection(FEED_COUNTER).deleteMany({});
  const base = Date.now() - (size + 120) * 60_000;
  for (let batch = 0; batch < size; batch += 1_000) {
    await db
      .collection('product')
      .insertMany(Array.from({ length: Math.min(1_000, size - batch) }, (_, i) => productAt(batch + i, size, base)) as never[], {
        ordered: false,
      });
  }
  await db.collection<{ _id: string; seq: number }>(FEED_COUNTER).insertOne({ _id: 'feed', seq: size });
  await db
    .collection<{ _id: string; size: number; layout: string }>('bench_meta')
    .updateOne({ _id: 'seed' }, { $set: { size, layout: LAYOUT } }, { upsert: true });
  console.log(`seeded ${size} products in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return connection;
}

// ---------- the price guide's read model (P11) ----------

const PRICE_LAYOUT = 'p1'; // bump when the raw price documents change shape
const PRICE_PLACES = ['Ibadan', 'Ogbomoso', 'Oyo', 'Iseyin'];
const PRICE_FARMERS = 40; // 10 a place, each listing yam and one other tuber
const PRICE_BUYERS = 120;
const PRICE_SALES = 3_000; // over the 52 weeks the guide shows; the newest 100 in the current week
const PRICE_THIS_WEEK = 100;
const PRICE_PLACE = PRICE_PLACES[0]!; // P11 asks for yam here: a place with figures of its own
const BASE_PER_KG: Record<string, number> = { yam: 700, cassava: 250, 'sweet potato': 450, ginger: 1_200 }; // naira
const OTHER_TUBER = ['cassava', 'sweet potato', 'ginger'] as const;

async function inPool<T>(items: readonly T[], width: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

/**
 * A plausible year of the price guide's raw documents, written through the service's own PriceStore as its
 * event consumers write them (places, listings with a mid-year price change, accepted requests), then every
 * tuber's series recomputed as of now. The raw documents are kept while the layout and the Lagos week match.
 */
async function seededPrices(db: mongoose.mongo.Db): Promise<{ store: PriceStore; sales: number; seedMs?: number; recomputeMs: number }> {
  const store = new PriceStore(db);
  const now = Date.now();
  const week = weekId(mondayOf(now));
  const metaOf = db.collection<{ _id: string; layout: string; week: string; sales: number }>('bench_meta');
  const meta = await metaOf.findOne({ _id: 'prices' });
  const started = Date.now();
  let sales = meta?.sales ?? 0;
  let seedMs: number | undefined;
  if (meta?.layout !== PRICE_LAYOUT || meta.week !== week) {
    await store.drop();
    await store.init();
    const thisWeek = weekStartMs(mondayOf(now));
    const yearStart = weekStartMs(mondayOf(now) - 51 * 7);
    const midYear = yearStart + (thisWeek - yearStart) / 2;
    const farmer = (f: number) => `bench-price-farmer-${f}`;
    const product = (f: number, tuber: string) => `bench-price-${f}-${tuber.replace(/ /g, '-')}`;
    const tubersOf = (f: number) => ['yam', OTHER_TUBER[f % OTHER_TUBER.length]!];
    /** Naira per kg: the tuber's base, a seasonal swing, the farmer's own level, a little noise. */
    const perKg = (tuber: string, f: number, at: number, n: number) =>
      BASE_PER_KG[tuber]! *
      (1 + 0.15 * Math.sin((2 * Math.PI * (at - yearStart)) / (365 * 86_400_000))) *
      (0.9 + (f % 5) * 0.05) *
      (0.97 + ((n * 37) % 7) * 0.01);
    const WEIGHT = 3; // kg per tuber, the unit every listing is sold by
    await inPool(
      Array.from({ length: PRICE_FARMERS }, (_, f) => f),
      8,
      async (f) => {
        await store.place({ farmer_id: farmer(f), location: PRICE_PLACES[f % PRICE_PLACES.length]!, revision: 1 });
        for (const tuber of tubersOf(f)) {
          for (const [revision, at] of [
            [1, yearStart - 7 * 86_400_000],
            [2, midYear],
          ] as const) {
            await store.listingState({
              product_id: product(f, tuber),
              farmer_id: farmer(f),
              revision,
              price_kobo: Math.round(perKg(tuber, f, at, revision) * 100 * WEIGHT),
              unit: 'tuber',
              status: 'available',
              tuber_type: tuber,
              unit_weight_kg: WEIGHT,
              at: new Date(at).toISOString(),
            });
          }
        }
      },
    );
    const older = PRICE_SALES - PRICE_THIS_WEEK;
    const saleAt = (n: number) =>
      n < older
        ? yearStart + ((n + 0.5) / older) * (thisWeek - yearStart)
        : thisWeek + ((n - older + 0.5) / PRICE_THIS_WEEK) * (now - thisWeek);
    await inPool(
      Array.from({ length: PRICE_SALES }, (_, n) => n),
      8,
      async (n) => {
        const f = (n * 13) % PRICE_FARMERS;
        const tuber = n % 5 < 3 ? 'yam' : tubersOf(f)[1]!;
        const at = saleAt(n);
        await store.accepted(
          {
            request_id: `bench-price-request-${n}`,
            farmer_id: farmer(f),
            buyer_id: `bench-price-buyer-${(n * 31) % PRICE_BUYERS}`,
            at: new Date(at).toISOString(),
            lines: [{ product_id: product(f, tuber), unit: 'tuber', price_kobo: Math.round(perKg(tuber, f, at, n) * 100 * WEIGHT) }],
          },
          async () => null,
        );
      },
    );
    sales = await store.sales.countDocuments({});
    await metaOf.updateOne({ _id: 'prices' }, { $set: { layout: PRICE_LAYOUT, week, sales } }, { upsert: true });
    seedMs = Date.now() - started;
  }
  const recomputed = Date.now();
  for (const tuber of TUBER_TYPES) await store.recompute(tuber, Date.now());
  const recomputeMs = Date.now() - recomputed;
  // P11 must ask for a place with figures of its own this week (≥ 5 sales by ≥ 3 farmers and ≥ 3 buyers).
  const local = await store.series.findOne({ _id: seriesId('yam', locationKey(PRICE_PLACE)) });
  const current = local?.weeks.find((w) => w.week === week);
  if (!current?.sold) throw new Error(`the bench price data gave ${PRICE_PLACE} no yam figures of its own this week (${week})`);
  return { store, sales, seedMs, recomputeMs };
}

// ---------- load ----------

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  errors: number;
  /** The same run's latencies to the microsecond (autocannon's p50/p99 above are whole milliseconds). */
  exact?: { p50: number; p99: number; count: number };
}

/** Each response's time as autocannon measured it, recorded in its worker (bench/support/latency-recorder.cjs). */
const RECORDER = fileURLToPath(new URL('./support/latency-recorder.cjs', import.meta.url));

async function cannon(url: string, headers: Record<string, string> = {}, extra: { idReplacement?: boolean } = {}): Promise<Figures> {
  const options = { url, headers, connections: CONNECTIONS, workers: 1, ...extra };
  await autocannon({ ...options, duration: 1 });
  // Room for 60 k responses a second; more are counted, not kept.
  const record = new SharedArrayBuffer(8 + 8 * 60_000 * DURATION_S);
  // In worker mode autocannon takes setupClient as a file path (its types know only the function).
  const recorded = { setupClient: RECORDER as unknown as autocannon.Options['setupClient'], latencyRecord: record };
  const r = await autocannon({ ...options, duration: DURATION_S, ...recorded });
  const kept = Math.min(Atomics.load(new Int32Array(record, 0, 1), 0), (record.byteLength - 8) / 8);
  const times = new Float64Array(record, 8, kept).slice().sort();
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.mean,
    errors: r.errors + r.non2xx + r.timeouts,
    exact: { p50: at(0.5), p99: at(0.99), count: kept },
  };
}

/**
 * Closed-loop load where every connection has its own loopback source address (127.0.1.x): the
 * gateway limits API requests per address (30/s, burst 200, ADR 0019), so one address per
 * connection and few enough requests per address keeps the limiter out of the figures.
 */
async function spread(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Figures> {
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let counting = false;
  const until = Date.now() + 1_000 + seconds * 1_000;
  const countFrom = Date.now() + 1_000;
  const loops = Array.from({ length: connections }, async (_, i) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.${1 + Math.floor(i / 250)}.${2 + (i % 250)}` });
    while (Date.now() < until) {
      const t = performance.now();
      const status = await new Promise<number>((resolve) => {
        const request = http.get(
          { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        request.on('error', () => resolve(0));
      });
      counting ||= Date.now() >= countFrom;
      if (!counting) continue;
      latencies.push(performance.now() - t);
      if (status !== 200) errors += 1;
    }
    agent.destroy();
  });
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    errors,
  };
}

const rps = (f: Figures) =>
  `${f.rps.toFixed(0)} req/s (p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms${f.errors ? `, ${f.errors} errors` : ''})`;
const lat = (f: Figures) =>
  `mean ${f.mean.toFixed(2)} ms (p99 ${f.p99.toFixed(1)} ms, ${f.rps.toFixed(0)} req/s${f.errors ? `, ${f.errors} errors` : ''})`;

// ---------- the native-driver baseline: a bare node:http server on the same FerretDB ----------

/** Reads a product by id, or a feed page the way the fastest native query on FerretDB reads it. */
function bareServer(connections: Map<string, mongoose.Connection>) {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const db = connections.get(url.searchParams.get('db') ?? '')!.db!;
      const products = db.collection<Lean>('product');
      let body: unknown;
      if (url.pathname === '/product') {
        const doc = await products.findOne({ product_id: url.searchParams.get('id')!, deleting: { $ne: true } });
        body = doc ? toApiProduct(doc) : null;
      } else {
        // The first page: the newest bucket(s) by equality (FerretDB pushes only equality down), sorted here.
        const limit = Number(url.searchParams.get('limit') ?? 12);
        const counter = await db.collection<{ _id: string; seq: number }>(FEED_COUNTER).findOne({ _id: 'feed' });
        const items: Lean[] = [];
        for (let bucket = counter ? feedBucketOf(counter.seq) : -1; bucket >= 0 && items.length <= limit; bucket -= 1) {
          items.push(...(await products.find({ feed_bucket: bucket }).toArray()).filter((p) => !p.deleting));
        }
        items.sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.product_id < b.product_id ? 1 : -1));
        body = { items: items.slice(0, limit).map(toApiProduct), next_cursor: null };
      }
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---------- the run ----------

const buyer = await signedInAccount({ role: 'buyer' });
const farmer = await signedInAccount({ role: 'farmer' });
const auth = { authorization: `Bearer ${buyer.accessToken}` };
const ownRedis = process.env.BENCH_REDIS === 'shared' ? undefined : await startPrivateRedis({ maxmemory: '2gb' });
/** Where the bench read models are: their keys are dropped and their memory measured here. */
const redis = createClient({ url: ownRedis?.url ?? redisUrl() });
await redis.connect();
const connections = new Map<string, mongoose.Connection>();
const bare = await bareServer(connections);
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
const startedRun = Date.now();

async function dropKeys(prefix: string) {
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1_000 })) {
    if (keys.length) await redis.unlink(keys);
  }
}

interface SizeFigures {
  size: number;
  rebuildMs: number;
  redisBytes: number;
  first: Figures;
  byId: Figures;
  mine: Figures;
  deep?: Figures;
  idBaseline?: Figures;
  fallbackFirst?: Figures;
  fallbackDeep?: Figures;
}

/** A series measured in every round; rounds interleave all series, so drift on the shared machine hits them alike. */
interface Series {
  key: string;
  measure: () => Promise<Figures>;
  runs: Figures[];
}
const series: Series[] = [];
const add = (key: string, measure: () => Promise<Figures>) => series.push({ key, measure, runs: [] });
const apps: { close(): Promise<unknown> }[] = [];
const restore: (() => Promise<unknown>)[] = [];
const setup = new Map<number, { rebuildMs: number; redisBytes: number }>();
let fallbackUrls: { first: string; deep: string } | undefined;
let prices: (Awaited<ReturnType<typeof seededPrices>> & { url: string }) | undefined;

// Set-up: every size seeded, its catalog built and its read model filled, all kept up for the rounds.
for (const size of SIZES) {
  const connection = await seeded(size);
  connections.set(String(size), connection);
  const prefix = `catalog:bench:${size}:`;
  const env = {
    ...serviceEnv('catalog'),
    MONGO_URL: mongoUrl(`catalog_bench_${size}`),
    READ_MODEL_PREFIX: prefix,
    ...(ownRedis ? { CATALOG_READMODEL_REDIS_URL: ownRedis.url } : {}),
  };
  await dropKeys(prefix);
  restore.push(() => dropKeys(prefix));
  const memoryBefore = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
  const app = await buildApp(loadConfig(CatalogConfig, env), { events: false });
  apps.push(app);
  const rebuildStarted = Date.now();
  await app.readModel!.settled();
  const rebuildMs = Date.now() - rebuildStarted;
  const redisBytes = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]) - memoryBefore;
  setup.set(size, { rebuildMs, redisBytes });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const products = connection.db!.collection<Lean>('product');
  const mid = (await products.findOne({ product_id: { $exists: true } }, { skip: Math.floor(size / 2) }))!;
  const owner = mid.farmer_id;
  // "my products" needs the farmer's own token: the bench farmer takes over one seeded farmer's products.
  await products.updateMany({ farmer_id: owner }, { $set: { farmer_id: farmer.id } });
  restore.push(() => products.updateMany({ farmer_id: farmer.id }, { $set: { farmer_id: owner } }));
  await app.readModel!.refreshFarmer(farmer.id);
  add(`${size}:first`, () => cannon(`${base}/api/catalog/products?limit=12`, auth));
  add(`${size}:byId`, () => cannon(`${base}/api/catalog/products/${mid.product_id}`, auth));
  if (size === middle) add(`${size}:idBaseline`, () => cannon(`${bareUrl}/product?db=${size}&id=${mid.product_id}`));
  if (size === middle) {
    // P11: the farmer's price field (public, no token), answered from the series document and its 5 s cache in the process.
    const seeded = await seededPrices(connection.db!);
    const url = `${base}/api/catalog/prices/yam/now?location=${encodeURIComponent(PRICE_PLACE)}`;
    const answer = (await (await fetch(url)).json()) as { scope?: string; period?: string; sold?: unknown };
    if (answer.scope !== 'location' || answer.period !== 'this_week' || !answer.sold)
      throw new Error(`${url} did not answer ${PRICE_PLACE}'s own figures this week: ${JSON.stringify(answer)}`);
    prices = { ...seeded, url };
    console.log(
      `price guide: ${seeded.sales} sales ${seeded.seedMs === undefined ? 'kept from this week' : `seeded in ${(seeded.seedMs / 1000).toFixed(1)} s`}, figures recomputed in ${(seeded.recomputeMs / 1000).toFixed(1)} s`,
    );
    add(`${size}:price`, () => cannon(url));
    // A place without figures of its own, a different one each request: the cache misses, one read by id finds
    // nothing, then the city's series comes from the cache (autocannon puts a fresh id in place of [<id>]).
    add(`${size}:priceMiss`, () => cannon(`${base}/api/catalog/prices/yam/now?location=elsewhere-[<id>]`, {}, { idReplacement: true }));
  }
  add(`${size}:mine`, () => cannon(`${base}/api/catalog/products/mine`, { authorization: `Bearer ${farmer.accessToken}` }));
  if (size === largest) {
    const deep = (await products.find({}).sort({ feed_bucket: -1 }).skip(deepAt).limit(1).next())!;
    const cursor = encodeCursor({ createdAt: deep.created_at, productId: deep.product_id, bucket: deep.feed_bucket });
    add(`${size}:deep`, () => cannon(`${base}/api/catalog/products?limit=12&cursor=${cursor}`, auth));
    // The database path alone (the read model off): what serves while Redis is away, and what a MongoDB serves.
    const fallback = await buildApp(loadConfig(CatalogConfig, env), { events: false, readModel: false });
    apps.push(fallback);
    await fallback.listen({ port: 0, host: '127.0.0.1' });
    const fb = `http://127.0.0.1:${(fallback.server.address() as AddressInfo).port}`;
    fallbackUrls = { first: `${fb}/api/catalog/products?limit=12`, deep: `${fb}/api/catalog/products?limit=12&cursor=${cursor}` };
  }
  console.log(
    `size ${size} ready: read model rebuilt in ${(rebuildMs / 1000).toFixed(1)} s (${((Date.now() - startedRun) / 1000).toFixed(0)} s so far)`,
  );
}
// P3: the running catalog through the gateway, against the native route reading the same page of the same database.
// The live feed may be empty: 24 products dated a year back are added (the oldest in the feed, so
// nobody's newest products move) and removed again at the end; the running catalog rebuilds its
// read model to take them in (its marker is removed, as a flush would).
const live = await mongoose.createConnection(mongoUrl('catalog')).asPromise();
connections.set('live', live);
const LIVE_FARMER = 'bench-live-farmer';
const liveProducts = live.db!.collection('product');
const liveMarker = 'catalog:rm:ready';
// The running catalog keeps its read model in a Redis of its own (ADR 0061).
const liveRedis = createClient({ url: readModelRedisUrl() });
await liveRedis.connect();
async function refreshLive() {
  await liveRedis.del(liveMarker);
  for (const until = Date.now() + 30_000; Date.now() < until && !(await liveRedis.get(liveMarker));)
    await new Promise((r) => setTimeout(r, 250));
}
await liveProducts.deleteMany({ farmer_id: LIVE_FARMER });
const yearAgo = Date.now() - 365 * 86_400_000;
await liveProducts.insertMany(
  Array.from({ length: 24 }, (_, n) => ({ ...productAt(n, 24, yearAgo), farmer_id: LIVE_FARMER, feed_bucket: 0 })) as never[],
);
restore.push(async () => {
  await liveProducts.deleteMany({ farmer_id: LIVE_FARMER });
  await refreshLive();
});
await refreshLive();
add('gateway', () => spread(`${PUBLIC_URL}/api/catalog/products?limit=12`, auth, SPREAD, DURATION_S));
add('native', () => spread(`${bareUrl}/feed?db=live&limit=12`, {}, SPREAD, DURATION_S));

for (let round = 1; round <= ROUNDS; round++) {
  for (const s of series) s.runs.push(await s.measure());
  console.log(`round ${round}/${ROUNDS} done (${((Date.now() - startedRun) / 1000).toFixed(0)} s so far)`);
}
/** The run with the median throughput. */
const median = (key: string): Figures => {
  const runs = [...series.find((s) => s.key === key)!.runs].sort((a, b) => a.rps - b.rps);
  return runs[Math.floor(runs.length / 2)]!;
};
/** The run with the median exact p50 (P11 compares p50s). */
const medianP50 = (key: string): Figures => {
  const runs = [...series.find((s) => s.key === key)!.runs].sort((a, b) => a.exact!.p50 - b.exact!.p50);
  return runs[Math.floor(runs.length / 2)]!;
};
/** What a cache miss costs the price route at most: one read of the place's series document by id, native driver, one after another. */
async function seriesReads(store: PriceStore, id: string, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count + 20; i++) {
    const t = performance.now();
    await store.series.findOne({ _id: id });
    if (i >= 20) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const doc = await store.series.findOne({ _id: id });
  return {
    p50: times[Math.floor(times.length / 2)]!,
    p99: times[Math.floor(times.length * 0.99)]!,
    bytes: JSON.stringify(doc).length,
    count,
  };
}
const seriesRead = await seriesReads(prices!.store, seriesId('yam', locationKey(PRICE_PLACE)), 200);
const fallbackFirst = await cannon(fallbackUrls!.first, auth);
const fallbackDeep = await cannon(fallbackUrls!.deep, auth);

const bySize = new Map<number, SizeFigures>(
  SIZES.map((size) => [
    size,
    {
      size,
      ...setup.get(size)!,
      first: median(`${size}:first`),
      byId: median(`${size}:byId`),
      mine: median(`${size}:mine`),
      ...(size === middle ? { idBaseline: median(`${size}:idBaseline`) } : {}),
      ...(size === largest ? { deep: median(`${size}:deep`), fallbackFirst, fallbackDeep } : {}),
    },
  ]),
);
const gatewayFeed = median('gateway');
const nativeFeed = median('native');
for (const app of apps) await app.close();
for (const undo of restore) await undo();

// ---------- records ----------

const mid = bySize.get(middle)!;
const big = bySize.get(largest)!;
const small = bySize.get(smallest)!;
const ratio = (a: number, b: number) => a / b;
const perHundredK = (f: SizeFigures) => `${Math.max(0, ((f.redisBytes / f.size) * 100_000) / 2 ** 20).toFixed(0)} MB per 100 k products`;
const method = `autocannon ${CONNECTIONS} connections in a worker thread, 1 s warm-up then ${DURATION_S} s, median of ${ROUNDS} rounds that interleave every series; catalog in-process on catalog_bench_<n> (FerretDB), read model under catalog:bench:<n>: filled by the service's rebuild${ownRedis ? " in a Redis of the benchmark's own (the stack's is capped at 256 MB)" : ''}; buyer/farmer JWT verified on every request`;

const p2 = ratio(mid.byId.rps, mid.idBaseline!.rps);
report({
  id: 'P2',
  title: 'Product by id through the catalog service',
  method: `${method}; ${middle} products; baseline: a bare node:http route reading the same product with the native mongodb driver (findOne by product_id) on the same FerretDB`,
  rows: [
    {
      label: `GET /api/catalog/products/:id (${middle} products)`,
      value: rps(mid.byId),
      baseline: rps(mid.idBaseline!),
      ratio: p2,
      target: '≥ 0.85× req/s',
      pass: p2 >= 0.85,
    },
  ],
  notes: [
    "Served from the Redis read model (one script: marker check + GET of the stored API JSON, sent without re-serialising); the baseline pays FerretDB's sequential scan for an equality filter.",
  ],
});

const p3 = ratio(gatewayFeed.rps, nativeFeed.rps);
report({
  id: 'P3',
  title: 'Feed page through gateway + JWT + catalog',
  method: `closed loop, ${SPREAD} keep-alive connections each from its own loopback address (127.0.1.x), 1 s warm-up then ${DURATION_S} s, median of ${ROUNDS} interleaved rounds, both sides; running catalog (live database plus 24 bench products dated a year back, removed after) behind nginx at ${PUBLIC_URL}; baseline: bare node:http route reading the same first page of the same database with the native driver (newest feed buckets by equality, sorted in the route)`,
  rows: [
    {
      label: 'GET /api/catalog/products?limit=12 via gateway',
      value: rps(gatewayFeed),
      baseline: rps(nativeFeed),
      ratio: p3,
      target: '≥ 0.70× req/s',
      pass: p3 >= 0.7,
    },
  ],
  notes: [
    `The gateway limits API requests to 30/s per client address (burst 200, delay after 100); one source address per connection: ${(gatewayFeed.rps / SPREAD).toFixed(0)} req/s per address through the gateway${gatewayFeed.rps / SPREAD > 30 ? ' — above 30/s, so the limiter may have delayed requests: raise BENCH_SPREAD' : ', under the limit, so the limiter is not what is measured'} (errors count any 429).`,
  ],
});

const deepRatio = big.deep!.mean / big.first.mean;
const crowdRatio = big.first.mean / mid.first.mean;
report({
  id: 'P4',
  title: 'Feed page deep in the feed and in a crowded hour',
  method: `${method}; ${largest} products of which the newest ${CROWDED} were posted within one hour; mean latency`,
  rows: [
    {
      label: `page ${deepAt} items deep (${largest} products)`,
      value: lat(big.deep!),
      baseline: `first page ${lat(big.first)}`,
      ratio: deepRatio,
      target: '≤ 1.5× latency',
      pass: deepRatio <= 1.5,
    },
    {
      label: `first page, newest ${CROWDED} in one hour (${largest} products)`,
      value: lat(big.first),
      baseline: `first page, products spread 1/min (${middle}) ${lat(mid.first)}`,
      ratio: crowdRatio,
      target: '≤ 1.5× latency',
      pass: crowdRatio <= 1.5,
    },
    {
      label: `database path only (read model off): page ${deepAt} deep`,
      value: lat(big.fallbackDeep!),
      baseline: `first page ${lat(big.fallbackFirst!)}`,
      ratio: big.fallbackDeep!.mean / big.fallbackFirst!.mean,
      target: 'reported',
    },
  ],
  notes: [
    `Database path: buckets of at most ${FEED_BUCKET_SIZE} products read by equality, so a crowded hour costs what any hour costs; each read is still one sequential scan on FerretDB (linear in the collection), which the read model avoids.`,
  ],
});

const p9rows = [...bySize.values()].flatMap((f) => {
  const rows = [];
  for (const [label, key] of [
    ['feed first page', 'first'],
    ['product by id', 'byId'],
    ['my products (20)', 'mine'],
  ] as const) {
    const r = small[key].rps / f[key].rps;
    rows.push({
      label: `${label} at ${f.size}`,
      value: lat(f[key]),
      baseline: `${smallest}: ${lat(small[key])}`,
      ratio: r,
      target: '≤ 1.5× latency (req/s at 1 k ÷ here)',
      pass: r <= 1.5,
    });
  }
  return rows;
});
report({
  id: 'P9',
  title: 'Feed, product and "my products" as the catalogue grows',
  method: `${method}; ${SIZES.join(', ')} products`,
  rows: p9rows,
  notes: [
    `Read model size in Redis: ${perHundredK(big)} (measured at ${largest}); rebuild from MongoDB: ${[...bySize.values()].map((f) => `${f.size}: ${(f.rebuildMs / 1000).toFixed(1)} s`).join(', ')}.`,
  ],
});

const priceHit = medianP50(`${middle}:price`);
const priceMiss = medianP50(`${middle}:priceMiss`);
const idP50 = medianP50(`${middle}:byId`);
const exact = (f: Figures) =>
  `p50 ${f.exact!.p50.toFixed(2)} ms (p99 ${f.exact!.p99.toFixed(2)} ms, ${f.rps.toFixed(0)} req/s${f.errors ? `, ${f.errors} errors` : ''})`;
const p11 = ratio(priceHit.exact!.p50, idP50.exact!.p50);
const idBaseline = `GET /api/catalog/products/:id (${middle} products) ${exact(idP50)}`;
report({
  id: 'P11',
  title: "Price guide lookup (the farmer's price field) vs product by id",
  method: `autocannon ${CONNECTIONS} connections in a worker thread, 1 s warm-up then ${DURATION_S} s, in the same ${ROUNDS} interleaved rounds as P2 and P9, the round with the median p50 counts; p50/p99 from each response's time as autocannon measures it (to the microsecond; its own histogram keeps whole milliseconds); catalog in-process on catalog_bench_${middle} (FerretDB), the price guide's read model (prices_*) in the same database, filled through the service's PriceStore: ${PRICE_FARMERS} farmers in ${PRICE_PLACES.length} places, ${PRICE_BUYERS} buyers, ${prices!.sales} accepted sales over 52 weeks (${PRICE_THIS_WEEK} in the current week), listings with a mid-year price change, then recompute of every tuber; baseline: product by id on the same catalog (buyer JWT, Redis read model), the series P2 and P9 report`,
  rows: [
    {
      label: `GET /api/catalog/prices/yam/now?location=${PRICE_PLACE} (a place with its own figures)`,
      value: exact(priceHit),
      baseline: idBaseline,
      ratio: p11,
      target: '≤ 1.5× p50',
      pass: p11 <= 1.5,
    },
    {
      label: "the same with a different place each request (cache miss: one read by id that finds nothing, then the city's cached series)",
      value: exact(priceMiss),
      baseline: idBaseline,
      ratio: ratio(priceMiss.exact!.p50, idP50.exact!.p50),
      target: 'reported',
    },
    {
      label: `one read of the series document by id (yam at ${PRICE_PLACE}, ${(seriesRead.bytes / 1024).toFixed(1)} KB as JSON), native driver, one read at a time`,
      value: `p50 ${seriesRead.p50.toFixed(2)} ms (p99 ${seriesRead.p99.toFixed(2)} ms, ${seriesRead.count} reads)`,
      target: 'reported',
    },
  ],
  notes: [
    `The route reads a place's series by id and keeps it ${SERIES_CACHE_MS / 1000} s in the process, so under load all but one request per place per ${SERIES_CACHE_MS / 1000} s are answered from memory (the first row); a miss adds one read of the series document (the third row) to the request.`,
    "The price routes are public: their requests carry no token; product by id carries the buyer's (verified once, then kept by the kit).",
    'The in-process catalog is built with events off, so no price consumer runs: the series are what the recompute after seeding wrote; the price routes are registered all the same, on the same database.',
    `The miss row asked ${priceMiss.exact!.count} distinct places in its counted run; the cache keeps an entry for each until it is asked again.`,
  ],
});

console.log(`\ncatalog bench done in ${((Date.now() - startedRun) / 1000).toFixed(0)} s`);
bare.close();
await redis.quit();
await ownRedis?.stop();
await liveRedis.quit();
for (const connection of connections.values()) await connection.close();
await Promise.all(
  [buyer, farmer].map((a) =>
    deleteAccount(a.id).catch((err: unknown) => console.warn(`could not delete bench account ${a.id}: ${String(err)}`)),
  ),
);
