// No stock promised twice (issue 24). Random interleavings of a farmer's accepts, declines, cancels and
// fulfilments, and buyers' cancels, fired in concurrent bursts at the running services (fast-check picks the
// stock, the requests and the bursts). After every burst, the requests the farmer holds accepted or fulfilled
// must ask for no more than the product's stock, every request is in one state of the machine, and no
// call answers 5xx. Before the fix, 12 accepts of 1 unit at once let two through in 4 of 6 trials: the
// accept read the product copy twice, and the catalog's stock change could land between the reads.
// STOCK_RUNS sets how many interleavings run (6 in make test).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { lagosDay, postOrderRequest, postProduct, uploadPhoto } from './support/objects.js';
import { call, type Answer } from './support/stack.js';

const RUNS = Number(process.env.STOCK_RUNS ?? 6);
const FINAL_OR_OPEN = new Set(['sent', 'accepted', 'declined', 'cancelled', 'fulfilled']);

let buyers: Actor[] = [];
const everyone: Actor[] = [];
let sendsByThesePeople = 0;
beforeAll(async () => {
  await freshBuyers();
}, 60_000);
afterAll(() => disposeCast(Object.fromEntries(everyone.map((actor) => [actor.label, actor]))));

/** Two new buyers: a buyer may send 60 requests in 10 minutes, and a long run sends more than that. */
async function freshBuyers() {
  const n = everyone.length;
  buyers = [await makeActor(`stock buyer ${n + 1}`, { role: 'buyer' }), await makeActor(`stock buyer ${n + 2}`, { role: 'buyer' })];
  everyone.push(...buyers);
  sendsByThesePeople = 0;
}

type Step =
  | { kind: 'accept' | 'decline' | 'fulfil' | 'farmer-cancel'; request: number }
  | { kind: 'buyer-cancel'; request: number };

const stepArbitrary = (requests: number) =>
  fc.record({
    kind: fc.constantFrom('accept', 'accept', 'accept', 'decline', 'fulfil', 'farmer-cancel', 'buyer-cancel'),
    request: fc.nat({ max: requests - 1 }),
  }) as fc.Arbitrary<Step>;

