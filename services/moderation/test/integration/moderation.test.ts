// Reports and the moderation desk (issue 26, docs/adr/0071), through the gateway against the running stack:
// a buyer reports a listing (repeats merged), a moderator sees it in the queue and hides it (the catalog then
// answers 404 for it, the farmer's own list shows the reason, the orders service refuses it), shows it again,
// suspends the farmer (Keycloak refuses the sign-in, the old token is refused at once, the listings are withheld,
// the open request is cancelled with a message) and restores them; every step is in the audit log. Buyers and
// farmers get 403 on every desk route.
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { SignInRefused, signInWithPassword } from '../../../../test/support/keycloak.js';
import { buyerWithProfile, farmerWithProfile, newProduct, requestBody, send, sendWhenKnown, type Posted } from '../../../orders/test/integration/orders-support.js';

let farmer: TestAccount;
let buyer: TestAccount;
let stranger: TestAccount;
let moderator: TestAccount;
let product: Posted;
let orders: MongoClient;

const report = (account: TestAccount, json: unknown) => api('POST', '/api/moderation/reports', { token: account.accessToken, json });
const act = (kind: string, id: string, json: unknown, account = moderator) =>
  api('POST', `/api/moderation/targets/${kind}/${id}/actions`, { token: account.accessToken, json });
const productAnswer = () => api('GET', `/api/catalog/products/${product.product_id}`, { token: buyer.accessToken });
const mine = async () =>
  ((await api('GET', '/api/catalog/products/mine', { token: farmer.accessToken })).body.items as { product_id: string; withheld?: unknown }[]).find(
    (item) => item.product_id === product.product_id,
  );

beforeAll(async () => {
  orders = await new MongoClient(mongoUrl('orders')).connect();
  [farmer, buyer, stranger, moderator] = await Promise.all([
    farmerWithProfile({ businessName: 'Reported Farm', tuber: ['yam'] }),
    buyerWithProfile(),
    buyerWithProfile(),
    signedInAccount({ role: 'buyer', moderator: true }),
  ]);
  product = await newProduct(farmer, { price: 1500, quantity: 100 });
  // The moderation service learns the product from the catalog's event.
  await eventually(
    () => report(stranger, { target_kind: 'product', target_id: product.product_id, reason: 'other', note: 'probe' }),
    (answer) => answer.status !== 404,
    20_000,
  );
}, 120_000);

