// Consumer-driven contract (Pact) of the buyer remote with the orders service: the cart's request sent with the
// buyer's own body builder and sender (buildOrderRequest, sendOrderRequest), the activity beacon (sendActivity),
// and the few fields of the answers the cart reads. Mock server only; contracts/pacts/buyer-orders.json must agree.
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '@tuber/shell-contract';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { addToCart, setQuantity } from '../../src/cart/cart.js';
import { sendActivity } from '../../src/orders/activity.js';
import { buildOrderRequest, groupByFarmer, initialRequestForm, sendableItems } from '../../src/orders/requestForm.js';
import { newRequestId, sendOrderRequest } from '../../src/orders/sendRequest.js';
import { ACTIVITY_PATH, REQUESTS_PATH } from '../../src/orders/types.js';
import { reviewPath, reviewsPath, trustPath, type FarmerTrust, type Review, type ReviewPage } from '../../src/trust/trustTypes.js';

const { string, regex, uuid, date, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'buyer', provider: 'orders', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'buyer-orders.json')).toBeNull());

const buyerToken = 'a-buyer-access-token';
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => buyerToken });
const authorization = regex('Bearer .+', `Bearer ${buyerToken}`);

/** Examples for the ids the provider state hands back. */
const productId = '7d1f3c1e-7b51-4c7a-9e0e-2f1f1c0f4a11';
const farmerId = 'b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44';

/**
 * A preferred day that is never in the past when the provider is verified: the verifier writes tomorrow's date
 * (a Date generator; the orders service refuses a day gone by in Lagos time).
 */
const tomorrow = (example: string) => ({ ...date('yyyy-MM-dd', example), 'pact:generator:type': 'Date', expression: 'tomorrow' });

/** The listed product put in the cart and raised to two heaps (2000.5 naira a heap, as the catalog showed it). */
const product = {
  product_id: productId,
  farmer_id: farmerId,
  product_name: 'Fresh white yam',
  images: [],
  price: 2000.5,
  unit: 'heap' as const,
};
const cart = setQuantity(addToCart([], product).cart, productId, 2);

