// The feed's search, filters and sort (issue 11, ADR 0029) on a scratch database with the catalog
// built in-process twice: one serving from the Redis read model's search sets, one with the read
// model off (the database path, as while Redis is away or rebuilding). Every question is asked of
// both and must get the same answer, cursors included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { createClient } from 'redis';
import { randomUUID } from 'node:crypto';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { CatalogConfig } from '../../src/config.js';
import { SEARCH_TUNING } from '../../src/domain/read-model.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { mongoUrl, redisUrl } from '../../../../test/support/credentials.js';
import { storedProduct, writeProducts } from './stored-products.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';

const run = randomUUID().slice(0, 8);
const dbName = `catalog_test_search_${run}`;
const prefix = `catalog:test:${run}:`;
const env = { ...serviceEnv('catalog'), MONGO_URL: mongoUrl(dbName), READ_MODEL_PREFIX: prefix };

let buyer: TestAccount;
let db: mongoose.Connection;
let cached: ServiceApp;
let database: ServiceApp;
const redis = createClient({ url: redisUrl() });

interface Seed {
  name: string;
  tuber: string;
  unit?: 'kg' | 'tuber' | 'heap' | 'bag_50kg' | 'lot_100';
  weight?: number;
  price: number; // naira per unit
  status?: 'available' | 'sold_out' | 'next_harvest';
  business?: string;
  location?: string;
  description?: string;
}
const SEEDS: Seed[] = [
  { name: 'White yam tubers', tuber: 'yam', price: 1200, business: 'Àdùkẹ́ Farms', location: 'Ìbàdàn, Oyo' },
  { name: 'Puna yam, big', tuber: 'yam', unit: 'tuber', weight: 4, price: 6000, location: 'Saki, Oyo' },
  { name: 'Yam heap', tuber: 'yam', unit: 'heap', weight: 10, price: 9000, status: 'sold_out', location: 'Ogbomoso' },
  { name: 'Water yam', tuber: 'yam', price: 800, status: 'next_harvest', location: 'Ibadan' },
  { name: 'Cassava for garri', tuber: 'cassava', unit: 'bag_50kg', weight: 50, price: 20000, business: 'Kano Roots', location: 'Kano' },
  { name: 'Sweet cassava', tuber: 'cassava', price: 350, location: 'Abẹ́òkúta' },
  { name: 'Cassava sticks', tuber: 'cassava', price: 300, status: 'sold_out', location: 'Ilorin' },
  { name: 'Irish potatoes', tuber: 'potato', price: 900, location: 'Jos, Plateau' },
  { name: 'Orange sweet potatoes', tuber: 'sweet potato', unit: 'heap', weight: 5, price: 2500, location: 'Makurdi' },
  { name: 'Fresh ginger', tuber: 'ginger', price: 2150, business: 'Kaduna Spice', location: 'Kafanchan, Kaduna' },
  { name: 'Dry ginger', tuber: 'ginger', unit: 'lot_100', weight: 3, price: 6600, location: 'Kaduna' },
  { name: 'Garlic bulbs', tuber: 'garlic', price: 4000, location: 'Kano' },
  { name: 'Turmeric fingers', tuber: 'tumeric', price: 3000, location: 'Ibadan' },
];
// Filler so pages need several requests: cassava at rising prices, some sold out.
for (let n = 0; n < 27; n++) {
  SEEDS.push({
    name: `Cassava lot ${n}`,
    tuber: 'cassava',
    price: 400 + (n % 9) * 50,
    status: n % 5 === 0 ? 'sold_out' : 'available',
    location: 'Ijebu Ode',
  });
}

interface Row {
  product_id: string;
  seed: Seed;
  created_at: Date;
  perKg: number;
}
const rows: Row[] = [];

beforeAll(async () => {
  buyer = await signedInAccount({ role: 'buyer' });
  await redis.connect();
  db = await mongoose.createConnection(mongoUrl(dbName)).asPromise();
  const start = Date.parse('2026-11-20T09:00:00.000Z');
  const docs = SEEDS.map((seed, n) => {
    const weight = seed.weight ?? 1;
    const priceKobo = seed.price * 100;
    const row: Row = {
      product_id: randomUUID(),
      seed,
      created_at: new Date(start + Math.floor(n / 2) * 60_000),
      perKg: Math.round(priceKobo / weight),
    };
    rows.push(row);
    const status = seed.status ?? 'available';
    return storedProduct({
      product_id: row.product_id,
      farmer_id: `farmer-${n % 4}`,
      product_name: seed.name,
      ...(seed.description ? { description: seed.description } : {}),
      price_kobo: priceKobo,
      ...(seed.unit ? { unit: seed.unit } : {}),
      ...(seed.unit === 'tuber' ? { tuber_size: 'large' } : {}),
      unit_weight_kg: weight,
      status,
      ...(status === 'next_harvest' ? { next_harvest: '2027-01-15' } : {}),
      price_per_kg_kobo: row.perKg,
      tuber_type: seed.tuber,
      images: ['http://localhost:8080/files/a.jpg', 'http://localhost:8080/files/b.jpg'],
      location: seed.location ?? 'Ibadan',
      business_name: seed.business ?? `Farm ${n % 4}`,
      created_at: row.created_at,
    });
  });
  await writeProducts(db, docs);
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
  if (buyer) await deleteAccount(buyer.id);
});

