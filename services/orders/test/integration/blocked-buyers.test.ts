// A farmer can block a buyer (issue 24): through the gateway against the running stack. After a block the
// buyer's next request to that farmer answers 403 BUYER_BLOCKED with a message a person can act on;
// requests sent before stay as they were; unblocking restores sending. Only the farmer whose inbox it is
// blocks (from the token), only a buyer who sent them a request can be blocked, and buyers cannot call
// the routes at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER_BLOCKED } from '@tuber/contracts';
import { api } from '../../../../test/support/api.js';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { act, buyerWithProfile, farmerWithProfile, getRequest, newProduct, requestBody, send, sendWhenKnown, type Posted } from './orders-support.js';

let farmer: TestAccount;
let otherFarmer: TestAccount;
let buyer: TestAccount;
let otherBuyer: TestAccount;
let product: Posted;

const blocks = (account: TestAccount) => api('GET', '/api/orders/blocked-buyers', { token: account.accessToken });
const block = (account: TestAccount, buyerId: string) =>
  api('PUT', `/api/orders/blocked-buyers/${buyerId}`, { token: account.accessToken, json: {} });
const unblock = (account: TestAccount, buyerId: string) => api('DELETE', `/api/orders/blocked-buyers/${buyerId}`, { token: account.accessToken });

beforeAll(async () => {
  [farmer, otherFarmer, buyer, otherBuyer] = await Promise.all([
    farmerWithProfile({ businessName: 'Blocking Farm', tuber: ['yam'] }),
    farmerWithProfile({ businessName: 'Other Farm', tuber: ['yam'] }),
    buyerWithProfile(),
    buyerWithProfile(),
  ]);
  product = await newProduct(farmer, { price: 2000, quantity: 100 });
});

afterAll(async () => {
  await Promise.all([farmer, otherFarmer, buyer, otherBuyer].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('blocking a buyer', () => {
  it('refuses the blocked buyer’s next request with 403 BUYER_BLOCKED, leaves earlier requests alone, and unblocking restores sending', async () => {
    const before = requestBody(farmer, [{ product, quantity: 2 }]);
    const sent = await sendWhenKnown(buyer, before);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);

    expect((await blocks(farmer)).body).toEqual({ items: [] });
    const blocked = await block(farmer, buyer.id);
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(201);
    expect(blocked.body).toMatchObject({ buyer_id: buyer.id, buyer_name: 'Test Buyer' });
    // Blocking again changes nothing and answers the block that stands.
    const again = await block(farmer, buyer.id);
    expect(again.status).toBe(200);
    expect(again.body.blocked_at).toBe(blocked.body.blocked_at);
    expect((await blocks(farmer)).body.items).toEqual([blocked.body]);

    const refused = await send(buyer, requestBody(farmer, [{ product, quantity: 1 }]));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      code: BUYER_BLOCKED,
      message:
        'This farmer is not taking order requests from you. Nothing was sent and your cart is unchanged; you can ask another farmer for these products.',
    });

    // What was sent before the block stands: the same id again is still that request, and the farmer can accept it.
    expect((await send(buyer, before)).status).toBe(200);
    expect((await getRequest(farmer, before.request_id)).body.status).toBe('sent');
    expect((await act(farmer, before.request_id, 'accept')).status).toBe(200);
    // Other buyers send as before.
    expect((await sendWhenKnown(otherBuyer, requestBody(farmer, [{ product, quantity: 1 }]))).status).toBe(201);

    expect((await unblock(farmer, buyer.id)).status).toBe(204);
    expect((await blocks(farmer)).body).toEqual({ items: [] });
    expect((await send(buyer, requestBody(farmer, [{ product, quantity: 1 }]))).status).toBe(201);
    // Unblocking again is no error (nothing to undo).
    expect((await unblock(farmer, buyer.id)).status).toBe(204);
  });

  it('lets no other farmer block or unblock on the farmer’s behalf', async () => {
    expect((await block(farmer, buyer.id)).status).toBe(201);
    // The other farmer never got a request from this buyer: nothing to block; their list stays their own.
    const theirs = await block(otherFarmer, buyer.id);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(
      'No buyer with this id has sent you an order request. Block a buyer from one of their requests in your inbox.',
    );
    expect((await blocks(otherFarmer)).body).toEqual({ items: [] });
    // Their unblock touches only their own list: the farmer's block stands.
    expect((await unblock(otherFarmer, buyer.id)).status).toBe(204);
    expect((await blocks(farmer)).body.items.map((b: { buyer_id: string }) => b.buyer_id)).toEqual([buyer.id]);
    expect((await send(buyer, requestBody(farmer, [{ product, quantity: 1 }]))).body.code).toBe(BUYER_BLOCKED);
    expect((await unblock(farmer, buyer.id)).status).toBe(204);
  });

  it('blocks only buyers who sent the farmer a request: not a farmer, not an unknown id', async () => {
    expect((await block(farmer, otherFarmer.id)).status).toBe(404);
    expect((await block(farmer, farmer.id)).status).toBe(404);
    expect((await block(farmer, 'no-such-account')).status).toBe(404);
    expect((await blocks(farmer)).body).toEqual({ items: [] });
  });

  it('refuses the routes to buyers (403) and to callers without a token (401)', async () => {
    for (const answer of [await blocks(buyer), await block(buyer, otherBuyer.id), await unblock(buyer, otherBuyer.id)]) {
      expect(answer.status).toBe(403);
      expect(answer.body.statusCode).toBe(403);
    }
    expect((await api('GET', '/api/orders/blocked-buyers')).status).toBe(401);
    expect((await api('PUT', `/api/orders/blocked-buyers/${buyer.id}`, { json: {} })).status).toBe(401);
    expect((await api('DELETE', `/api/orders/blocked-buyers/${buyer.id}`)).status).toBe(401);
    // A body naming another farmer is refused, not obeyed.
    const named = await api('PUT', `/api/orders/blocked-buyers/${buyer.id}`, { token: otherFarmer.accessToken, json: { farmer_id: farmer.id } });
    expect(named.status).toBe(400);
  });
});
