// Consumer-driven contract (Pact) of the buyer remote with the catalog service (issue 23, docs/delivery.md):
// what the buyer's own code asks for (feedApiPath, the shell's API client) and the parts of the answers its
// pages read. Runs against Pact's mock server (no stack); contracts/pacts/buyer-catalog.json must say the same (make pacts);
// test/system/pact-providers.test.ts verifies the running catalog against it (and against the last release's).
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { feedApiPath, NO_FILTERS } from '../../src/feed/feedQuery.js';
import { farmerProductsPath } from '../../src/trust/trustTypes.js';
import { fetchPriceNow, guideTuber, pricesNowAll } from '../../src/prices/pricesNow.js';

const { like, eachLike, arrayContaining, string, number, integer, regex, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'buyer', provider: 'catalog', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'buyer-catalog.json')).toBeNull());

/** A listed product as the buyer's cards and product page read it. */
const product = {
  product_id: string('7d1f3c1e-7b51-4c7a-9e0e-2f1f1c0f4a11'),
  farmer_id: string('b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44'),
  product_name: string('Fresh white yam'),
  description: string('Freshly harvested tubers from our farm near the river, sorted and washed this week'),
  price: number(2000.5),
  unit: regex('kg|tuber|heap|bag_50kg|lot_100', 'heap'),
  unit_weight_kg: number(5.5),
  price_per_kg: number(363.73),
  quantity: number(12),
  status: regex('available|sold_out|next_harvest', 'available'),
  tuber_type: string('yam'),
  images: eachLike('/files/yam-1.jpg'),
  image_cards: eachLike('/files/yam-1-card.webp'),
  image_thumbs: eachLike('/files/yam-1-thumb.webp'),
  location: string('Ibadan'),
  business_name: string('Ade Farms'),
  cultural: string('Central to the New Yam festival'),
  created_at: regex('\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z', '2026-11-28T10:00:00.000Z'),
  revision: integer(1),
};

/**
 * A tuber's city-wide figures this week as the markers read them (issue 27): the tuber (the cards' key), the period
 * and both bands (sold first, else asked). Bands are null when too few sales: the state gives yam real figures, so
 * here they are bands; null's part of the shape is covered by the OpenAPI check.
 */
const band = (count: number, p25: number, p50: number, p75: number) =>
  like({ count: integer(count), p25: integer(p25), p50: integer(p50), p75: integer(p75) });
const yamNow = {
  tuber: 'yam',
  scope: 'city',
  period: regex('this_week|last_week', 'this_week'),
  week: regex('^\\d{4}-W\\d{2}$', '2026-W48'),
  sold: band(6, 1050, 1200, 1350),
  asked: band(5, 1000, 1200, 1400),
};

const buyerToken = 'a-buyer-access-token';
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => buyerToken });