interface Item {
  product_id: string;
  product_name: string;
  tuber_type: string;
  price: number;
  price_per_kg: number;
  status: string;
  created_at: string;
}
interface PageBody {
  items: Item[];
  next_cursor: string | null;
}

const get = (app: ServiceApp, url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${buyer.accessToken}` } });

/** Every page of a query, from one copy. */
async function all(app: ServiceApp, query: string, limit = 5): Promise<{ items: Item[]; pages: PageBody[] }> {
  const pages: PageBody[] = [];
  let cursor: string | null = null;
  do {
    const answer = await get(app, `/api/catalog/products?limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as PageBody;
    pages.push(body);
    cursor = body.next_cursor;
  } while (cursor && pages.length < 50);
  return { items: pages.flatMap((p) => p.items), pages };
}

/** The same query from Redis and from the database: same pages, cursors included; the items. */
async function both(query: string, limit = 5): Promise<Item[]> {
  const fromRedis = await all(cached, query, limit);
  const fromDatabase = await all(database, query, limit);
  expect(fromRedis.pages).toEqual(fromDatabase.pages);
  const ids = fromRedis.items.map((i) => i.product_id);
  expect(new Set(ids).size).toBe(ids.length); // no duplicates
  return fromRedis.items;
}

const names = (items: Item[]) => items.map((i) => i.product_name).sort();
const seedNames = (pick: (r: Row) => boolean) =>
  rows
    .filter(pick)
    .map((r) => r.seed.name)
    .sort();

describe('search words', () => {
  it('"isu" (Yoruba) finds the yams, and only them', async () => {
    const items = await both('q=isu');
    expect(names(items)).toEqual(seedNames((r) => r.seed.tuber === 'yam'));
  });

  it('"cass" finds cassava by prefix, whatever the case', async () => {
    const items = await both('q=CASS');
    expect(names(items)).toEqual(seedNames((r) => r.seed.tuber === 'cassava'));
  });

  it('local names in Hausa and Igbo: "rogo" and "akpu" are cassava, "dankali" sweet potato, "citta" ginger', async () => {
    expect(names(await both('q=rogo'))).toEqual(seedNames((r) => r.seed.tuber === 'cassava'));
    expect(names(await both('q=akpu'))).toEqual(seedNames((r) => r.seed.tuber === 'cassava'));
    expect(names(await both('q=dankali'))).toEqual(['Orange sweet potatoes']);
    expect(names(await both('q=citta'))).toEqual(['Dry ginger', 'Fresh ginger']);
  });

  it('ignores accents both ways: "adukẹ" and "ADUKE" find Àdùkẹ́ Farms, "abeokuta" finds Abẹ́òkúta', async () => {
    expect(names(await both(`q=${encodeURIComponent('adùkẹ')}`))).toEqual(['White yam tubers']);
    expect(names(await both('q=ADUKE'))).toEqual(['White yam tubers']);
    expect(names(await both('q=abeokuta'))).toEqual(['Sweet cassava']);
  });

  it('matches the business name and the location, every word (AND)', async () => {
    expect(names(await both('q=kaduna spice'))).toEqual(['Fresh ginger']);
    expect(names(await both('q=kano'))).toEqual(['Cassava for garri', 'Garlic bulbs']);
    expect(names(await both('q=kano garlic'))).toEqual(['Garlic bulbs']);
  });

  it('answers an empty page, no cursor, for words nothing has', async () => {
    for (const app of [cached, database]) {
      const answer = await get(app, '/api/catalog/products?q=zzqx');
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ items: [], next_cursor: null });
    }
  });
});

