// The price guide from the market's own events (issue 27, docs/adr/0072), through the gateway against the running
// stack: accepted requests become the week's sold band (checked against quartiles computed by hand), listings live
// this week the asked band; declined and cancelled requests and a suspended farmer's sales do not count; no figure
// from fewer than 5 points or 3 farmers and 3 buyers, so a place with one farmer never has figures of its own; and
// rebuilding the read model from the event stream gives the same figures as the live one. Each run uses places of
// its own, so other tests' sales in the city do not move what is checked here.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '@tuber/kit';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl, natsUrl } from '../../../../test/support/credentials.js';
import { act, buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from '../../../orders/test/integration/orders-support.js';
import { PriceStore } from '../../src/prices/model.js';
import { compareSeries, rebuildPrices } from '../../src/prices/rebuild.js';
import { legacyFrom } from '../../src/prices/follow.js';
import { productModel } from '../../src/domain/product.js';
import mongoose from 'mongoose';

const run = Math.random().toString(36).slice(2, 7);
const TOWN = `Pricetown ${run}`;
const LONE = `Loneville ${run}`;

const farmers: TestAccount[] = [];
const buyers: TestAccount[] = [];
let lone: TestAccount;
let moderator: TestAccount;
const products = new Map<TestAccount, Posted>();
let loneProduct: Posted;

const now = (query: string) => api('GET', `/api/catalog/prices/ginger/now${query}`);
const townNow = () => now(`?location=${encodeURIComponent(TOWN.toUpperCase())}`);

/** A request for `quantity` of the farmer's ginger by the buyer, taken to `until`. */
async function sale(farmer: TestAccount, buyer: TestAccount, until: 'fulfilled' | 'declined' | 'cancelled', product = products.get(farmer)!) {
  const body = requestBody(farmer, [{ product, quantity: 1 }]);
  const sent = await sendWhenKnown(buyer, body);
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  if (until === 'declined') {
    expect((await act(farmer, body.request_id, 'decline', { reason: 'None left' })).status).toBe(200);
    return;
  }
  expect((await act(farmer, body.request_id, 'accept')).status).toBe(200);
  if (until === 'cancelled') expect((await act(buyer, body.request_id, 'cancel', { reason: 'Plans changed' })).status).toBe(200);
  // Fulfilled: a suspension cancels an account's open (and accepted) requests, a fulfilled sale stays a sale.
  else expect((await act(farmer, body.request_id, 'fulfil')).status).toBe(200);
}

/** Waits for the town's figures to satisfy `done` (the read model follows the events a moment later). */
const townFigures = (done: (body: any) => boolean) =>
  eventually(townNow, (answer) => answer.status === 200 && done(answer.body), 20_000).then((answer) => answer.body);

beforeAll(async () => {
  const made = await Promise.all([
    ...[0, 1, 2, 3].map(() => farmerWithProfile({ location: TOWN, tuber: ['ginger'] })),
    farmerWithProfile({ location: LONE, tuber: ['ginger'] }),
    ...[0, 1, 2].map(() => buyerWithProfile()),
    signedInAccount({ role: 'buyer', moderator: true }),
  ]);
  farmers.push(...made.slice(0, 4));
  lone = made[4]!;
  buyers.push(...made.slice(5, 8));
  moderator = made[8]!;
  // ₦2 000, ₦2 200 and ₦2 400 per kg (the third sold by the 5 kg heap), and a fourth far above.
  const [a, b, c, d] = farmers as [TestAccount, TestAccount, TestAccount, TestAccount];
  products.set(a, await newProduct(a, { tuber_type: 'ginger', price: 2000, quantity: 500 }));
  products.set(b, await newProduct(b, { tuber_type: 'ginger', price: 2200, quantity: 500 }));
  products.set(c, await newProduct(c, { tuber_type: 'ginger', price: 12000, unit: 'heap', unit_weight_kg: 5, quantity: 100 }));
  products.set(d, await newProduct(d, { tuber_type: 'ginger', price: 9000, quantity: 500 }));
  loneProduct = await newProduct(lone, { tuber_type: 'ginger', price: 5000, quantity: 500 });
}, 180_000);

afterAll(async () => {
  await Promise.all([...farmers, ...buyers, lone, moderator].filter(Boolean).map((account) => deleteAccount(account.id)));
});

describe('the price guide', () => {
  it('shows no figure of the town until 5 sales by 3 farmers and 3 buyers, then the quartiles computed by hand', async () => {
    const [a, b, c] = farmers as [TestAccount, TestAccount, TestAccount];
    const [x, y, z] = buyers as [TestAccount, TestAccount, TestAccount];
    await sale(a, x, 'fulfilled');
    await sale(b, y, 'fulfilled');
    await sale(c, z, 'fulfilled');
    await sale(a, y, 'fulfilled');
    // 4 sales: the town has no figures of its own, so the city's come back.
    const four = await townFigures((body) => body.scope === 'city');
    expect(four.location).toBeUndefined();

    await sale(b, z, 'fulfilled');
    await sale(c, x, 'fulfilled');
    // Per kg: 2000, 2200, 2400, 2000, 2200, 2400 → sorted 2000 2000 2200 2200 2400 2400:
    // lower quartile at rank 1.25 = 2050, median at 2.5 = 2200, upper quartile at 3.75 = 2350.
    const six = await townFigures((body) => body.scope === 'location' && body.sold?.count === 6);
    expect(six).toMatchObject({ tuber: 'ginger', scope: 'location', location: TOWN, period: 'this_week' });
    expect(six.sold).toEqual({ count: 6, p25: 2050, p50: 2200, p75: 2350 });
    // Four listings live in the town this week: fewer than 5, so no asked figure.
    expect(six.asked).toBeNull();
  });

  it('does not count declined requests, nor accepted ones later cancelled', async () => {
    const d = farmers[3]!;
    await sale(d, buyers[0]!, 'declined');
    await sale(d, buyers[1]!, 'cancelled');
    await sale(d, buyers[2]!, 'cancelled');
    // The cancellations reach the read model like any event: wait for the last one, then check nothing moved.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const body = (await townNow()).body;
    expect(body.sold).toEqual({ count: 6, p25: 2050, p50: 2200, p75: 2350 });
  });

  it('gives the asked figure once 5 listings by 3 farmers are live', async () => {
    await newProduct(farmers[0]!, { tuber_type: 'ginger', price: 2100, quantity: 50 });
    const body = await townFigures((b) => b.asked !== null);
    // 2000, 2100, 2200, 2400 (the heap), 9000: quartiles by hand 2100, 2200, 2400.
    expect(body.asked).toEqual({ count: 5, p25: 2100, p50: 2200, p75: 2400 });
  });

  it('never shows a place with one farmer, however many sales it has', async () => {
    for (const buyer of [...buyers, ...buyers]) await sale(lone, buyer, 'fulfilled', loneProduct);
    // Six sales by three buyers: enough points, but one farmer.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const answer = await now(`?location=${encodeURIComponent(LONE)}`);
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('city');
    expect(answer.body.location).toBeUndefined();
    const history = await api('GET', `/api/catalog/prices/ginger/history?location=${encodeURIComponent(LONE)}`);
    expect(history.body.scope).toBe('city');
    expect(history.body.locations).toContain(TOWN);
    expect(history.body.locations).not.toContain(LONE);
    expect(history.body.weeks).toHaveLength(52);
    // Nothing in an answer names a person.
    const text = JSON.stringify([answer.body, history.body]);
    for (const account of [...farmers, ...buyers, lone]) expect(text).not.toContain(account.id);
  });

  it("leaves a suspended farmer's sales and listings out, and takes them back when restored", async () => {
    const c = farmers[2]!;
    await eventually(
      () => api('GET', `/api/moderation/targets/farmer/${c.id}`, { token: moderator.accessToken }),
      (answer) => answer.status === 200,
      15_000,
    );
    const moderate = (json: unknown) => api('POST', `/api/moderation/targets/farmer/${c.id}/actions`, { token: moderator.accessToken, json });
    expect((await moderate({ action: 'suspend', reason: 'Price guide test' })).status).toBe(201);
    // Without the farmer's two sales and listing: 4 points of each, no figure of the town.
    await townFigures((body) => body.scope === 'city');
    expect((await moderate({ action: 'restore', reason: 'Price guide test over' })).status).toBe(201);
    const back = await townFigures((body) => body.scope === 'location');
    expect(back.sold).toEqual({ count: 6, p25: 2050, p50: 2200, p75: 2350 });
  });

  it('rebuilds from the event stream to the same figures', async () => {
    const bus = await EventBus.connect(natsUrl(), `price-rebuild-test-${run}`, pino({ level: 'silent' }));
    const connection = await mongoose.createConnection(mongoUrl('catalog')).asPromise();
    try {
      const nowMs = Date.now();
      const live = new PriceStore(connection.db!);
      // The live consumers have handled everything published so far.
      await eventually(
        async () => (await live.computeSeries('ginger', nowMs)).find((s) => s.location === TOWN)?.weeks.at(-1)?.sold?.count,
        (count) => count === 6,
      );
      const rebuilt = await rebuildPrices(bus, connection.db!, legacyFrom(productModel(connection)), nowMs, `prices_test_${run}_`);
      try {
        expect(rebuilt.events).toBeGreaterThan(20);
        const { compared, differing } = await compareSeries(rebuilt.store, live, nowMs);
        expect(compared).toBeGreaterThan(1);
        expect(differing).toEqual([]);
        const town = (await rebuilt.store.computeSeries('ginger', nowMs)).find((s) => s.location === TOWN);
        expect(town?.weeks.at(-1)?.sold).toEqual({ count: 6, p25: 2050, p50: 2200, p75: 2350 });
      } finally {
        await rebuilt.store.drop();
      }
    } finally {
      await bus.close();
      await connection.close();
    }
  }, 120_000);
});
