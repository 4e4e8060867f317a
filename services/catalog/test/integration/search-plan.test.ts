// The searched page's planner (ADR 0029, SEARCH in read-model.ts) chooses by expected cost: a walk
// of the order needs about want × total / smallest membership tests, materialising copies the
// inputs. On a scratch read model of 700 products (the catalog built in-process, no events), each
// case asks the read model directly and checks the plan it reports, with the tuning fixed here so
// a change of the defaults does not move the cases. The pages themselves are compared with the
// database path in search.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { createClient } from 'redis';
import { randomUUID } from 'node:crypto';
import { TUBER_TYPES } from '@tuber/contracts';
import { loadConfig, type ServiceApp } from '@tuber/kit';
import { buildApp } from '../../src/app.js';
import { CatalogConfig } from '../../src/config.js';
import { SEARCH_TUNING, type SearchPlanChosen } from '../../src/domain/read-model.js';
import { planSearch } from '../../src/domain/search.js';
import { serviceEnv } from '../../../../test/support/env.js';
import { mongoUrl, redisUrl } from '../../../../test/support/credentials.js';
import { storedProduct, writeProducts } from './stored-products.js';

const SIZE = 700;
const run = randomUUID().slice(0, 8);
const dbName = `catalog_test_plan_${run}`;
const prefix = `catalog:test:${run}:`;
const env = { ...serviceEnv('catalog'), MONGO_URL: mongoUrl(dbName), READ_MODEL_PREFIX: prefix };
const redis = createClient({ url: redisUrl() });
let db: mongoose.Connection;
let app: ServiceApp;

beforeAll(async () => {
  await redis.connect();
  db = await mongoose.createConnection(mongoUrl(dbName)).asPromise();
  const start = Date.parse('2026-11-01T09:00:00.000Z');
  const docs = Array.from({ length: SIZE }, (_, n) => {
    const tuber = TUBER_TYPES[n % TUBER_TYPES.length]!;
    // ₦200–₦549 per kg, spread so that ₦300–₦306 holds 2% of the products.
    const perKg = 20_000 + ((n * 37) % 350) * 100;
    const status = n % 10 === 0 ? 'sold_out' : n % 10 === 1 ? 'next_harvest' : 'available';
    return storedProduct({
      product_id: randomUUID(),
      farmer_id: `plan-farmer-${n % 20}`,
      product_name: `${tuber} lot ${n}`,
      price_kobo: perKg,
      status,
      ...(status === 'next_harvest' ? { next_harvest: '2027-03-01' } : {}),
      price_per_kg_kobo: perKg,
      tuber_type: tuber,
      location: 'Ibadan, Oyo',
      business_name: `Farm ${n % 20}`,
      created_at: new Date(start + n * 60_000),
    });
  });
  await writeProducts(db, docs);
  app = await buildApp(loadConfig(CatalogConfig, env), { events: false });
  await app.readModel!.settled();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await db?.dropDatabase().catch(() => undefined);
  await db?.close();
  for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1_000 })) if (keys.length) await redis.unlink(keys);
  await redis.quit();
});

async function plan(query: Record<string, unknown>, tuning: Partial<typeof SEARCH_TUNING> = {}): Promise<SearchPlanChosen> {
  const saved = { ...SEARCH_TUNING };
  Object.assign(SEARCH_TUNING, { budget: 3_000, testCost: 1, copyCost: 1.5, materialiseBelow: 0 }, tuning);
  try {
    const page = await app.readModel!.searchPage(planSearch(query as never), 12);
    expect(page, 'the read model answered').toBeDefined();
    expect(page!.items.length, 'a page of products').toBeGreaterThan(0);
    return page!.plan!;
  } finally {
    Object.assign(SEARCH_TUNING, saved);
  }
}

// A write makes every materialised result stale (the generation in its key).
const write = () => redis.incr(`${prefix}gen`);

describe('the search planner (expected cost)', () => {
  it('walks the order when nothing is filtered: no membership test at all', async () => {
    const chosen = await plan({ sort: 'price' });
    expect(chosen).toMatchObject({ kind: 'walk', smallest: SIZE, total: SIZE, tests: 0 });
  });

  it('walks a broad filter (80% available) instead of copying its 560 products', async () => {
    await write();
    const chosen = await plan({ available: true });
    expect(chosen.kind).toBe('walk');
    expect(chosen.smallest).toBe(560);
    expect(chosen.expectedTests).toBe(16); // 13 × 700 / 560
    expect(chosen.tests).toBeLessThan(60);
  });

  it('materialises a narrow price range (2%), and the next page at the same generation reuses it', async () => {
    await write();
    const query = { min_price: 300, max_price: 306 };
    const first = await plan(query);
    expect(first).toMatchObject({ kind: 'materialise', smallest: 14, copied: 14 });
    expect(first.expectedTests).toBe(650); // 13 × 700 / 14, against (14 + 14) × 1.5 copied
    expect((await plan(query)).kind).toBe('cached');
    await write();
    expect((await plan(query)).kind).toBe('materialise');
  });

  it("keeps a walk's page: asked again at the same generation it is reused, after a write walked again", async () => {
    await write();
    expect((await plan({ available: true })).kind).toBe('walk');
    expect((await plan({ available: true })).kind).toBe('cached');
    await write();
    expect((await plan({ available: true })).kind).toBe('walk');
  });

  it('follows the costs: the same tuber query walks or materialises as copying gets dearer or cheaper', async () => {
    await write();
    // 100 garlic products: a walk of ~91 tests against 100 entries copied.
    expect((await plan({ tuber: ['garlic'] }, { copyCost: 1.5 })).kind).toBe('walk');
    await write();
    expect((await plan({ tuber: ['garlic'] }, { copyCost: 0.5 })).kind).toBe('materialise');
  });

  it('materialises at once a walk expected to spend the budget, however dear copying is', async () => {
    await write();
    const chosen = await plan({ min_price: 300, max_price: 334 }, { budget: 100, copyCost: 1_000 });
    expect(chosen.smallest).toBe(70);
    expect(chosen.expectedTests).toBe(130);
    expect(chosen.kind).toBe('materialise');
  });

  it('falls back to materialising when a walk spends its budget', async () => {
    await write();
    // The budget is looked at after each chunk: the first (200 products) holds only a few of the 14.
    const chosen = await plan({ min_price: 300, max_price: 306 }, { materialiseBelow: -1, budget: 3 });
    expect(chosen.kind).toBe('spent');
    expect(chosen.tests).toBeGreaterThan(3);
  });
});
