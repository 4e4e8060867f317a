// Farmers, photos and products through the gateway, as the farmer UI makes them (issue 11 tests).
import { expect } from 'vitest';
import { api, eventually, imageForm, photo, type ApiAnswer } from '../../../../test/support/api.js';
import { signedInAccount, type AccountOptions, type TestAccount } from '../../../../test/support/accounts.js';

/** A signed-in farmer whose profile exists (the catalog learns of it by event, a moment later). */
export async function farmerWithProfile(options: Omit<AccountOptions, 'role'> = {}): Promise<TestAccount> {
  const farmer = await signedInAccount({ role: 'farmer', ...options });
  expect((await api('POST', '/api/profile/me', { token: farmer.accessToken })).status).toBe(201);
  return farmer;
}

let picture: Buffer | undefined;

/** Uploads `count` small real photos as the farmer; returns their ids, with their URLs. */
export async function uploadPhotos(farmer: TestAccount, count = 2): Promise<{ id: string; url: string; card: string; thumb: string }[]> {
  picture ??= await photo(320, 240);
  const uploaded = [];
  for (let i = 0; i < count; i++) {
    const answer = await api('POST', '/api/media/images', { token: farmer.accessToken, form: imageForm(picture, `farm photo ${i}.jpg`) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    uploaded.push({ id: answer.body.image_id, url: answer.body.url, card: answer.body.card_url, thumb: answer.body.thumb_url });
  }
  return uploaded;
}

export const productBody = (image_ids: string[], overrides: Record<string, unknown> = {}) => ({
  product_name: 'White yam',
  description: 'Freshly harvested white yam tubers from our farm near the river',
  price: 2500,
  quantity: 10,
  tuber_type: 'yam',
  image_ids,
  cultural: 'Central to the New Yam festival',
  ...overrides,
});

/** Posts, waiting while the catalog has not yet heard of the farmer's profile (409 naming it). */
export function postProduct(farmer: TestAccount, body: unknown): Promise<ApiAnswer> {
  return eventually(
    () => api('POST', '/api/catalog/products', { token: farmer.accessToken, json: body }),
    (answer) => !(answer.status === 409 && /profile/i.test(answer.body?.message ?? '')),
  );
}

export const patchProduct = (account: TestAccount | undefined, productId: string, json: unknown) =>
  api('PATCH', `/api/catalog/products/${productId}`, { ...(account ? { token: account.accessToken } : {}), json });

export const getProduct = (account: TestAccount, productId: string) =>
  api('GET', `/api/catalog/products/${productId}`, { token: account.accessToken });
