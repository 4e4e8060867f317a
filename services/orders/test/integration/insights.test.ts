// Farmer insights (issue 12, ADR 0034) through the gateway against the running orders service: buyers'
// views, contact clicks and cart adds (POST /api/orders/activity) and order requests (from the order
// events) counted per product and Lagos day, read back by the farmer (GET /api/orders/insights).
// The order events are published on NATS directly, as the orders service publishes them; "delivered
// twice" is the same event under two message ids, which JetStream's de-duplication cannot hide.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createClient } from 'redis';
import { ACTIVITY_KINDS, INSIGHT_COUNTS, OrderAccepted, OrderSent, type Insights } from '@tuber/contracts';
import { EventBus } from '@tuber/kit';
import { api, eventually, type ApiAnswer } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { natsUrl, redisUrl } from '../../../../test/support/credentials.js';
import { PUBLIC_URL } from '../../../../test/support/env.js';
import { farmerWithProfile, postProduct, productBody, uploadPhotos } from '../../../catalog/test/integration/farmer-support.js';
import { lagosDay } from '../../src/insights/days.js';
import { ACTIVITY_LIMIT } from '../../src/insights/routes.js';
import { INSIGHT_KEYS } from '../../src/insights/store.js';

let farmer: TestAccount;
let buyer: TestAccount;
let otherBuyer: TestAccount;
let bus: EventBus;
let yam: string;
let cassava: string;

const activity = (account: TestAccount | undefined, json: unknown) =>
  api('POST', '/api/orders/activity', { ...(account ? { token: account.accessToken } : {}), json });
const insights = (account: TestAccount, query = ''): Promise<ApiAnswer<Insights>> =>
  api('GET', `/api/orders/insights${query}`, { token: account.accessToken });
const row = (answer: ApiAnswer<Insights>, productId: string) => answer.body.products.find((p) => p.product_id === productId);

async function newProduct(name: string, tuber_type: string): Promise<string> {
  const photos = await uploadPhotos(farmer, 2);
  const posted = await postProduct(
    farmer,
    productBody(
      photos.map((p) => p.id),
      { product_name: name, tuber_type },
    ),
  );
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  return posted.body.product_id;
}

beforeAll(async () => {
  // The service's own 401 (not the gateway's 404): /api/orders/ reaches a running orders service.
  const wired = await api('GET', '/api/orders/insights');
  if (wired.status !== 401)
    throw new Error(
      `GET /api/orders/insights answered ${wired.status} through the gateway, not the orders service's 401: is it running and routed?`,
    );
  [farmer, buyer, otherBuyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Insight Farm', location: 'Oyo', tuber: ['yam', 'cassava'] }),
    signedInAccount({ role: 'buyer' }),
    signedInAccount({ role: 'buyer' }),
  ]);
  bus = await EventBus.connect(natsUrl(), 'insights-test', pino({ level: 'silent' }));
  yam = await newProduct('Insight white yam', 'yam');
  cassava = await newProduct('Insight cassava', 'cassava');
  // The orders service learns of products by event: wait until its projection lists both.
  const known = await eventually(
    () => insights(farmer),
    (a) => a.status === 200 && [yam, cassava].every((id) => row(a, id)),
    20_000,
  );
  expect(known.status, JSON.stringify(known.body)).toBe(200);
});