describe('pact: buyer → catalog', () => {
  it('the feed: the first page of a search, newest first', async () => {
    const search = { ...NO_FILTERS, q: 'yam' };
    const [pathOnly, query] = feedApiPath(search, null).split('?') as [string, string];
    pact
      .given('a product is listed')
      .uponReceiving("the buyer feed's first page of a search")
      .withRequest({
        method: 'GET',
        path: `/api${pathOnly}`,
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: { authorization: regex('Bearer .+', `Bearer ${buyerToken}`), accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 200, headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') }, body: { items: eachLike(product) } });
    // next_cursor is read too, but it is a string or null and a pact cannot say "either": the OpenAPI check covers it.
    await pact.executeTest(async (server) => {
      const page = await api(server.url).get<{ items: { product_name: string }[] }>(feedApiPath(search, null));
      expect(page.items[0]?.product_name).toBe('Fresh white yam');
    });
  });

  it('a product by id, for its page and for the cart’s price check', async () => {
    pact
      .given('a product is listed')
      .uponReceiving('a product by its id')
      .withRequest({
        method: 'GET',
        path: fromProviderState('/api/catalog/products/${productId}', '/api/catalog/products/7d1f3c1e-7b51-4c7a-9e0e-2f1f1c0f4a11'),
        headers: { authorization: regex('Bearer .+', `Bearer ${buyerToken}`), accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 200, body: like(product) });
    await pact.executeTest(async (server) => {
      const found = await api(server.url).get<{ price: number }>('/catalog/products/7d1f3c1e-7b51-4c7a-9e0e-2f1f1c0f4a11');
      expect(found.price).toBe(2000.5);
    });
  });

  it('a product that is gone answers 404 with the one error shape', async () => {
    pact
      .uponReceiving('a product id that does not exist')
      .withRequest({
        method: 'GET',
        path: '/api/catalog/products/00000000-0000-4000-8000-000000000000',
        headers: { authorization: regex('Bearer .+', `Bearer ${buyerToken}`), accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 404,
        headers: { 'content-type': regex('application/(problem\\+)?json.*', 'application/problem+json; charset=utf-8') },
        // Problem details (docs/adr/0064): the page words the code; version 1's fields stay for older pages.
        body: { code: 'PRODUCT_NOT_FOUND', statusCode: 404, error: string('Not Found'), message: string('Product not found') },
      });
    await pact.executeTest(async (server) => {
      await expect(api(server.url).get('/catalog/products/00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ statusCode: 404, code: 'PRODUCT_NOT_FOUND' });
    });
  });

  it("a farmer's products for their farmer page (issue 26)", async () => {
    const farmerId = 'b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44';
    const [pathOnly, query] = farmerProductsPath(farmerId).split('?') as [string, string];
    pact
      .given('a product is listed')
      .uponReceiving("a farmer's products, available first")
      .withRequest({
        method: 'GET',
        path: fromProviderState('/api/catalog/farmers/${farmerId}/products', `/api${pathOnly}`),
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: { authorization: regex('Bearer .+', `Bearer ${buyerToken}`), accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 200, body: { items: eachLike(product), next_cursor: null } });
    await pact.executeTest(async (server) => {
      const page = await api(server.url).get<{ items: { product_name: string }[] }>(farmerProductsPath(farmerId));
      expect(page.items[0]!.product_name).toBe('Fresh white yam');
    });
  });

  it("every tuber's figures this week for the feed's price markers (issue 27)", async () => {
    pact
      .given('yam has figures this week')
      .uponReceiving("every tuber's price figures this week, city-wide")
      .withRequest({
        method: 'GET',
        path: '/api/catalog/prices/now',
        headers: { authorization: regex('Bearer .+', `Bearer ${buyerToken}`), accept: 'application/json, application/problem+json' },
      })
      // One item per tuber; the state's tuber has figures, the others may have none yet (null bands).
      .willRespondWith({
        status: 200,
        headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') },
        body: { items: arrayContaining(yamNow) },
      });
    await pact.executeTest(async (server) => {
      const all = await pricesNowAll(api(server.url));
      const yam = all.items.find((now) => now.tuber === guideTuber('Yam'));
      expect(yam?.sold).toMatchObject({ p25: 1050, p75: 1350 });
    });
  });

  it("one tuber's figures this week for the product page's marker (issue 27)", async () => {
    pact
      .given('yam has figures this week')
      .uponReceiving("yam's price figures this week, city-wide")
      .withRequest({
        method: 'GET',
        path: '/api/catalog/prices/yam/now',
        headers: { authorization: regex('Bearer .+', `Bearer ${buyerToken}`), accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({
        status: 200,
        headers: { 'content-type': regex('application/json.*', 'application/json; charset=utf-8') },
        body: yamNow,
      });
    await pact.executeTest(async (server) => {
      const now = await fetchPriceNow(api(server.url), 'yam');
      expect(now).toMatchObject({ tuber: 'yam', period: 'this_week', asked: { count: 5 } });
    });
  });
});
