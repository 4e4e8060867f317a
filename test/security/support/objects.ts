// Things a farmer owns, made through the gateway as the farmer UI makes them.
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