describe('pact: buyer → orders', () => {
  it("sends one farmer's lines as an order request", async () => {
    // As useSendRequests does it: the farmer's group, its sendable lines, the form as first shown (pickup).
    const [group] = groupByFarmer(cart);
    const body = buildOrderRequest(
      group!.farmer_id,
      sendableItems(group!.items, new Map()),
      initialRequestForm('0803 123 4567', '2026-12-01'),
      newRequestId(),
    );
    pact
      .given('a product is listed')
      .uponReceiving('an order request for two heaps of a listed product')
      .withRequest({
        method: 'POST',
        path: `/api${REQUESTS_PATH}`,
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: {
          ...body,
          // A fresh id on every verification: the service answers a known id with the request it already has.
          request_id: uuid(),
          farmer_id: fromProviderState('${farmerId}', farmerId),
          lines: [{ ...body.lines[0]!, product_id: fromProviderState('${productId}', productId) }],
          preferred_date: tomorrow(body.preferred_date),
        },
      })
      .willRespondWith({ status: 201, body: { number: string('TM-1042'), business_name: string('Ade Farms') } });
    await pact.executeTest(async (server) => {
      const outcome = await sendOrderRequest(
        { api: api(server.url), getAccessToken: async () => buyerToken, baseUrl: `${server.url}/api` },
        body,
      );
      // The toast: "Request TM-1042 sent to Ade Farms".
      expect(outcome).toMatchObject({ kind: 'sent', request: { number: 'TM-1042', business_name: 'Ade Farms' } });
    });
  });

  it('is told BUYER_BLOCKED when the farmer blocked the buyer (issue 24)', async () => {
    const [group] = groupByFarmer(cart);
    const body = buildOrderRequest(
      group!.farmer_id,
      sendableItems(group!.items, new Map()),
      initialRequestForm('0803 123 4567', '2026-12-01'),
      newRequestId(),
    );
    pact
      .given('the farmer blocked the buyer of a request')
      .uponReceiving('an order request to a farmer who blocked the buyer')
      .withRequest({
        method: 'POST',
        path: `/api${REQUESTS_PATH}`,
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: {
          ...body,
          request_id: uuid(),
          farmer_id: fromProviderState('${farmerId}', farmerId),
          lines: [{ ...body.lines[0]!, product_id: fromProviderState('${productId}', productId) }],
          preferred_date: tomorrow(body.preferred_date),
        },
      })
      .willRespondWith({
        status: 403,
        headers: { 'content-type': regex('application/(problem\\+)?json.*', 'application/problem+json; charset=utf-8') },
        body: { code: 'BUYER_BLOCKED', message: string('This farmer is not taking order requests from you.') },
      });
    await pact.executeTest(async (server) => {
      const outcome = await sendOrderRequest(
        { api: api(server.url), getAccessToken: async () => buyerToken, baseUrl: `${server.url}/api` },
        body,
      );
      // The cart says it beside the farmer's form, in the buyer's language, and keeps the lines.
      expect(outcome).toEqual({ kind: 'blocked', message: 'This farmer is not taking requests from you.' });
    });
  });

  it('counts a view of a product for its farmer', async () => {
    pact
      .given('a product is listed')
      .uponReceiving("a product view reported for the farmer's insights")
      .withRequest({
        method: 'POST',
        path: `/api${ACTIVITY_PATH}`,
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: { product_id: fromProviderState('${productId}', productId), kind: 'view' },
      })
      .willRespondWith({ status: 204 });
    await pact.executeTest(async (server) => {
      // sendActivity never waits and swallows failures: keep the client's answer to see the beacon was taken.
      const client = api(server.url);
      let answer: Promise<unknown> | undefined;
      const watched: ApiClient = { ...client, post: (path, data, init) => (answer = client.post(path, data, init)) as Promise<never> };
      sendActivity(watched, productId, 'view');
      // 204: taken, nothing to read.
      await expect(answer).resolves.toBeUndefined();
    });
  });

  // Issue 26: the farmer's figures and reviews on the product page, and the buyer's own rating of a sale.
  const review = {
    request_id: fromProviderState('${requestId}', '43162006-f1b6-4a16-8ebd-358aeea68dd9'),
    number: string('TM-1020'),
    farmer_id: fromProviderState('${farmerId}', farmerId),
    buyer_name: string('Ada O.'),
    stars: MatchersV3.integer(4),
    text: string('Good yams'),
    products: MatchersV3.eachLike('Fresh white yam'),
    created_at: MatchersV3.datetime("yyyy-MM-dd'T'HH:mm:ss.SSSX", '2026-11-29T08:00:00.000Z'),
    updated_at: MatchersV3.datetime("yyyy-MM-dd'T'HH:mm:ss.SSSX", '2026-11-29T08:00:00.000Z'),
    editable_until: MatchersV3.datetime("yyyy-MM-dd'T'HH:mm:ss.SSSX", '2026-12-06T08:00:00.000Z'),
  };

  it("reads a farmer's rating and response figures", async () => {
    pact
      .given('a buyer reviewed a fulfilled request')
      .uponReceiving("a farmer's trust figures")
      .withRequest({
        method: 'GET',
        path: fromProviderState('/api/orders/farmers/${farmerId}/trust', `/api${trustPath(farmerId)}`),
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') },
        body: { farmer_id: fromProviderState('${farmerId}', farmerId), rating: { count: MatchersV3.integer(1) } },
      });
    await pact.executeTest(async (server) => {
      const trust = await api(server.url).get<FarmerTrust>(trustPath(farmerId));
      expect(trust.rating.count).toBe(1);
    });
  });

  it("reads a farmer's reviews, newest first, a page at a time", async () => {
    pact
      .given('a buyer reviewed a fulfilled request')
      .uponReceiving("a page of a farmer's reviews")
      .withRequest({
        method: 'GET',
        path: fromProviderState('/api/orders/farmers/${farmerId}/reviews', `/api/orders/farmers/${farmerId}/reviews`),
        query: { limit: '3' },
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') },
        body: { items: MatchersV3.eachLike(review), next_cursor: null },
      });
    await pact.executeTest(async (server) => {
      const page = await api(server.url).get<ReviewPage>(reviewsPath(farmerId, 3));
      expect(page.items[0]!.stars).toBe(4);
    });
  });

  it('changes its rating of a fulfilled request', async () => {
    pact
      .given('a buyer reviewed a fulfilled request')
      .uponReceiving('a changed rating of a fulfilled request')
      .withRequest({
        method: 'PUT',
        path: fromProviderState('/api/orders/requests/${requestId}/review', '/api/orders/requests/43162006-f1b6-4a16-8ebd-358aeea68dd9/review'),
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: { stars: 5, text: 'Even better on a second look' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') },
        body: { ...review, stars: MatchersV3.integer(5), text: string('Even better on a second look') },
      });
    await pact.executeTest(async (server) => {
      const changed = await api(server.url).put<Review>(reviewPath('43162006-f1b6-4a16-8ebd-358aeea68dd9'), { stars: 5, text: 'Even better on a second look' });
      expect(changed.stars).toBe(5);
    });
  });
});
