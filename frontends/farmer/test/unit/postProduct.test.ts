import { describe, expect, it } from 'vitest';
import type { NewProduct } from '@tuber/contracts';
import { ApiError, type ApiClient } from '@tuber/shell-contract';
import { newPostKey, postProduct, submissionOf, worthAnotherTry } from '../../src/add-product/postProduct.js';

const body: NewProduct = {
  product_name: 'Fresh white yam',
  description: 'Freshly harvested tubers',
  price: 2000,
  unit: 'kg',
  quantity: 12,
  tuber_type: 'yam',
  image_ids: ['a', 'b'],
  cultural: 'New Yam festival',
};

/** An API client whose posts answer the given outcomes in turn, recording each call. */
function client(outcomes: (Error | object)[]) {
  const calls: { path: string; body: unknown; headers: Record<string, string> }[] = [];
  const api = {
    post: (path: string, sent: unknown, init?: RequestInit) => {
      calls.push({ path, body: sent, headers: init?.headers as Record<string, string> });
      const next = outcomes.shift()!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  } as unknown as ApiClient;
  return { api, calls };
}
const noWait = () => Promise.resolve();

describe('the Idempotency-Key of a product post', () => {
  it('is 32 hex characters from the random source, new each time', () => {
    expect(newPostKey(() => new Uint8Array(16).fill(171))).toBe('ab'.repeat(16));
    expect(newPostKey()).toMatch(/^[0-9a-f]{32}$/);
    expect(newPostKey()).not.toBe(newPostKey());
  });

  it('stays the same when the same form is submitted again, and changes with the form', () => {
    let n = 0;
    const makeKey = () => `k${++n}`;
    const first = submissionOf(null, body, makeKey);
    expect(first.key).toBe('k1');
    expect(submissionOf(first, { ...body }, makeKey)).toBe(first);
    expect(submissionOf(first, { ...body, quantity: 13 }, makeKey).key).toBe('k2');
  });
});

describe('posting a product', () => {
  it('sends the key in the draft form (a quoted String) with the body', async () => {
    const { api, calls } = client([{ product_id: 'p1' }]);
    await expect(postProduct(api, body, 'abc', { wait: noWait })).resolves.toEqual({ product_id: 'p1' });
    expect(calls).toEqual([{ path: '/catalog/products', body, headers: { 'Idempotency-Key': '"abc"' } }]);
  });

  it('tries again with the same key after no answer or a 502/503/504, at most 3 tries', async () => {
    const lost = new ApiError(0, 'Network Error', 'Failed to fetch');
    const { api, calls } = client([lost, new ApiError(502, 'Bad Gateway', 'Request failed with status 502'), { product_id: 'p1' }]);
    const waits: number[] = [];
    await expect(postProduct(api, body, 'abc', { wait: async (ms) => void waits.push(ms) })).resolves.toEqual({ product_id: 'p1' });
    expect(calls.map((c) => c.headers['Idempotency-Key'])).toEqual(['"abc"', '"abc"', '"abc"']);
    expect(waits).toEqual([1000, 2000]);

    const failing = client([lost, lost, lost, { product_id: 'never' }]);
    await expect(postProduct(failing.api, body, 'abc', { wait: noWait })).rejects.toBe(lost);
    expect(failing.calls).toHaveLength(3);
  });

  it('does not try again after an answer that settles it (400, 409, 422) or while offline', async () => {
    for (const error of [
      new ApiError(400, 'Bad Request', 'Please select between 2 to 5 images.'),
      new ApiError(409, 'Conflict', 'These photos already belong to another product.'),
      new ApiError(422, 'Unprocessable Entity', 'This Idempotency-Key was already used for another product.'),
      new ApiError(0, 'Offline', 'You are offline.'),
    ]) {
      expect(worthAnotherTry(error)).toBe(false);
      const { api, calls } = client([error]);
      await expect(postProduct(api, body, 'abc', { wait: noWait })).rejects.toBe(error);
      expect(calls).toHaveLength(1);
    }
  });
});
