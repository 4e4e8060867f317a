// The per-product write lock (ADR 0030): every read-check-write of one product document — a
// farmer's edit or delete, a stock change from an order, a farmer's new name copied onto it, the
// one-off announcement, the outbox taking a published event out — runs under
// `catalog:lock:product:<id>` in Redis (kit's locks), because FerretDB 1.x applies an update as a
// read then a write, and two of them on the same document can both "succeed".
import { redisDocumentLock, tryLock, withLocks, type RedisClient } from '@tuber/kit';

export const productLockKey = (productId: string) => `catalog:lock:product:${productId}`;

/**
 * Runs `work` holding the product's lock. Waits for it at most `waitMs`, then throws what `busy`
 * makes (a route answers 409, a consumer lets the event be redelivered). Re-entrant.
 */
export const withProductLock = <T>(
  redis: RedisClient,
  productId: string,
  work: () => Promise<T>,
  options: { waitMs?: number; busy: () => Error },
): Promise<T> => withLocks(redis, [productLockKey(productId)], work, options);

/** Takes the product's lock if it is free right now; returns its release, or null when another write holds it. */
export const tryProductLock = (redis: RedisClient, productId: string) => tryLock(redis, productLockKey(productId));

/** The product lock for writes in the background (the outbox, consumers): keyed by `{ product_id }`. */
export const productDocumentLock = (redis: RedisClient) => redisDocumentLock(redis, 'product_id', productLockKey);
