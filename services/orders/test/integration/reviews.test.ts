// Reviews from real sales (issue 26), through the gateway against the running stack: a buyer rates a request
// only once it is fulfilled and only their own, changes it for 7 days, the farmer answers once in public,
// anyone signed in reads a farmer's reviews and trust figures, and the catalog's cards carry the rating
// (count always, mean from 3 reviews) by the FarmerRatingChanged event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { api, eventually } from '../../../../test/support/api.js';
import { deleteAccount, signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { mongoUrl } from '../../../../test/support/credentials.js';
import { act, buyerWithProfile, farmerWithProfile, newProduct, requestBody, sendWhenKnown, type Posted } from './orders-support.js';

let farmer: TestAccount;
let buyer: TestAccount;
let stranger: TestAccount;
let puppet: TestAccount;
let moderator: TestAccount;
let product: Posted;

const review = (account: TestAccount, requestId: string, json: unknown) =>
  api('PUT', `/api/orders/requests/${requestId}/review`, { token: account.accessToken, json });
const answer = (account: TestAccount, requestId: string, json: unknown) =>
  api('PUT', `/api/orders/requests/${requestId}/review/answer`, { token: account.accessToken, json });
const trust = (account: TestAccount, farmerId: string) =>
  api('GET', `/api/orders/farmers/${farmerId}/trust`, { token: account.accessToken });
const reviewsOf = (account: TestAccount, farmerId: string, query = '') =>
  api('GET', `/api/orders/farmers/${farmerId}/reviews${query}`, { token: account.accessToken });

/** A request of `quantity` units, sent by the buyer and taken to `until` by the farmer. */
async function sale(until: 'sent' | 'accepted' | 'fulfilled', quantity = 1, from: TestAccount = buyer): Promise<string> {
  const body = requestBody(farmer, [{ product, quantity }]);
  const sent = await sendWhenKnown(from, body);
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  if (until === 'sent') return body.request_id;
  expect((await act(farmer, body.request_id, 'accept')).status).toBe(200);
  if (until === 'accepted') return body.request_id;
  expect((await act(farmer, body.request_id, 'fulfil')).status).toBe(200);
  return body.request_id;
}

beforeAll(async () => {
  [farmer, buyer, stranger, puppet, moderator] = await Promise.all([
    farmerWithProfile({ businessName: 'Rated Farm', tuber: ['yam'] }),
    buyerWithProfile(),
    buyerWithProfile(),
    buyerWithProfile(),
    signedInAccount({ role: 'buyer', moderator: true }),
  ]);
  product = await newProduct(farmer, { price: 1500, quantity: 100 });
}, 120_000);

afterAll(async () => {
  await Promise.all([farmer, buyer, stranger, puppet, moderator].filter(Boolean).map((a) => deleteAccount(a.id)));
});

describe('reviews from real sales', () => {
  it('lets only the buyer rate, only once fulfilled; changes it; the farmer answers once; everyone signed in reads it', async () => {
    const open = await sale('accepted');
    const early = await review(buyer, open, { stars: 5 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'REVIEW_NOT_YET', params: { number: expect.any(String) } });

    const done = await sale('fulfilled');
    expect((await review(stranger, done, { stars: 1 })).status).toBe(404); // not theirs: as if it did not exist
    expect((await review(farmer, done, { stars: 5 })).status).toBe(403); // farmers do not rate
    expect((await review(buyer, done, { stars: 6 })).status).toBe(400);
    expect((await review(buyer, done, { stars: 4, text: 'x'.repeat(501) })).status).toBe(400);

    const written = await review(buyer, done, { stars: 5, text: '  Fresh yams, well packed.  ' });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    expect(written.body).toMatchObject({
      request_id: done,
      farmer_id: farmer.id,
      buyer_name: 'Test B.',
      stars: 5,
      text: 'Fresh yams, well packed.',
      products: [product.product_name],
    });
    const changed = await review(buyer, done, { stars: 4, text: 'Fresh yams.' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ stars: 4, text: 'Fresh yams.', created_at: written.body.created_at });

    expect((await answer(buyer, done, { text: 'Thanks' })).status).toBe(403);
    expect((await answer(farmer, open, { text: 'Thanks' })).body).toMatchObject({ code: 'REVIEW_NOT_FOUND' });
    const answered = await answer(farmer, done, { text: 'Thank you, come again!' });
    expect(answered.status).toBe(200);
    expect(answered.body.answer).toMatchObject({ text: 'Thank you, come again!' });
    const twice = await answer(farmer, done, { text: 'Again' });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'REVIEW_ALREADY_ANSWERED' });

    const page = await reviewsOf(stranger, farmer.id);
    expect(page.status).toBe(200);
    expect(page.body.items.map((r: { request_id: string; stars: number }) => [r.request_id, r.stars])).toEqual([[done, 4]]);
    const figures = await trust(stranger, farmer.id);
    expect(figures.body).toEqual({ farmer_id: farmer.id, rating: { count: 1 } });
    expect((await api('GET', `/api/orders/farmers/${farmer.id}/trust`)).status).toBe(401);
  }, 120_000);

  it('closes a review for changes 7 days after it was written', async () => {
    const done = await sale('fulfilled');
    expect((await review(buyer, done, { stars: 3 })).status).toBe(201);
    const client = await MongoClient.connect(mongoUrl('orders'));
    try {
      await client
        .db('orders')
        .collection('reviews')
        .updateOne({ request_id: done }, { $set: { created_at: new Date(Date.now() - 8 * 86_400_000) } });
    } finally {
      await client.close();
    }
    const late = await review(buyer, done, { stars: 5 });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'REVIEW_EDIT_CLOSED', params: { days: 7 } });
  }, 120_000);

  it('gives the mean from 3 reviews, pages the reviews, and the cards carry the rating', async () => {
    // Two reviews so far (4 and 3 stars); a third of 5: mean 12 / 3 = 4.
    const third = await sale('fulfilled');
    expect((await review(buyer, third, { stars: 5 })).status).toBe(201);
    expect((await trust(stranger, farmer.id)).body.rating).toEqual({ count: 3, mean: 4 });

    const first = await reviewsOf(stranger, farmer.id, '?limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await reviewsOf(stranger, farmer.id, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    expect((await reviewsOf(stranger, farmer.id, '?cursor=nonsense')).body).toMatchObject({ code: 'PAGE_LINK_INVALID' });

    await expect
      .poll(
        async () => (await api('GET', `/api/catalog/products/${product.product_id}`, { token: stranger.accessToken })).body.farmer_rating,
        {
          timeout: 20_000,
        },
      )
      .toEqual({ count: 3, mean: 4 });
  }, 120_000);

  it('gives response figures from 5 requests, as counted from the histories', async () => {
    // So far: 4 requests, each accepted at once; 3 of them fulfilled and one still open. A fifth, still open.
    expect((await trust(stranger, farmer.id)).body.response).toBeUndefined();
    await sale('sent');
    const { response } = (await trust(stranger, farmer.id)).body;
    expect(response).toMatchObject({ requests: 5, answered_within_day: 4, answered_of: 4, fulfilled: 3, fulfilled_of: 3 });
    expect(response.median_answer_minutes).toBeLessThan(5);
  }, 120_000);

  it("serves the farmer page's reads: the farm without contact details, and its products with the rating", async () => {
    const farm = await api('GET', `/api/profile/farmers/${farmer.id}`, { token: stranger.accessToken });
    expect(farm.status).toBe(200);
    expect(farm.body).toEqual({
      phone_verified: false,
      farmer_id: farmer.id,
      business_name: 'Rated Farm',
      location: expect.any(String),
      tuber: ['yam'],
      member_since: expect.any(String),
    });
    expect(Date.parse(farm.body.member_since)).toBeLessThanOrEqual(Date.now());
    const products = await api('GET', `/api/catalog/farmers/${farmer.id}/products?limit=12`, { token: stranger.accessToken });
    expect(products.status).toBe(200);
    expect(products.body.items.map((p: { product_id: string }) => p.product_id)).toEqual([product.product_id]);
    expect(products.body.items[0].farmer_rating).toEqual({ count: 3, mean: 4 });
    expect(products.body.next_cursor).toBeNull();
    expect((await api('GET', `/api/catalog/farmers/${farmer.id}/products?cursor=x1`, { token: stranger.accessToken })).status).toBe(400);
    const nobody = await api('GET', `/api/profile/farmers/${buyer.id}`, { token: stranger.accessToken });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toMatchObject({ code: 'FARMER_NOT_FOUND' });
    expect((await api('GET', `/api/catalog/farmers/${buyer.id}/products`, { token: stranger.accessToken })).body).toEqual({
      items: [],
      next_cursor: null,
    });
    expect((await api('GET', `/api/profile/farmers/${farmer.id}`)).status).toBe(401);
  }, 60_000);

  it('takes ratings of one farmer written at once, and the count ends right', async () => {
    const sales = [await sale('fulfilled'), await sale('fulfilled'), await sale('fulfilled'), await sale('fulfilled')];
    const before = (await trust(stranger, farmer.id)).body.rating.count as number;
    const answers = await Promise.all(sales.map((id) => review(buyer, id, { stars: 2 })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect((await trust(stranger, farmer.id)).body.rating.count).toBe(before + 4);
    // The cards follow, once the last recount's event is in.
    await expect
      .poll(
        async () =>
          (await api('GET', `/api/catalog/products/${product.product_id}`, { token: stranger.accessToken })).body.farmer_rating?.count,
        {
          timeout: 20_000,
        },
      )
      .toBe(before + 4);
  }, 120_000);

  it('stops counting and showing a suspended buyer’s reviews, and counts them again once restored', async () => {
    const ratingOnCard = async () =>
      (await api('GET', `/api/catalog/products/${product.product_id}`, { token: stranger.accessToken })).body.farmer_rating as {
        count: number;
      };
    const before = (await trust(stranger, farmer.id)).body.rating as { count: number; mean?: number };
    // A buyer account that praises the farm three times (the farm's own made-up buyer, say).
    const praised = [await sale('fulfilled', 1, puppet), await sale('fulfilled', 1, puppet), await sale('fulfilled', 1, puppet)];
    for (const id of praised) expect((await review(puppet, id, { stars: 5, text: 'Best farm ever!' })).status).toBe(201);
    expect((await trust(stranger, farmer.id)).body.rating.count).toBe(before.count + 3);
    await expect.poll(async () => (await ratingOnCard())?.count, { timeout: 20_000 }).toBe(before.count + 3);

    // A moderator suspends that buyer, from one of its requests (the moderation service knows it by its event).
    const act = (action: 'suspend' | 'restore', reason: string) =>
      api('POST', `/api/moderation/targets/request/${praised[0]}/actions`, {
        token: moderator.accessToken,
        json: { action, reason, account: 'buyer' },
      });
    await eventually(
      () => api('GET', `/api/moderation/targets/request/${praised[0]}`, { token: moderator.accessToken }),
      (answer) => answer.status === 200,
      15_000,
    );
    const suspended = await act('suspend', 'Fake reviews for one farm.');
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(201);
    expect(suspended.body).toMatchObject({ action: 'suspend', subject_user_id: puppet.id });

    // Its reviews no longer count, on the trust figures and the cards, nor show on the farmer's page.
    await expect.poll(async () => (await trust(stranger, farmer.id)).body.rating, { timeout: 20_000 }).toEqual(before);
    await expect.poll(async () => (await ratingOnCard())?.count, { timeout: 20_000 }).toBe(before.count);
    const shown = (await reviewsOf(stranger, farmer.id, '?limit=50')).body.items as { request_id: string }[];
    expect(shown.length).toBe(before.count);
    expect(shown.filter((item) => praised.includes(item.request_id))).toEqual([]);

    // Restored: they count and show again.
    expect((await act('restore', 'The reviews were real after all.')).status).toBe(201);
    await expect.poll(async () => (await trust(stranger, farmer.id)).body.rating.count, { timeout: 20_000 }).toBe(before.count + 3);
    await expect.poll(async () => (await ratingOnCard())?.count, { timeout: 20_000 }).toBe(before.count + 3);
    const again = (await reviewsOf(stranger, farmer.id, '?limit=50')).body.items as { request_id: string }[];
    expect(again.filter((item) => praised.includes(item.request_id)).length).toBe(3);
  }, 120_000);
});
