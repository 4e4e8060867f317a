// Pact of the farmer remote with the catalog: its own product list, an edit and a delete, built with the
// farmer's own form code and sent through the shell's API client, answered with only what its pages read.
// Runs on Pact's mock server; contracts/pacts/farmer-catalog.json must match it (make pacts).
import { MatchersV3, PactV3 } from '@pact-foundation/pact';
import type { Product } from '@tuber/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@tuber/ui';
import { pactDir, pactDrift } from '../../../../test/support/pact-files.js';
import { formFromProduct, toNewProduct, toProductChange } from '../../src/add-product/productForm.js';
import { postProduct } from '../../src/add-product/postProduct.js';
import { priceNow, priceNowPath } from '../../src/add-product/usePriceGuide.js';

const { like, eachLike, string, number, integer, regex, fromProviderState } = MatchersV3;
const dir = pactDir();
const pact = new PactV3({ consumer: 'farmer', provider: 'catalog', dir, logLevel: 'error' });
afterAll(() => expect(pactDrift(dir, 'farmer-catalog.json')).toBeNull());

/** The example product: what the farmer's own code (the card texts, the edit form) is given to work with. */
const listed: Product = {
  product_id: '7d1f3c1e-7b51-4c7a-9e0e-2f1f1c0f4a11',
  farmer_id: 'b9b7c6a2-0a7e-4d6c-8d5e-9f6c2a1d3e44',
  product_name: 'Fresh white yam',
  description: 'Freshly harvested tubers from our farm near the river, sorted and washed this week',
  price: 2000.5,
  unit: 'heap',
  unit_weight_kg: 5.5,
  price_per_kg: 363.73,
  quantity: 12,
  kg: 66,
  status: 'available',
  tuber_type: 'yam',
  images: ['/files/yam-1.jpg'],
  image_cards: ['/files/yam-1-card.webp'],
  image_thumbs: ['/files/yam-1-thumb.webp'],
  image_ids: ['3f0c2b7e-5a41-4d7b-9c1e-6a8d2f4b1c90'],
  location: 'Ibadan',
  business_name: 'Ade Farms',
  cultural: 'Central to the New Yam festival',
  created_at: '2026-11-28T10:00:00.000Z',
  revision: 1,
};

/**
 * A product as "All Product List" (ProductCard, productCardText) and the edit page (useProductToEdit,
 * formFromProduct, toProductChange) read it. Left out: tuber_size, next_harvest and health, which the catalog
 * sends only for some products (a pact cannot say "maybe absent"), and kg, read only when quantity is missing.
 */
const product = {
  product_id: string(listed.product_id),
  farmer_id: string(listed.farmer_id),
  product_name: string(listed.product_name),
  description: string(listed.description),
  price: number(listed.price),
  unit: regex('kg|tuber|heap|bag_50kg|lot_100', listed.unit),
  unit_weight_kg: number(listed.unit_weight_kg),
  price_per_kg: number(listed.price_per_kg),
  quantity: number(listed.quantity),
  status: regex('available|sold_out|next_harvest', listed.status),
  tuber_type: string(listed.tuber_type),
  images: eachLike(listed.images[0]!),
  image_thumbs: eachLike(listed.image_thumbs[0]!),
  image_ids: eachLike(listed.image_ids![0]!),
  cultural: string(listed.cultural),
  created_at: regex('\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z', listed.created_at),
  revision: integer(listed.revision),
};

const farmerToken = 'a-farmer-access-token';
const authorization = regex('Bearer .+', `Bearer ${farmerToken}`);
const json = regex('application/json.*', 'application/json; charset=utf-8');
const api = (baseUrl: string) => createApiClient({ baseUrl: `${baseUrl}/api`, getAccessToken: () => farmerToken });
const productPath = `/catalog/products/${encodeURIComponent(listed.product_id)}`;

