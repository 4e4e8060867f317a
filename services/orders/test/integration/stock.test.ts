// Stock and order requests through the gateway (issue 12, ADR 0031): two buyers ask for the last
// 10 kg; both requests go out (the farmer decides), and only one of the two accepts can succeed,
// even when the farmer's two accepts arrive at the same moment. The catalog takes the accepted
// quantity off once; a cancel of the accepted request gives it back, and the other can then be accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { act, buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

let farmer: TestAccount;
let first: TestAccount;
let second: TestAccount;
let product: Posted;

beforeAll(async () => {
  [farmer, first, second] = await Promise.all([
    farmerWithProfile({ businessName: 'Race Farm', tuber: ['yam'] }),
    buyerWithProfile(),
    buyerWithProfile(),
  ]);
  product = await newProduct(farmer, { price: 1500, quantity: 10 });
});

afterAll(async () => {
  await Promise.all([farmer, first, second].filter(Boolean).map((a) => deleteAccount(a.id)));
});

const catalogProduct = async () => (await api('GET', `/api/catalog/products/${product.product_id}`, { token: farmer.accessToken })).body;

describe('two buyers ask for the last 10 kg', () => {
  const ids: string[] = [];

  it('both requests are sent (the stock is held only when the farmer accepts)', async () => {
    const bodies = [requestBody(farmer, [{ product, quantity: 10 }]), requestBody(farmer, [{ product, quantity: 10 }])];
    const answers = await Promise.all([sendWhenKnown(first, bodies[0]), sendWhenKnown(second, bodies[1])]);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    ids.push(bodies[0]!.request_id, bodies[1]!.request_id);
  });

  it('accepting both at once: one is accepted, the other refused with what is left', async () => {
    const started = Date.now();
    const answers = await Promise.all(ids.map((id) => act(farmer, id, 'accept')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    // Before the catalog's take arrives here the 10 kg are held by the accepted request; after, the product is sold out.
    expect([
      `No ${product.product_name} is left that is not already promised; update its stock first, or decline.`,
      `${product.product_name} is sold out; add stock to it first, or decline.`,
    ]).toContain(refused.body.message);
    const acceptedId = answers[0]!.status === 200 ? ids[0]! : ids[1]!;
    const otherId = acceptedId === ids[0] ? ids[1]! : ids[0]!;

    // The catalog takes the 10 kg off once: 0 left, sold out.
    const after = await eventually(catalogProduct, (p) => p.quantity !== 10, 20_000);
    console.log(`accept → catalog stock change: ${Date.now() - started} ms`);
    expect(after).toMatchObject({ quantity: 0, status: 'sold_out' });

    // Still refused once the catalog's change is known here (no double counting makes it worse, nothing makes it pass).
    const again = await act(farmer, otherId, 'accept');
    expect(again.status).toBe(409);

    // The accepted one is cancelled: the catalog gives the 10 kg back, and the other can be accepted.
    expect(
      (await act(first.id === (await owner(acceptedId)) ? first : second, acceptedId, 'cancel', { reason: 'Bought at the market' })).status,
    ).toBe(200);
    await eventually(catalogProduct, (p) => p.quantity === 10, 20_000);
    const late = await eventually(
      () => act(farmer, otherId, 'accept'),
      (a) => a.status !== 409,
      20_000,
    );
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    await eventually(catalogProduct, (p) => p.quantity === 0, 20_000);
  });
});

async function owner(requestId: string): Promise<string> {
  const mine = await api('GET', `/api/orders/requests/${requestId}`, { token: farmer.accessToken });
  return mine.body.buyer_id;
}

describe('accepting checks the stock per line', () => {
  it('refuses a lowered stock with how much is left', async () => {
    const small = await newProduct(farmer, { price: 900, quantity: 4 });
    const big = await newProduct(farmer, { price: 900, quantity: 100 });
    // Sent while 100 kg were there, then the farmer lowers the stock to 4 kg.
    const body = requestBody(farmer, [
      { product: big, quantity: 6 },
      { product: small, quantity: 2 },
    ]);
    expect((await sendWhenKnown(first, body)).status).toBe(201);
    const changed = await api('PATCH', `/api/catalog/products/${big.product_id}`, { token: farmer.accessToken, json: { quantity: 4 } });
    expect(changed.status).toBe(200);
    const refused = await eventually(
      () => act(farmer, body.request_id, 'accept'),
      (a) => a.status === 409,
    );
    expect(refused.body.message).toBe(`Only 4 kg of ${big.product_name} left; lower the quantity or decline.`);
    const lowered = await act(farmer, body.request_id, 'accept', {
      lines: [{ product_id: big.product_id, quantity: 4 }],
      reason: 'Only 4 kg left',
    });
    expect(lowered.status, JSON.stringify(lowered.body)).toBe(200);
    expect(lowered.body.lines.map((l: { accepted_quantity: number }) => l.accepted_quantity)).toEqual([4, 2]);
  });
});
