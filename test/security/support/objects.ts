// Things a farmer owns, made through the gateway as the farmer UI makes them, and order requests
// from a buyer to a farmer, made as the buyer's cart sends them.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { imageForm, photo } from '../../support/api.js';
import type { Actor } from './actors.js';
import { call, sleep, type Answer } from './stack.js';

let picture: Buffer | undefined;

/** Uploads a small real photo as the farmer; returns its image id. */
export async function uploadPhoto(farmer: Actor, name = 'farm photo.jpg'): Promise<string> {
  picture ??= await photo(400, 300);
  const answer = await call('POST', '/api/media/images', { token: await farmer.token(), form: imageForm(picture, name) });
  expect(answer.status, `upload as ${farmer.label}: ${answer.text.slice(0, 200)}`).toBe(201);
  return answer.body.image_id as string;
}

export const productBody = (imageIds: string[], overrides: Record<string, unknown> = {}) => ({
  product_name: 'White yam',
  description: 'Freshly harvested white yam tubers',
  price: 2500,
  kg: 10,
  tuber_type: 'yam',
  image_ids: imageIds,
  cultural: 'Central to the New Yam festival',
  ...overrides,
});

/**
 * Posts a product, waiting while the catalog has not yet heard of the farmer or the photos (both
 * arrive by event a moment after the profile and the upload).
 */
export async function postProduct(farmer: Actor, body: unknown, raw?: string): Promise<Answer> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await call(
      'POST',
      '/api/catalog/products',
      raw ? { token: await farmer.token(), rawJson: raw } : { token: await farmer.token(), json: body },
    );
    const notYet = answer.status === 409 && /profile/i.test(answer.body?.message ?? '');
    if (!notYet || Date.now() > deadline) return answer;
    await sleep(300);
  }
}

/** A product of the farmer's with two fresh photos; returns its id. */
export async function makeProduct(farmer: Actor): Promise<string> {
  const ids = [await uploadPhoto(farmer), await uploadPhoto(farmer)];
  const answer = await postProduct(farmer, productBody(ids));
  expect(answer.status, `post a product as ${farmer.label}: ${answer.text.slice(0, 200)}`).toBe(201);
  return answer.body.product_id as string;
}

/** A Lagos calendar day `days` from now, YYYY-MM-DD. */
export const lagosDay = (days = 1) => new Date(Date.now() + days * 86_400_000 + 3_600_000).toISOString().slice(0, 10);

/** The body of POST /api/orders/requests for one line of one product at its current price and unit. */
export async function orderRequestBody(buyer: Actor, productId: string, quantity = 1): Promise<Record<string, unknown>> {
  const product = await call('GET', `/api/catalog/products/${productId}`, { token: await buyer.token() });
  expect(product.status, `read product ${productId}: ${product.text.slice(0, 200)}`).toBe(200);
  return {
    request_id: randomUUID(),
    farmer_id: product.body.farmer_id,
    lines: [{ product_id: productId, quantity, price: product.body.price, unit: product.body.unit ?? 'kg' }],
    fulfilment: 'pickup',
    preferred_date: lagosDay(2),
    note: 'Sent by the attack suite',
    phone: '08031234567',
  };
}

/**
 * Sends an order request, waiting while the orders service has not yet heard of the product or
 * the people (its projections follow the catalog's and the profile's events a moment later).
 */
export async function postOrderRequest(buyer: Actor, body: Record<string, unknown>, raw?: string): Promise<Answer> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await call(
      'POST',
      '/api/orders/requests',
      raw ? { token: await buyer.token(), rawJson: raw } : { token: await buyer.token(), json: body },
    );
    const notYet = (answer.status === 409 || answer.status === 404) && Date.now() < deadline;
    if (!notYet) return answer;
    await sleep(500);
  }
}

/** An order request (status sent) from the buyer for one unit of the farmer's product; returns its id. */
export async function makeOrderRequest(buyer: Actor, productId: string): Promise<string> {
  const answer = await postOrderRequest(buyer, await orderRequestBody(buyer, productId));
  expect(answer.status, `send an order request as ${buyer.label}: ${answer.text.slice(0, 300)}`).toBe(201);
  return answer.body.request_id as string;
}