describe('pact: farmer → catalog', () => {
  it("the farmer's own products, for the list and the edit page", async () => {
    pact
      .given('a product is listed')
      .uponReceiving("the signed-in farmer's own products")
      .withRequest({
        method: 'GET',
        path: '/api/catalog/products/mine',
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 200, headers: { 'content-type': json }, body: { items: eachLike(product) } });
    await pact.executeTest(async (server) => {
      const mine = await api(server.url).get<{ items: Product[] }>('/catalog/products/mine');
      const form = formFromProduct(mine.items[0]!);
      expect(form).toMatchObject({ productName: 'Fresh white yam', price: '2000.5', unit: 'heap', unitWeightKg: '5.5', quantity: '12' });
      expect(mine.items[0]!.image_ids).toHaveLength(mine.items[0]!.images.length);
    });
  });

  it('a new product, with the two photos the farmer just uploaded, under its Idempotency-Key', async () => {
    // The add page's own body, from the form as the farmer filled it; the photos are the state's uploads.
    const photos = ['3f0c2b7e-5a41-4d7b-9c1e-6a8d2f4b1c90', '8a2e6d41-0c3b-4f9e-a7d5-1b6c9e2f4a07'];
    const body = toNewProduct({ ...formFromProduct(listed), quantity: '12' }, photos, null);
    // One key per submission, sent by the page's own sender as the IETF draft writes it (ADR 0059).
    const key = '8e03978e40d543e8bc936894a57f9324';
    pact
      .given('the farmer uploaded two photos')
      .uponReceiving('a new product from the add page')
      .withRequest({
        method: 'POST',
        path: '/api/catalog/products',
        headers: {
          authorization,
          accept: 'application/json, application/problem+json',
          'content-type': 'application/json',
          'idempotency-key': regex('^"[0-9a-f]{32}"$', `"${key}"`),
        },
        body: { ...body, image_ids: [fromProviderState('${firstImageId}', photos[0]!), fromProviderState('${secondImageId}', photos[1]!)] },
      })
      // The page needs the new product's id to say it was posted (else "no data returned").
      .willRespondWith({ status: 201, headers: { 'content-type': json }, body: { product_id: string(listed.product_id), status: regex('available|sold_out|next_harvest', 'available') } });
    await pact.executeTest(async (server) => {
      const posted = await postProduct(api(server.url), body, key);
      expect(posted?.product_id).toBe(listed.product_id);
    });
  });

  it('an edit: only what changed (the stock), with the revision the farmer edited', async () => {
    // The edit page's own body: the form as loaded, the quantity typed anew, the photos kept.
    const change = toProductChange(listed, { ...formFromProduct(listed), quantity: '8' }, listed.image_ids!);
    expect(change).toEqual({ quantity: 8, revision: 1 });
    pact
      .given('a product is listed')
      .uponReceiving("a change to the stock of one of the farmer's products")
      .withRequest({
        method: 'PATCH',
        path: fromProviderState('/api/catalog/products/${productId}', `/api${productPath}`),
        headers: { authorization, accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: change!,
      })
      // The page reads nothing of the answer but its success (then it goes back to the list); the product
      // and a revision are what a 200 of this route carries.
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: { product_id: string(listed.product_id), revision: integer(2) },
      });
    await pact.executeTest(async (server) => {
      const saved = await api(server.url).patch<Product>(productPath, change);
      expect(saved.revision).toBe(2);
    });
  });

  it("deleting one of the farmer's products", async () => {
    pact
      .given('a product is listed')
      .uponReceiving("the deletion of one of the farmer's products")
      .withRequest({
        method: 'DELETE',
        path: fromProviderState('/api/catalog/products/${productId}', `/api${productPath}`),
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      .willRespondWith({ status: 204 });
    await pact.executeTest(async (server) => {
      await expect(api(server.url).delete(productPath)).resolves.toBeUndefined();
    });
  });

  it("the price guide at the price field: yam's figures this week around the farm (issue 27)", async () => {
    // The page's own path for the farm's location; the state's place is one with figures of its own.
    const [pathOnly, query] = priceNowPath('yam', 'Ibadan').split('?') as [string, string];
    const band = (count: number, p25: number, p50: number, p75: number) =>
      like({ count: integer(count), p25: integer(p25), p50: integer(p50), p75: integer(p75) });
    pact
      .given('yam has figures this week')
      .uponReceiving("yam's price figures this week at the farm's location")
      .withRequest({
        method: 'GET',
        path: `/api${pathOnly}`,
        query: { location: fromProviderState('${location}', new URLSearchParams(query).get('location')!) },
        headers: { authorization, accept: 'application/json, application/problem+json' },
      })
      // What the line reads: the scope (the place's own figures, not the city's), the period and both bands
      // (what sold, else what listings asked). Null bands ("not enough sales yet") are the OpenAPI check's part.
      .willRespondWith({
        status: 200,
        headers: { 'content-type': json },
        body: {
          tuber: 'yam',
          scope: 'location',
          location: string('Ibadan'),
          period: regex('this_week|last_week', 'this_week'),
          week: regex('^\\d{4}-W\\d{2}$', '2026-W48'),
          sold: band(6, 1050, 1200, 1350),
          asked: band(5, 1000, 1200, 1400),
        },
      });
    await pact.executeTest(async (server) => {
      const now = await priceNow(api(server.url), priceNowPath('yam', 'Ibadan'));
      expect(now).toMatchObject({ scope: 'location', period: 'this_week', sold: { p25: 1050, p75: 1350 } });
    });
  });
});
