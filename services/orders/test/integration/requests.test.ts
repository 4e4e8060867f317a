// Order requests through the gateway against the running stack (issue 12): sending (201, the same
// request again 200), refusals a buyer can act on, who may see and change what, every transition
// and the illegal ones, unread counts, bad input.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE_E164_PROBLEM } from '@tuber/contracts';
import { SEND_LIMIT } from '../../src/routes/requests.js';
import mongoose from 'mongoose';
import { api, eventually } from '../../../../test/support/api.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { patchProduct } from '../../../catalog/test/integration/farmer-support.js';
import {
  act,
  buyerWithProfile,
  farmerWithProfile,
  getRequest,
  newProduct,
  requestBody,
  send,
  sendWhenKnown,
  unread,
  type Posted,
} from './orders-support.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let buyer: TestAccount;
let otherBuyer: TestAccount;
/** Sends the refused and bad requests (they count towards the send limit too). */
let carefulBuyer: TestAccount;
let yam: Posted;
let cassava: Posted;

beforeAll(async () => {
  [farmer, otherFarmer, buyer, otherBuyer, carefulBuyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Orders Test Farm', tuber: ['yam', 'cassava'] }),
    farmerWithProfile({ businessName: 'Other Farm', tuber: ['yam'] }),
    buyerWithProfile(),
    buyerWithProfile(),
    buyerWithProfile(),
  ]);
  // The farmer's business name reaches the orders service by its own event (FarmerProfileChanged),
  // independently of the products': a request sent before it is shown with the name once it is there.
  // The first test compares whole answers, so it starts once the name is known.
  const orders = await mongoose.createConnection(mongoUrl('orders')).asPromise();
  const known = await eventually(
    () => orders.collection('contacts').findOne({ user_id: farmer.id }, { projection: { business_name: 1 } }),
    (contact) => contact?.business_name === 'Orders Test Farm',
    30_000,
  );
  await orders.close();
  expect(known?.business_name, 'the orders service knows the farmer').toBe('Orders Test Farm');
  yam = await newProduct(farmer, { price: 2500, quantity: 100 });
  cassava = await newProduct(farmer, { price: 800, quantity: 50, tuber_type: 'cassava', product_name: 'Cassava tubers' });
});