afterAll(async () => {
  await bus?.close();
  await Promise.all([farmer, buyer, otherBuyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('GET /api/orders/insights', () => {
  it('answers a farmer with nothing counted yet: zeros, every product listed, 7 days ending today in Lagos', async () => {
    const answer = await insights(farmer);
    expect(answer.status).toBe(200);
    expect(answer.body.days).toBe(7);
    expect(answer.body.daily).toHaveLength(7);
    expect(answer.body.daily.at(-1)!.day).toBe(lagosDay(new Date()));
    for (const key of INSIGHT_COUNTS) expect(answer.body.totals[key]).toBe(0);
    expect(row(answer, yam)).toMatchObject({ product_name: 'Insight white yam' });
    expect(row(answer, cassava)).toMatchObject({ product_name: 'Insight cassava' });
  });

  it('gives 30 days, oldest first, with days=30', async () => {
    const answer = await insights(farmer, '?days=30');
    expect(answer.status).toBe(200);
    expect(answer.body.days).toBe(30);
    const days = answer.body.daily.map((d) => d.day);
    expect(days).toHaveLength(30);
    expect([...days].sort()).toEqual(days);
    expect(days.at(-1)).toBe(lagosDay(new Date()));
  });

  it('refuses a buyer with 403, no token with 401, and a window other than 7 or 30 with 400', async () => {
    const asBuyer = await insights(buyer);
    expect(asBuyer.status).toBe(403);
    expect(asBuyer.body).toMatchObject({ statusCode: 403, message: expect.stringMatching(/farmer/i) });
    expect((await api('GET', '/api/orders/insights')).status).toBe(401);
    const fortnight = await insights(farmer, '?days=14');
    expect(fortnight.status).toBe(400);
    expect(fortnight.body.message).toMatch(/days/);
  });
});

describe('POST /api/orders/activity', () => {
  it("counts a buyer's view twice within a minute once, and the farmer's own view not at all", async () => {
    const own = await activity(farmer, { product_id: yam, kind: 'view' });
    expect(own.status).toBe(204);
    expect(row(await insights(farmer), yam)!.counts.view).toBe(0);

    expect((await activity(buyer, { product_id: yam, kind: 'view' })).status).toBe(204);
    expect((await activity(buyer, { product_id: yam, kind: 'view' })).status).toBe(204);
    const answer = await insights(farmer);
    expect(row(answer, yam)!.counts.view).toBe(1);
    expect(answer.body.totals.view).toBe(1);
    expect(answer.body.daily.at(-1)!.counts.view).toBe(1);
    // Another buyer's view is another view; the farmer's own, again, still nothing.
    expect((await activity(otherBuyer, { product_id: yam, kind: 'view' })).status).toBe(204);
    expect((await activity(farmer, { product_id: yam, kind: 'view' })).status).toBe(204);
    expect(row(await insights(farmer), yam)!.counts.view).toBe(2);
  });

  it('counts distinct buyers: another farmer counts for nothing, and a buyer once a day, not once a minute (issue 24)', async () => {
    const competitor = await signedInAccount({ role: 'farmer' });
    try {
      const before = row(await insights(farmer), yam)!.counts;
      for (const kind of ['view', 'contact_phone'] as const) {
        expect((await activity(competitor, { product_id: yam, kind })).status).toBe(204);
      }
      const after = row(await insights(farmer), yam)!.counts;
      expect({ view: after.view, contact_phone: after.contact_phone }).toEqual({ view: before.view, contact_phone: before.contact_phone });
      // The buyer's view of this test file counted once; its record holds for the rest of the Lagos day.
      const redis = createClient({ url: redisUrl('tuber-test') });
      await redis.connect();
      try {
        const ttl = await redis.ttl(INSIGHT_KEYS.seen(lagosDay(new Date()), buyer.id, yam, 'view'));
        expect(ttl).toBeGreaterThan(24 * 3600);
      } finally {
        await redis.quit();
      }
    } finally {
      await deleteAccount(competitor.id);
    }
  });

  it('counts every kind, sent all at once by two buyers, without losing one (one document per product and day)', async () => {
    const kinds = ACTIVITY_KINDS.filter((k) => k !== 'view');
    const answers = await Promise.all(
      [buyer, otherBuyer].flatMap((who) => kinds.map((kind) => activity(who, { product_id: cassava, kind }))),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 204));
    const counts = row(await insights(farmer), cassava)!.counts;
    for (const kind of kinds) expect(counts[kind], kind).toBe(2);
    expect(counts.view).toBe(0);
  });

  it('answers 404 for a product that does not exist, 400 for an unknown kind, 401 without a token', async () => {
    const missing = await activity(buyer, { product_id: `no-such-${randomUUID()}`, kind: 'view' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/does not exist/);
    const badKind = await activity(buyer, { product_id: yam, kind: 'stare' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.message).toMatch(/kind/);
    expect((await activity(buyer, { product_id: yam, kind: 'view', extra: 1 })).status).toBe(400);
    expect((await activity(undefined, { product_id: yam, kind: 'view' })).status).toBe(401);
  });

  it(`limits a user to ${ACTIVITY_LIMIT.max} reports a minute (429 with Retry-After)`, async () => {
    const spammer = await signedInAccount({ role: 'buyer' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < ACTIVITY_LIMIT.max; i++) statuses.push((await activity(spammer, { product_id: yam, kind: 'view' })).status);
      expect(new Set(statuses)).toEqual(new Set([204]));
      const over = await fetch(`${PUBLIC_URL}/api/orders/activity`, {
        method: 'POST',
        headers: { authorization: `Bearer ${spammer.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ product_id: yam, kind: 'view' }),
      });
      expect(over.status).toBe(429);
      // The service's own Retry-After, alone: the gateway adds its generic 60 only to its own 429s.
      expect(over.headers.get('retry-after')).toMatch(/^[0-9]+$/);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await over.json()).message).toMatch(/Too many activity reports/);
      // Its first report counted once, like any repeat within the minute.
      expect(row(await insights(farmer), yam)!.counts.view).toBe(3);
    } finally {
      await deleteAccount(spammer.id);
    }
  });
});

describe('requests received and accepted (order events)', () => {
  const event = (requestId: string, productIds: string[]) => ({
    request_id: requestId,
    number: `TM-${requestId.slice(0, 6).toUpperCase()}`,
    buyer_id: buyer.id,
    farmer_id: farmer.id,
    lines: productIds.map((product_id) => ({ product_id, unit: 'kg', quantity: 1, price_kobo: 250_000 })),
    revision: 1,
    at: new Date().toISOString(),
  });
  const publishTwice = async (contract: typeof OrderSent | typeof OrderAccepted, payload: ReturnType<typeof event>) => {
    for (const copy of ['first', 'again'])
      await bus.publish(contract, payload, `insights-test:${payload.request_id}:${copy}:${randomUUID()}`);
  };

  it('counts a request once per product when its events are delivered twice', async () => {
    const first = randomUUID();
    // Two lines of the same product count one request for it; the other product gets one too.
    await publishTwice(OrderSent, event(first, [yam, yam, cassava]));
    await publishTwice(OrderAccepted, { ...event(first, [yam]), revision: 2 });
    // A second request after them: once it is counted, both copies of the first have been handled
    // (each consumer takes its events in order).
    const second = randomUUID();
    await bus.publish(OrderSent, event(second, [yam]), `insights-test:${second}:sent`);
    await bus.publish(OrderAccepted, { ...event(second, [yam]), revision: 2 }, `insights-test:${second}:accepted`);

    const answer = await eventually(
      () => insights(farmer),
      (a) => row(a, yam)?.counts.requests_received === 2 && row(a, yam)?.counts.requests_accepted === 2,
      20_000,
    );
    expect(row(answer, yam)!.counts).toMatchObject({ requests_received: 2, requests_accepted: 2 });
    expect(row(answer, cassava)!.counts).toMatchObject({ requests_received: 1, requests_accepted: 0 });
    expect(answer.body.totals).toMatchObject({ requests_received: 3, requests_accepted: 2 });
    expect(answer.body.daily.at(-1)!.counts).toMatchObject({ requests_received: 3, requests_accepted: 2 });
  });
});
