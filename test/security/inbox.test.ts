// A farmer's inbox is theirs (issue 24). Two holes, as an attacker meets them through the gateway:
// - Mail flooding: a farmer got one e-mail per request with no per-farmer bound (238 mails in one hour).
//   Now 10 requests in quick succession bring the farmer at most 3 mails; the rest wait for one digest at
//   the end of the 10-minute window (its arrival is proved in services/orders/test/integration/mail-digest.test.ts).
//   On the old code the farmer's mailbox held 10.
// - No way to block a buyer. Now the farmer blocks one, and that buyer's next send answers 403
//   BUYER_BLOCKED; another farmer cannot block or unblock on the farmer's behalf, and a buyer cannot call
//   the routes. On the old code PUT /api/orders/blocked-buyers/… answered 404 (no such route) and the send 201.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCount } from '../support/mail.js';
import { disposeCast, makeActor, type Actor } from './support/actors.js';
import { makeOrderRequest, makeProduct, orderRequestBody, postOrderRequest } from './support/objects.js';
import { call, sleep } from './support/stack.js';
import { denialChecked } from './support/tally.js';

let farmer: Actor;
let otherFarmer: Actor;
let buyer: Actor;
let productId: string;

beforeAll(async () => {
  [farmer, otherFarmer, buyer] = await Promise.all([
    makeActor('inbox farmer', { role: 'farmer', businessName: 'Inbox Farms', location: 'Ibadan', tuber: ['yam'] }),
    makeActor('other farmer', { role: 'farmer', businessName: 'Other Farms', location: 'Oyo', tuber: ['yam'] }),
    makeActor('flooding buyer', { role: 'buyer' }),
  ]);
  productId = await makeProduct(farmer);
}, 120_000);

afterAll(() => disposeCast({ farmer, otherFarmer, buyer }));

describe("a farmer's inbox is theirs", () => {
  it('10 requests in quick succession bring the farmer at most 3 e-mails, not one each', async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await postOrderRequest(buyer, await orderRequestBody(buyer, productId));
      expect(answer.status, answer.text.slice(0, 200)).toBe(201);
    }
    // Every single mail goes out within seconds of its request: wait until the count has stood still a while.
    let count = -1;
    for (let stable = 0, waited = 0; stable < 4 && waited < 40_000; waited += 2_500) {
      await sleep(2_500);
      const now = await mailCount(farmer.email);
      stable = now === count ? stable + 1 : 0;
      count = now;
    }
    expect(count, 'new-request mails to the farmer within the window').toBeLessThanOrEqual(3);
    expect(count).toBeGreaterThan(0);
    denialChecked();
  });

  it("a blocked buyer's next request is refused with 403 BUYER_BLOCKED; nobody else blocks or unblocks for the farmer", async () => {
    const blocked = await call('PUT', `/api/orders/blocked-buyers/${buyer.id}`, { token: await farmer.token(), json: {} });
    expect([200, 201], blocked.text.slice(0, 200)).toContain(blocked.status);

    const refused = await call('POST', '/api/orders/requests', { token: await buyer.token(), json: await orderRequestBody(buyer, productId) });
    expect(refused.status, refused.text.slice(0, 200)).toBe(403);
    expect(refused.body.code).toBe('BUYER_BLOCKED');
    expect(refused.body.message).toMatch(/not taking order requests from you/);
    denialChecked();

    // Another farmer's unblock is their own list's business: the block stands.
    expect((await call('DELETE', `/api/orders/blocked-buyers/${buyer.id}`, { token: await otherFarmer.token() })).status).toBe(204);
    // Naming the farmer in the body does not make the call theirs.
    const named = await call('PUT', `/api/orders/blocked-buyers/${buyer.id}`, {
      token: await otherFarmer.token(),
      json: { farmer_id: farmer.id },
    });
    expect(named.status).toBe(400);
    expect((await call('GET', '/api/orders/blocked-buyers', { token: await otherFarmer.token() })).body.items).toEqual([]);
    const still = await call('POST', '/api/orders/requests', { token: await buyer.token(), json: await orderRequestBody(buyer, productId) });
    expect(still.status).toBe(403);
    denialChecked(2);

    // The buyer can neither see nor lift the block.
    for (const [method, path] of [
      ['GET', '/api/orders/blocked-buyers'],
      ['DELETE', `/api/orders/blocked-buyers/${buyer.id}`],
      ['PUT', `/api/orders/blocked-buyers/${buyer.id}`],
    ] as const) {
      const answer = await call(method, path, { token: await buyer.token(), ...(method === 'PUT' ? { json: {} } : {}) });
      expect(answer.status, `${method} ${path} as the buyer`).toBe(403);
      denialChecked();
    }

    // The farmer unblocks: sending works again.
    expect((await call('DELETE', `/api/orders/blocked-buyers/${buyer.id}`, { token: await farmer.token() })).status).toBe(204);
    await makeOrderRequest(buyer, productId);
  });
});