afterAll(async () => {
  await Promise.all([farmer, otherFarmer, buyer, otherBuyer, carefulBuyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('sending a request', () => {
  it('answers 201 with the request, and the same request_id again 200 with the same request', async () => {
    const body = requestBody(farmer, [
      { product: yam, quantity: 4 },
      { product: cassava, quantity: 2.5 },
    ]);
    const first = await sendWhenKnown(buyer, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      request_id: body.request_id,
      number: expect.stringMatching(/^TM-\d+$/),
      buyer_id: buyer.id,
      buyer_name: 'Test Buyer',
      buyer_phone: '2348031234567',
      farmer_id: farmer.id,
      business_name: 'Orders Test Farm',
      status: 'sent',
      revision: 1,
      unread: false,
      fulfilment: 'pickup',
      note: 'Please pack in sacks',
      total: 4 * 2500 + 2.5 * 800,
      history: [{ status: 'sent', by: 'buyer' }],
    });
    expect(first.body.lines).toEqual([
      { product_id: yam.product_id, product_name: yam.product_name, unit: 'kg', quantity: 4, price: 2500, line_total: 10000 },
      { product_id: cassava.product_id, product_name: cassava.product_name, unit: 'kg', quantity: 2.5, price: 800, line_total: 2000 },
    ]);
    const again = await send(buyer, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // The farmer sees it, unread.
    const seen = await getRequest(farmer, body.request_id);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ number: first.body.number, unread: true });
  });

  it('refuses a sold-out product, more than is in stock and a changed price, saying what to do', async () => {
    const product = await newProduct(farmer, { price: 1000, quantity: 10 });
    const above = await sendWhenKnown(carefulBuyer, requestBody(farmer, [{ product, quantity: 12 }]));
    expect(above.status).toBe(409);
    expect(above.body).toMatchObject({
      statusCode: 409,
      problems: [{ product_id: product.product_id, problem: 'above_stock', available: 10, unit: 'kg' }],
      message: `Only 10 kg of ${product.product_name} left; lower the quantity and send again.`,
    });

    expect((await patchProduct(farmer, product.product_id, { price: 1200 })).status).toBe(200);
    // Probes that cannot create a request: until the new price is here, 1200 is refused as changed.
    await eventually(
      () => send(carefulBuyer, requestBody(farmer, [{ product, quantity: 1000, price: 1200 }])),
      (answer) => answer.body?.problems?.[0]?.problem === 'above_stock',
    );
    const changed = await send(carefulBuyer, requestBody(farmer, [{ product, quantity: 1 }]));
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({
      problems: [{ product_id: product.product_id, problem: 'price_changed', price: 1200 }],
      message: `The price of ${product.product_name} changed to ₦1,200.00 per kg; confirm the new price and send again.`,
    });
    // Confirmed at the new price, it goes.
    expect((await send(carefulBuyer, requestBody(farmer, [{ product, quantity: 1, price: 1200 }]))).status).toBe(201);

    expect((await patchProduct(farmer, product.product_id, { status: 'sold_out' })).status).toBe(200);
    const soldOut = await eventually(
      () => send(carefulBuyer, requestBody(farmer, [{ product, quantity: 1000, price: 1200 }])),
      (answer) => answer.body?.problems?.[0]?.problem !== 'above_stock',
    );
    expect(soldOut.status).toBe(409);
    expect(soldOut.body).toMatchObject({
      problems: [{ product_id: product.product_id, problem: 'sold_out' }],
      message: `${product.product_name} is sold out; remove it from your cart and send again.`,
    });
    const unknown = await send(carefulBuyer, requestBody(farmer, [{ product: { ...product, product_id: randomUUID() }, quantity: 1 }]));
    expect(unknown.status).toBe(409);
    expect(unknown.body.problems).toMatchObject([{ problem: 'unavailable' }]);
  });

  it('refuses bad input with 400 and a sentence', async () => {
    const ok = () => requestBody(farmer, [{ product: yam, quantity: 1 }]);
    const cases: [unknown, RegExp | string][] = [
      [{ ...ok(), phone: '12345678' }, PHONE_E164_PROBLEM],
      [{ ...ok(), phone: '+44 20 7946 0958' }, PHONE_E164_PROBLEM],
      [{ ...ok(), fulfilment: 'delivery' }, /delivery address/],
      [{ ...ok(), preferred_date: '2020-01-01' }, /has passed/],
      [{ ...ok(), preferred_date: '2030-02-30' }, /preferred_date/],
      [{ ...ok(), request_id: 'not-a-uuid' }, /request_id/],
      [{ ...ok(), lines: [] }, /lines/],
      [{ ...ok(), lines: [{ product_id: yam.product_id, quantity: 0, price: 2500, unit: 'kg' }] }, /quantity/],
      [{ ...ok(), lines: [{ product_id: yam.product_id, quantity: 1.234, price: 2500, unit: 'kg' }] }, /2 decimals/],
      [{ ...ok(), status: 'accepted' }, /status/],
      [{ ...ok(), farmer_id: otherFarmer.id }, /sold by another farmer/],
      [
        {
          ...ok(),
          lines: [
            { product_id: yam.product_id, quantity: 1, price: 2500, unit: 'kg' },
            { product_id: yam.product_id, quantity: 2, price: 2500, unit: 'kg' },
          ],
        },
        /twice/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await send(carefulBuyer, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      if (typeof message === 'string') expect(answer.body.message).toBe(message);
      else expect(answer.body.message).toMatch(message);
    }
  });

  it('limits how many requests one buyer sends in ten minutes (429 with when to try again)', async () => {
    const hasty = await buyerWithProfile();
    try {
      const bad = { ...requestBody(farmer, [{ product: yam, quantity: 1 }]), phone: 'x' };
      const answers = [];
      for (let i = 0; i <= SEND_LIMIT.max; i++) answers.push((await send(hasty, bad)).status);
      expect(answers.slice(0, SEND_LIMIT.max).every((status) => status === 400)).toBe(true);
      const last = await send(hasty, requestBody(farmer, [{ product: yam, quantity: 1 }]));
      expect(last.status).toBe(429);
      expect(last.body.message).toMatch(/Too many order requests\. Please wait \d+ seconds/);
      // Another buyer is not held back.
      expect((await send(otherBuyer, bad)).status).toBe(400);
    } finally {
      await deleteAccount(hasty.id);
    }
  });
});

describe('who may do what', () => {
  let requestId: string;
  beforeAll(async () => {
    const body = requestBody(farmer, [{ product: yam, quantity: 1 }]);
    const sent = await sendWhenKnown(buyer, body);
    expect(sent.status).toBe(201);
    requestId = body.request_id;
  });

  it('needs a token', async () => {
    expect((await api('GET', '/api/orders/requests')).status).toBe(401);
    expect((await api('GET', '/api/orders/unread')).status).toBe(401);
    expect((await api('GET', `/api/orders/requests/${requestId}`)).status).toBe(401);
    expect((await api('POST', '/api/orders/requests', { json: requestBody(farmer, [{ product: yam, quantity: 1 }]) })).status).toBe(401);
    expect((await api('POST', `/api/orders/requests/${requestId}/accept`, { json: {} })).status).toBe(401);
  });

  it('lets only buyers send', async () => {
    const answer = await send(otherFarmer, requestBody(farmer, [{ product: yam, quantity: 1 }]));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe('Only buyers can do this.');
  });

  it('hides a request from everyone but its buyer and farmer', async () => {
    expect((await getRequest(otherBuyer, requestId)).status).toBe(404);
    expect((await getRequest(otherFarmer, requestId)).status).toBe(404);
    expect((await act(otherBuyer, requestId, 'cancel', { reason: 'mine now' })).status).toBe(404);
    expect((await act(otherFarmer, requestId, 'accept')).status).toBe(404);
    expect((await api('POST', `/api/orders/requests/${requestId}/read`, { token: otherBuyer.accessToken, json: {} })).status).toBe(404);
    // Reusing another buyer's request id does not reveal their request.
    const stolen = await send(otherBuyer, { ...requestBody(farmer, [{ product: yam, quantity: 1 }]), request_id: requestId });
    expect(stolen.status).toBe(409);
    expect(JSON.stringify(stolen.body)).not.toContain(buyer.id);
    const theirs = await api('GET', '/api/orders/requests', { token: otherBuyer.accessToken });
    expect(theirs.status).toBe(200);
    expect(theirs.body.items.map((r: { request_id: string }) => r.request_id)).not.toContain(requestId);
    const otherInbox = await api('GET', '/api/orders/requests', { token: otherFarmer.accessToken });
    expect(otherInbox.body.items).toEqual([]);
  });

  it('lists a farmer only the requests to them and a buyer only theirs, newest first, by status, page by page', async () => {
    const inbox = await api('GET', '/api/orders/requests?limit=2', { token: farmer.accessToken });
    expect(inbox.status).toBe(200);
    expect(inbox.body.items).toHaveLength(2);
    expect(inbox.body.items.every((r: { farmer_id: string }) => r.farmer_id === farmer.id)).toBe(true);
    expect(inbox.body.next_cursor).toEqual(expect.any(String));
    const next = await api('GET', `/api/orders/requests?limit=2&cursor=${inbox.body.next_cursor}`, { token: farmer.accessToken });
    expect(next.status).toBe(200);
    const firstIds = inbox.body.items.map((r: { request_id: string }) => r.request_id);
    for (const item of next.body.items) expect(firstIds).not.toContain(item.request_id);
    const mine = await api('GET', '/api/orders/requests?status=sent&limit=50', { token: buyer.accessToken });
    expect(mine.body.items.every((r: { buyer_id: string; status: string }) => r.buyer_id === buyer.id && r.status === 'sent')).toBe(true);
    expect(mine.body.items.map((r: { request_id: string }) => r.request_id)).toContain(requestId);
    const dates = mine.body.items.map((r: { created_at: string }) => r.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect((await api('GET', '/api/orders/requests?cursor=nonsense', { token: buyer.accessToken })).status).toBe(400);
    expect((await api('GET', '/api/orders/requests?status=lost', { token: buyer.accessToken })).status).toBe(400);
  });

  it('lets the buyer neither accept, decline nor fulfil', async () => {
    for (const action of ['accept', 'decline', 'fulfil']) {
      const answer = await act(buyer, requestId, action, action === 'decline' ? { reason: 'x' } : {});
      expect(answer.status, action).toBe(403);
    }
  });
});

describe('transitions', () => {
  async function sent(quantity = 2): Promise<string> {
    const body = requestBody(farmer, [{ product: yam, quantity }]);
    const answer = await sendWhenKnown(buyer, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return body.request_id;
  }

  it('sent → accepted (lowered, with a reason) → fulfilled; then nothing more', async () => {
    const id = await sent(5);
    const noReason = await act(farmer, id, 'accept', { lines: [{ product_id: yam.product_id, quantity: 3 }] });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/give a reason/);
    const more = await act(farmer, id, 'accept', { lines: [{ product_id: yam.product_id, quantity: 6 }] });
    expect(more.status).toBe(400);
    const accepted = await act(farmer, id, 'accept', {
      lines: [{ product_id: yam.product_id, quantity: 3 }],
      reason: 'Only 3 kg dug so far',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'accepted', revision: 2, total: 7500, unread: false });
    expect(accepted.body.lines[0]).toMatchObject({ quantity: 5, accepted_quantity: 3, line_total: 7500 });
    expect(accepted.body.history.at(-1)).toMatchObject({ status: 'accepted', by: 'farmer', reason: 'Only 3 kg dug so far' });
    expect((await getRequest(buyer, id)).body.unread).toBe(true);

    const again = await act(farmer, id, 'accept');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/is already accepted, so you cannot accept it; you can now mark it fulfilled or cancel it\./);
    expect((await act(farmer, id, 'decline', { reason: 'changed my mind' })).status).toBe(409);

    const fulfilled = await act(farmer, id, 'fulfil');
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body).toMatchObject({ status: 'fulfilled', revision: 3 });
    const late = await act(buyer, id, 'cancel', { reason: 'too late' });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/was already fulfilled, so you cannot cancel it; nothing more can change on it/);
  });

  it('sent → declined with a reason; then no accept', async () => {
    const id = await sent();
    expect((await act(farmer, id, 'decline', {})).status).toBe(400);
    expect((await act(farmer, id, 'decline', { reason: '   ' })).status).toBe(400);
    const declined = await act(farmer, id, 'decline', { reason: 'No yam left this week' });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({
      status: 'declined',
      history: [{ status: 'sent' }, { status: 'declined', reason: 'No yam left this week' }],
    });
    const accept = await act(farmer, id, 'accept');
    expect(accept.status).toBe(409);
    expect(accept.body.message).toMatch(/was declined/);
  });

  it('sent → cancelled by the buyer; the farmer cannot fulfil a sent request nor cancel it', async () => {
    const id = await sent();
    const fulfil = await act(farmer, id, 'fulfil');
    expect(fulfil.status).toBe(409);
    expect(fulfil.body.message).toMatch(/you cannot mark it fulfilled; you can now accept it or decline it/);
    const farmerCancels = await act(farmer, id, 'cancel', { reason: 'nope' });
    expect(farmerCancels.status).toBe(409);
    expect(farmerCancels.body.message).toMatch(/only the buyer can cancel it now/);
    expect((await act(buyer, id, 'cancel', {})).status).toBe(400);
    const cancelled = await act(buyer, id, 'cancel', { reason: 'Found some nearer' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      history: [{}, { status: 'cancelled', by: 'buyer', reason: 'Found some nearer' }],
    });
  });

  it('accepted → cancelled by either party', async () => {
    for (const who of ['farmer', 'buyer'] as const) {
      const id = await sent();
      expect((await act(farmer, id, 'accept')).status).toBe(200);
      const cancelled = await act(who === 'farmer' ? farmer : buyer, id, 'cancel', { reason: 'Truck broke down' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.history.at(-1)).toMatchObject({ status: 'cancelled', by: who });
    }
  });

  it('counts unread changes for each side until they open them', async () => {
    const id = await sent();
    expect((await getRequest(farmer, id)).body.unread).toBe(true);
    const before = await unread(farmer);
    expect(before).toBeGreaterThanOrEqual(1);
    const read = await api('POST', `/api/orders/requests/${id}/read`, { token: farmer.accessToken, json: {} });
    expect(read.status).toBe(200);
    expect(read.body.count).toBe(before - 1);
    expect((await getRequest(farmer, id)).body.unread).toBe(false);
    const buyerBefore = await unread(buyer);
    expect((await act(farmer, id, 'accept')).status).toBe(200);
    expect(await unread(buyer)).toBe(buyerBefore + 1);
    expect((await getRequest(farmer, id)).body.unread).toBe(false);
    // Without a body, as the front ends' client sends it.
    expect((await api('POST', `/api/orders/requests/${id}/read`, { token: buyer.accessToken })).status).toBe(200);
    expect(await unread(buyer)).toBe(buyerBefore);
    // Fulfil without a body too.
    expect((await api('POST', `/api/orders/requests/${id}/fulfil`, { token: farmer.accessToken })).body.status).toBe('fulfilled');
  });

  it('answers 404 for a request that does not exist', async () => {
    expect((await getRequest(buyer, randomUUID())).status).toBe(404);
    expect((await act(farmer, randomUUID(), 'accept')).status).toBe(404);
  });
});
