// Buyers, farmers, products and order requests through the gateway, for the orders service's tests.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { api, eventually, type ApiAnswer } from '../../../../test/support/api.js';
import { signedInAccount, type TestAccount } from '../../../../test/support/accounts.js';
import { farmerWithProfile, postProduct, productBody, uploadPhotos } from '../../../catalog/test/integration/farmer-support.js';

export { farmerWithProfile };

/** A signed-in buyer with a profile (the orders service learns the address from ProfileCreated). */
export async function buyerWithProfile(): Promise<TestAccount> {
  const buyer = await signedInAccount({ role: 'buyer' });
  expect((await api('POST', '/api/profile/me', { token: buyer.accessToken })).status).toBe(201);
  return buyer;
}

export interface Posted {
  product_id: string;
  product_name: string;
  price: number;
  unit: string;
}

/** Posts a yam product as the farmer (two real photos). */
export async function newProduct(farmer: TestAccount, overrides: Record<string, unknown> = {}): Promise<Posted> {
  const photos = await uploadPhotos(farmer, 2);
  const body = productBody(
    photos.map((p) => p.id),
    { price: 2500, quantity: 20, product_name: `Fresh yam ${randomUUID().slice(0, 4)}`, ...overrides },
  );
  const posted = await postProduct(farmer, body);
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  return {
    product_id: posted.body.product_id,
    product_name: posted.body.product_name,
    price: posted.body.price,
    unit: posted.body.unit ?? 'kg',
  };
}

export const tomorrow = () => new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);

export function requestBody(
  farmer: TestAccount,
  lines: { product: Posted; quantity: number; price?: number }[],
  overrides: Record<string, unknown> = {},
) {
  return {
    request_id: randomUUID(),
    farmer_id: farmer.id,
    lines: lines.map((l) => ({
      product_id: l.product.product_id,
      quantity: l.quantity,
      price: l.price ?? l.product.price,
      unit: l.product.unit,
    })),
    fulfilment: 'pickup',
    preferred_date: tomorrow(),
    note: 'Please pack in sacks',
    phone: '0803 123 4567',
    ...overrides,
  };
}

export const send = (buyer: TestAccount, body: unknown) => api('POST', '/api/orders/requests', { token: buyer.accessToken, json: body });

/**
 * Sends, waiting while the orders service has not yet heard of a product (its projection follows
 * the catalog's events a moment after the post), i.e. while every problem is `unavailable`.
 */
export function sendWhenKnown(buyer: TestAccount, body: unknown): Promise<ApiAnswer> {
  return eventually(
    () => send(buyer, body),
    (answer) => !(answer.status === 409 && (answer.body?.problems ?? []).some((p: { problem: string }) => p.problem === 'unavailable')),
  );
}

export const act = (account: TestAccount, requestId: string, action: string, json: unknown = {}) =>
  api('POST', `/api/orders/requests/${requestId}/${action}`, { token: account.accessToken, json });

export const getRequest = (account: TestAccount, requestId: string) =>
  api('GET', `/api/orders/requests/${requestId}`, { token: account.accessToken });

export const unread = async (account: TestAccount): Promise<number> =>
  (await api('GET', '/api/orders/unread', { token: account.accessToken })).body.count;