const planArbitrary = fc
  .record({
    stock: fc.integer({ min: 1, max: 3 }),
    asks: fc.array(fc.record({ buyer: fc.nat({ max: 1 }), quantity: fc.integer({ min: 1, max: 2 }) }), { minLength: 3, maxLength: 8 }),
  })
  .chain((base) =>
    fc.record({
      stock: fc.constant(base.stock),
      asks: fc.constant(base.asks.map((ask) => ({ ...ask, quantity: Math.min(ask.quantity, base.stock) }))),
      bursts: fc.array(fc.array(stepArbitrary(base.asks.length), { minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 5 }),
    }),
  );

interface Sent {
  id: string;
  buyer: Actor;
  quantity: number;
}

/** A farmer with a product of `stock` heaps, which the orders service already knows. */
async function farmerWithStock(stock: number): Promise<{ farmer: Actor; productId: string; price: number }> {
  const farmer = await makeActor(`stock farmer ${everyone.length + 1}`, { role: 'farmer', businessName: 'Stock Farms', location: 'Ibadan', tuber: ['yam'] });
  everyone.push(farmer);
  const images = [await uploadPhoto(farmer), await uploadPhoto(farmer)];
  const body = {
    product_name: 'Last heaps of yam',
    description: 'Freshly harvested white yam tubers, sorted this morning',
    price: 1500,
    unit: 'heap',
    unit_weight_kg: 5,
    quantity: stock,
    tuber_type: 'yam',
    image_ids: images,
    cultural: 'Central to the New Yam festival',
  };
  const posted = await postProduct(farmer, body);
  expect(posted.status, posted.text.slice(0, 300)).toBe(201);
  return { farmer, productId: posted.body.product_id as string, price: 1500 };
}

async function sendAll(asks: { buyer: number; quantity: number }[], farmer: Actor, productId: string, price: number): Promise<Sent[]> {
  if (sendsByThesePeople + asks.length > 100) await freshBuyers();
  sendsByThesePeople += asks.length;
  const sent: Sent[] = [];
  for (const ask of asks) {
    const buyer = buyers[ask.buyer]!;
    const id = randomUUID();
    const answer = await postOrderRequest(buyer, {
      request_id: id,
      farmer_id: farmer.id,
      lines: [{ product_id: productId, quantity: ask.quantity, price, unit: 'heap' }],
      fulfilment: 'pickup',
      preferred_date: lagosDay(2),
      phone: '08031234567',
    });
    expect(answer.status, `send: ${answer.text.slice(0, 300)}`).toBe(201);
    sent.push({ id, buyer, quantity: ask.quantity });
  }
  return sent;
}

async function run(step: Step, sent: Sent[], farmer: Actor): Promise<Answer> {
  const request = sent[step.request]!;
  const path = (action: string) => `/api/orders/requests/${request.id}/${action}`;
  switch (step.kind) {
    case 'accept':
      return call('POST', path('accept'), { token: await farmer.token(), json: {} });
    case 'decline':
      return call('POST', path('decline'), { token: await farmer.token(), json: { reason: 'Not this week' } });
    case 'fulfil':
      return call('POST', path('fulfil'), { token: await farmer.token(), json: {} });
    case 'farmer-cancel':
      return call('POST', path('cancel'), { token: await farmer.token(), json: { reason: 'The heap went bad' } });
    case 'buyer-cancel':
      return call('POST', path('cancel'), { token: await request.buyer.token(), json: { reason: 'Bought it elsewhere' } });
  }
}

/** Each request's status and accepted quantity, as the farmer's own reads show them. */
async function statuses(sent: Sent[], farmer: Actor): Promise<{ status: string; accepted: number }[]> {
  const token = await farmer.token();
  return Promise.all(
    sent.map(async ({ id }) => {
      const answer = await call('GET', `/api/orders/requests/${id}`, { token });
      expect(answer.status, answer.text.slice(0, 200)).toBe(200);
      const line = (answer.body.lines as { accepted_quantity?: number; quantity: number }[])[0]!;
      return { status: answer.body.status as string, accepted: line.accepted_quantity ?? line.quantity };
    }),
  );
}

describe('accepting never promises more than the stock', () => {
  it(`holds over ${RUNS} random interleavings of accepts, declines, cancels and fulfilments`, async () => {
    const breaks: string[] = [];
    await fc.assert(
      fc.asyncProperty(planArbitrary, async ({ stock, asks, bursts }) => {
        const { farmer, productId, price } = await farmerWithStock(stock);
        const sent = await sendAll(asks, farmer, productId, price);
        for (const [n, burst] of bursts.entries()) {
          const answers = await Promise.all(burst.map((step) => run(step, sent, farmer)));
          for (const answer of answers) expect(answer.status, `a ${answer.status} in burst ${n + 1}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
          const now = await statuses(sent, farmer);
          for (const { status } of now) expect(FINAL_OR_OPEN.has(status), status).toBe(true);
          const promised = now.filter(({ status }) => status === 'accepted' || status === 'fulfilled').reduce((sum, { accepted }) => sum + accepted, 0);
          if (promised > stock) breaks.push(`stock ${stock}, burst ${n + 1} ${JSON.stringify(burst)}: ${promised} promised`);
          expect(promised, `promised after burst ${n + 1} of ${JSON.stringify(bursts)}`).toBeLessThanOrEqual(stock);
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(breaks).toEqual([]);
  }, 60_000 + RUNS * 60_000);

  it('lets exactly one of twelve accepts of the last heap through', async () => {
    const { farmer, productId, price } = await farmerWithStock(1);
    const sent = await sendAll(
      Array.from({ length: 12 }, (_, i) => ({ buyer: i % 2, quantity: 1 })),
      farmer,
      productId,
      price,
    );
    const answers = await Promise.all(sent.map((request) => run({ kind: 'accept', request: sent.indexOf(request) }, sent, farmer)));
    expect(answers.map((answer) => answer.status).filter((status) => status === 200)).toHaveLength(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const promised = (await statuses(sent, farmer)).filter(({ status }) => status === 'accepted');
    expect(promised).toHaveLength(1);
  }, 120_000);
});