describe('search that forgives (issue 25)', () => {
  const first = async (app: ServiceApp, query: string) => {
    const answer = await get(app, `/api/catalog/products?limit=5&${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as PageBody & { searched_as?: string; did_you_mean?: string };
  };

  it('"yamm", "casava" and "gingr" find the yams, the cassava and the ginger, and say what they were read as', async () => {
    expect(names(await both('q=yamm'))).toEqual(seedNames((r) => r.seed.tuber === 'yam'));
    expect(names(await both('q=casava'))).toEqual(seedNames((r) => r.seed.tuber === 'cassava'));
    expect(names(await both('q=gingr'))).toEqual(['Dry ginger', 'Fresh ginger']);
    for (const app of [cached, database]) {
      expect((await first(app, 'q=casava')).searched_as).toBe('cassava');
      expect((await first(app, 'q=kano%20gingr')).items).toEqual([]); // every word still counts (AND)
      expect((await first(app, 'q=kaduna%20gingr')).searched_as).toBe('kaduna ginger');
    }
  });

  it('never corrects a word that finds something itself: an exact or prefix match wins', async () => {
    for (const app of [cached, database]) {
      const cass = await first(app, 'q=cass');
      expect(cass.searched_as).toBeUndefined();
      expect(cass.items.length).toBeGreaterThan(0);
    }
  });

  it('"galiki", the Igbo interface’s word for garlic, finds the garlic', async () => {
    expect(names(await both('q=galiki'))).toEqual(seedNames((r) => r.seed.tuber === 'garlic'));
  });

  it('offers a search that would find something when one finds nothing ("ginjar" is 2 edits from ginger)', async () => {
    for (const app of [cached, database]) {
      const page = await first(app, 'q=ginjar');
      expect(page.items).toEqual([]);
      expect(page.did_you_mean).toBe('ginger');
    }
  });
});

describe('filters', () => {
  it('tuber type, several at once', async () => {
    expect(names(await both('tuber=garlic&tuber=ginger'))).toEqual(['Dry ginger', 'Fresh ginger', 'Garlic bulbs']);
    expect(names(await both('tuber=potato'))).toEqual(['Irish potatoes']);
  });

  it('price range in ₦ per kg, across selling units', async () => {
    // ₦ per kg: Puna yam 6000/4 = 1500, yam heap 900, garri bag 400, ginger lot 2200, fresh ginger 2150 (not equal: the ₦ per kg order below must not rest on random product ids), sweet potato heap 500.
    const items = await both('min_price=1000&max_price=2200');
    expect(names(items)).toEqual(seedNames((r) => r.perKg >= 100_000 && r.perKg <= 220_000));
    expect(names(items)).toEqual(expect.arrayContaining(['Puna yam, big', 'Dry ginger', 'Fresh ginger', 'White yam tubers']));
    expect(items.every((i) => i.price_per_kg >= 1000 && i.price_per_kg <= 2200)).toBe(true);
  });

  it('location text by word prefix', async () => {
    expect(names(await both('location=ibad'))).toEqual(['Turmeric fingers', 'Water yam', 'White yam tubers']);
  });

  it('"available now" hides sold-out and next-harvest products', async () => {
    const items = await both('available=true&tuber=yam');
    expect(names(items)).toEqual(['Puna yam, big', 'White yam tubers']);
    const everything = await both('available=true', 12);
    expect(everything.every((i) => i.status === 'available')).toBe(true);
    expect(everything).toHaveLength(rows.filter((r) => (r.seed.status ?? 'available') === 'available').length);
  });

  it('combines search, filters and a sort, paging through with the cursor without gaps or repeats', async () => {
    const items = await both('q=cassava&available=true&max_price=450&sort=price_per_kg', 3);
    const expected = rows
      .filter((r) => r.seed.tuber === 'cassava' && (r.seed.status ?? 'available') === 'available' && r.perKg <= 45_000)
      .sort((a, b) => a.perKg - b.perKg || (a.product_id < b.product_id ? -1 : 1))
      .map((r) => r.product_id);
    expect(items.map((i) => i.product_id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(3);
  });
});

describe('sorts', () => {
  it('newest first by default, sold-out products last', async () => {
    const items = await both('tuber=yam&tuber=cassava', 4);
    const soldOutFrom = items.findIndex((i) => i.status === 'sold_out');
    expect(soldOutFrom).toBeGreaterThan(0);
    expect(items.slice(soldOutFrom).every((i) => i.status === 'sold_out')).toBe(true);
    for (const part of [items.slice(0, soldOutFrom), items.slice(soldOutFrom)]) {
      for (let i = 1; i < part.length; i++) {
        const [a, b] = [part[i - 1]!, part[i]!];
        expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.product_id > b.product_id)).toBe(true);
      }
    }
  });

  it('price per kg and price low to high, product id breaking ties, sold-out last', async () => {
    for (const [sort, key] of [
      ['price_per_kg', 'price_per_kg'],
      ['price', 'price'],
    ] as const) {
      const items = await both(`sort=${sort}`, 7);
      expect(items).toHaveLength(rows.length);
      const soldOutFrom = items.findIndex((i) => i.status === 'sold_out');
      expect(items.slice(soldOutFrom).every((i) => i.status === 'sold_out')).toBe(true);
      for (const part of [items.slice(0, soldOutFrom), items.slice(soldOutFrom)]) {
        for (let i = 1; i < part.length; i++) {
          const [a, b] = [part[i - 1]!, part[i]!];
          expect(
            a[key] < b[key] || (a[key] === b[key] && a.product_id < b.product_id),
            `${sort}: ${a.product_name} before ${b.product_name}`,
          ).toBe(true);
        }
      }
    }
  });

  it('the plain feed puts sold-out products last too, from both copies', async () => {
    const items = await both('', 6);
    expect(items).toHaveLength(rows.length);
    const soldOutFrom = items.findIndex((i) => i.status === 'sold_out');
    expect(soldOutFrom).toBe(rows.length - rows.filter((r) => r.seed.status === 'sold_out').length);
  });
});

describe('the query plans of the read model', () => {
  const QUERIES = [
    'q=cass',
    'tuber=yam&tuber=ginger',
    'available=true&sort=price',
    'min_price=400&max_price=500&sort=price_per_kg',
    'q=kano&available=true',
  ];
  it.each([
    ['walking the order and testing each product', { materialiseBelow: -1, budget: 1_000_000 }],
    ['a walk whose budget runs out, then the intersection', { materialiseBelow: -1, budget: 3 }],
    ['the intersection at once', { materialiseBelow: 1_000_000, budget: 3_000 }],
  ])("give the database path's pages: %s", async (_, tuning) => {
    const saved = { ...SEARCH_TUNING };
    Object.assign(SEARCH_TUNING, tuning);
    try {
      for (const query of QUERIES) expect((await both(query, 4)).length, query).toBeGreaterThan(0);
    } finally {
      Object.assign(SEARCH_TUNING, saved);
    }
  });
});

describe('cursors', () => {
  it("refuses another query's cursor with the 400 that says to reload", async () => {
    const first = (await get(cached, '/api/catalog/products?limit=2&tuber=cassava')).json() as PageBody;
    expect(first.next_cursor).toBeTruthy();
    for (const app of [cached, database]) {
      for (const other of ['tuber=yam', 'tuber=cassava&sort=price', '']) {
        const answer = await get(app, `/api/catalog/products?limit=2&${other}&cursor=${first.next_cursor}`);
        expect(answer.statusCode, other).toBe(400);
        expect(answer.json().message).toBe('The page cursor is not valid. Reload the feed to start again.');
      }
    }
  });

  it('refuses a tuber that is not one of the seven and a negative price with 400', async () => {
    expect((await get(cached, '/api/catalog/products?tuber=banana')).statusCode).toBe(400);
    expect((await get(cached, '/api/catalog/products?min_price=-1')).statusCode).toBe(400);
    expect((await get(cached, '/api/catalog/products?sort=rating')).statusCode).toBe(400);
  });
});

describe('an edited product', () => {
  it('moves in the results when its price and status change (both copies)', async () => {
    const target = rows.find((r) => r.seed.name === 'Fresh ginger')!;
    const cheapest = async () => (await both('tuber=ginger&sort=price_per_kg'))[0]!.product_name;
    expect(await cheapest()).toBe('Fresh ginger');
    await db
      .collection('product')
      .updateOne({ product_id: target.product_id }, { $set: { price_kobo: 900_000, price_per_kg_kobo: 900_000 } });
    await cached.readModel!.refresh(target.product_id, 'farmer-x');
    expect(await cheapest()).toBe('Dry ginger');
    await db.collection('product').updateOne({ product_id: target.product_id }, { $set: { status: 'sold_out', quantity: 0 } });
    await cached.readModel!.refresh(target.product_id, 'farmer-x');
    expect(names(await both('tuber=ginger&available=true'))).toEqual(['Dry ginger']);
    const ginger = await both('tuber=ginger');
    expect(ginger.at(-1)!.product_name).toBe('Fresh ginger');
  });
});

describe('Redis away', () => {
  it('answers from the database while the read model is rebuilt', async () => {
    await redis.unlink([`${prefix}ready`]);
    const during = await get(cached, '/api/catalog/products?q=isu');
    expect(during.statusCode).toBe(200);
    expect(names((during.json() as PageBody).items)).toEqual(seedNames((r) => r.seed.tuber === 'yam'));
    await cached.readModel!.settled();
    expect(await redis.get(`${prefix}ready`)).toBeTruthy();
  });
});
