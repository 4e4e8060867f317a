// The insight day documents under concurrent writes, on the running database (FerretDB locally), in a
// scratch database of its own. FerretDB 1.24 loses concurrent updates of one document (ADR 0034: 30
// concurrent $inc added 2); the store writes each (product, day) document one at a time, so every
// count must arrive, and a request's count must stay one however many deliveries race.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { closeRedis, connectMongo, connectRedis, type RedisClient } from '@tuber/kit';
import { mongoUrl, redisUrl } from '../../../../test/support/credentials.js';
import { insightDayModel, type InsightDayModel } from '../../src/insights/model.js';
import { InsightStore } from '../../src/insights/store.js';

const database = `orders_insights_${randomUUID().slice(0, 8)}`;
let mongo: Connection;
let redis: RedisClient;
let Day: InsightDayModel;
let store: InsightStore;

beforeAll(async () => {
  mongo = await connectMongo(mongoUrl(database));
  redis = await connectRedis(redisUrl());
  Day = insightDayModel(mongo);
  await Day.init();
  store = new InsightStore(Day, redis, { lockWaitMs: 20_000 });
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
  if (redis) await closeRedis(redis);
});

describe('InsightStore', () => {
  it('keeps every one of 30 counts sent at once to one product and day, the first of them making the document', async () => {
    const product = `p-${randomUUID()}`;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => store.countActivity('farmer-1', product, '2026-06-10', i % 3 === 0 ? 'cart_add' : 'view')),
    );
    const documents = await Day.find({ product_id: product }).lean();
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ farmer_id: 'farmer-1', day: '2026-06-10', view: 20, cart_add: 10 });
  });

  it('counts a request once when 8 deliveries of it race, and each other request once', async () => {
    const product = `p-${randomUUID()}`;
    const request = randomUUID();
    const other = randomUUID();
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => store.countRequest('farmer-1', product, '2026-06-10', 'requests_received', request)),
      store.countRequest('farmer-1', product, '2026-06-10', 'requests_received', other),
    ]);
    expect(results.filter(Boolean)).toHaveLength(2);
    const document = await Day.findOne({ product_id: product }).lean();
    expect(document).toMatchObject({ requests_received: 2 });
    expect([...(document?.received_ids ?? [])].sort()).toEqual([request, other].sort());
    // Accepting is counted on its own, in the same document.
    expect(await store.countRequest('farmer-1', product, '2026-06-10', 'requests_accepted', request)).toBe(true);
    expect(await store.countRequest('farmer-1', product, '2026-06-10', 'requests_accepted', request)).toBe(false);
    expect(await Day.findOne({ product_id: product }).lean()).toMatchObject({ requests_received: 2, requests_accepted: 1 });
  });

  it("reads back a farmer's days in a range only", async () => {
    const product = `p-${randomUUID()}`;
    for (const day of ['2026-05-31', '2026-06-01', '2026-06-07', '2026-06-08']) await store.countActivity('farmer-2', product, day, 'view');
    const records = await store.records('farmer-2', '2026-06-01', '2026-06-07');
    expect(records.map((r) => r.day).sort()).toEqual(['2026-06-01', '2026-06-07']);
    expect(records[0]!.counts.view).toBe(1);
  });
});
