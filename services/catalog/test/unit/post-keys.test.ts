import { describe, expect, it } from 'vitest';
import { postFingerprint, postKeyOf, verdictOf } from '../../src/domain/post-keys.js';

describe('the Idempotency-Key of a product post', () => {
  it("reads the draft's quoted String and a bare token as the same key", () => {
    expect(postKeyOf('"8e03978e40d543e8"')).toBe('8e03978e40d543e8');
    expect(postKeyOf('8e03978e40d543e8')).toBe('8e03978e40d543e8');
    expect(postKeyOf(undefined)).toBeUndefined();
  });

  it('fingerprints a body whatever the order of its fields, and tells another body apart', () => {
    const body = { product_name: 'Yam', price: 2500, image_ids: ['a', 'b'], nutrition: { calories: 1, protein: 2 } };
    const reordered = { nutrition: { protein: 2, calories: 1 }, image_ids: ['a', 'b'], price: 2500, product_name: 'Yam' };
    expect(postFingerprint(reordered)).toBe(postFingerprint(body));
    expect(postFingerprint(body)).toMatch(/^[0-9a-f]{64}$/);
    expect(postFingerprint({ ...body, price: 2501 })).not.toBe(postFingerprint(body));
    expect(postFingerprint({ ...body, image_ids: ['b', 'a'] })).not.toBe(postFingerprint(body));
  });

  it('answers a repeat with the kept answer, another body with a refusal, and an unfinished post with its product', () => {
    const kept = { fingerprint: 'f1', product_id: 'p1', answer: '{"product_id":"p1"}' };
    expect(verdictOf(kept, 'f1')).toEqual({ kind: 'answered', answer: '{"product_id":"p1"}' });
    expect(verdictOf(kept, 'f2')).toEqual({ kind: 'other-body' });
    expect(verdictOf({ fingerprint: 'f1', product_id: 'p1', answer: undefined }, 'f1')).toEqual({ kind: 'open', productId: 'p1' });
  });
});