afterAll(async () => {
  await orders?.close();
  await Promise.all([farmer, buyer, stranger, moderator].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('reports', () => {
  it('are taken from anyone signed in, merged per reporter, and refused for one’s own listing or an unknown target', async () => {
    const first = await report(buyer, { target_kind: 'product', target_id: product.product_id, reason: 'wrong_price', note: 'Says ₦1 500 a kg, asks ₦3 000 on the phone' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ merged: false, times: 1 });
    const again = await report(buyer, { target_kind: 'product', target_id: product.product_id, reason: 'scam' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ report_id: first.body.report_id, merged: true, times: 2 });
    expect((await report(farmer, { target_kind: 'product', target_id: product.product_id, reason: 'scam' })).body.code).toBe('REPORT_OWN');
    expect((await report(buyer, { target_kind: 'product', target_id: 'no-such-product', reason: 'scam' })).status).toBe(404);
    expect((await report(buyer, { target_kind: 'product', target_id: product.product_id, reason: 'fraud' })).status).toBe(400);
    expect((await api('POST', '/api/moderation/reports', { json: { target_kind: 'farmer', target_id: farmer.id, reason: 'scam' } })).status).toBe(401);
  });

  it('reach the desk’s queue, which buyers and farmers cannot read', async () => {
    for (const account of [buyer, farmer]) {
      const refused = await api('GET', '/api/moderation/queue', { token: account.accessToken });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('ROLE_REQUIRED');
      expect((await act('product', product.product_id, { action: 'hide', reason: 'Not allowed' }, account)).status).toBe(403);
    }
    const queue = await api('GET', '/api/moderation/queue', { token: moderator.accessToken });
    expect(queue.status).toBe(200);
    const item = queue.body.items.find((i: { target: { target_id: string } }) => i.target.target_id === product.product_id);
    expect(item).toMatchObject({
      target: { target_kind: 'product', title: product.product_name, farmer_id: farmer.id, hidden: false, farmer_suspended: false },
      open_reports: 2, // the stranger's probe and the buyer's (merged) report
      reasons: { other: 1, scam: 1 },
    });
  });
});

describe('the moderator’s actions', () => {
  it('hide a listing everywhere, with the reason shown to its farmer, and show it again', async () => {
    const hidden = await act('product', product.product_id, { action: 'hide', reason: 'The photos are of another farm’s yams.' });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(201);
    expect(hidden.body).toMatchObject({ action: 'hide', target_id: product.product_id, subject_user_id: farmer.id, closed_reports: 2, moderator_name: 'Test B.' });
    await eventually(productAnswer, (answer) => answer.status === 404, 15_000);
    expect(await mine()).toMatchObject({ withheld: { hidden: true, suspended: false, reason: 'The photos are of another farm’s yams.' } });
    const farmPage = await api('GET', `/api/catalog/farmers/${farmer.id}/products`, { token: buyer.accessToken });
    expect(farmPage.body.items.map((p: { product_id: string }) => p.product_id)).not.toContain(product.product_id);
    // The orders service's copy learns it from the event; then a request for it is refused.
    await eventually(
      () => orders.db().collection('products').findOne({ product_id: product.product_id }),
      (copy) => copy?.hidden === true,
      15_000,
    );
    const refused = await send(buyer, requestBody(farmer, [{ product, quantity: 1 }]));
    expect(refused.status).toBe(409);
    expect(refused.body.problems).toEqual([{ product_id: product.product_id, problem: 'unavailable' }]);
    // Its reports are closed: it leaves the queue.
    const queue = await api('GET', '/api/moderation/queue', { token: moderator.accessToken });
    expect(queue.body.items.some((i: { target: { target_id: string } }) => i.target.target_id === product.product_id)).toBe(false);
    expect((await act('product', product.product_id, { action: 'hide', reason: 'Again' })).body.code).toBe('MODERATION_ACTION_INVALID');

    expect((await act('product', product.product_id, { action: 'unhide', reason: 'The farmer sent real photos.' })).status).toBe(201);
    await eventually(productAnswer, (answer) => answer.status === 200, 15_000);
    await eventually(
      () => orders.db().collection('products').findOne({ product_id: product.product_id }),
      (copy) => copy?.hidden === false,
      15_000,
    );
    expect((await mine())?.withheld).toBeUndefined();
  });

  it('suspend a farmer: no sign-in, the old token refused, listings withheld, open requests cancelled; restore undoes it', async () => {
    const open = requestBody(farmer, [{ product, quantity: 2 }]);
    expect((await sendWhenKnown(buyer, open)).status).toBe(201);
    await eventually(
      () => api('GET', `/api/moderation/targets/farmer/${farmer.id}`, { token: moderator.accessToken }),
      (answer) => answer.status === 200,
      15_000,
    );
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const suspended = await act('farmer', farmer.id, { action: 'suspend', reason: 'Took payment and sent nothing.', until });
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(201);
    expect(suspended.body).toMatchObject({ action: 'suspend', subject_user_id: farmer.id, until });

    // At once: the token in hand is refused (its session ended), and Keycloak refuses a new sign-in.
    const ended = await api('GET', '/api/profile/me', { token: farmer.accessToken });
    expect(ended.status).toBe(401);
    await expect(signInWithPassword(farmer.email, farmer.password)).rejects.toBeInstanceOf(SignInRefused);

    await eventually(productAnswer, (answer) => answer.status === 404, 15_000);
    const cancelled = await eventually(
      () => api('GET', `/api/orders/requests/${open.request_id}`, { token: buyer.accessToken }),
      (answer) => answer.body?.status === 'cancelled',
      15_000,
    );
    expect(cancelled.body.history.at(-1)).toMatchObject({ status: 'cancelled', by: 'farmer', reason: 'This account was suspended by Tuber Market’s moderators.' });

    const detail = await api('GET', `/api/moderation/targets/farmer/${farmer.id}`, { token: moderator.accessToken });
    expect(detail.body.target).toMatchObject({ farmer_suspended: true });
    expect(detail.body.actions[0]).toMatchObject({ action: 'suspend' });

    expect((await act('farmer', farmer.id, { action: 'restore', reason: 'The buyer was refunded.' })).status).toBe(201);
    const again = await signInWithPassword(farmer.email, farmer.password);
    farmer = { ...farmer, accessToken: again.accessToken };
    await eventually(productAnswer, (answer) => answer.status === 200, 15_000);
    expect((await mine())?.withheld).toBeUndefined();
  });

  it('are all in the audit log, newest first, for moderators only', async () => {
    expect((await api('GET', '/api/moderation/audit', { token: buyer.accessToken })).status).toBe(403);
    const log = await api('GET', '/api/moderation/audit', { token: moderator.accessToken });
    expect(log.status).toBe(200);
    const ours = log.body.entries.filter((e: { target_id: string; subject_user_id?: string }) => e.target_id === product.product_id || e.subject_user_id === farmer.id);
    expect(ours.map((e: { action: string }) => e.action)).toEqual(['restore', 'suspend', 'unhide', 'hide']);
    expect(ours.every((e: { moderator_id: string; reason: string }) => e.moderator_id === moderator.id && e.reason.length > 0)).toBe(true);
  });
});
