// The per-product write lock (ADR 0030): every read-check-write of one product document — a
// farmer's edit or delete, a stock change from an order, the one-off announcement — runs under
// `catalog:lock:product:<id>` in Redis, because FerretDB 1.x applies a conditional update as a
// read then a write and two of them on the same document can both "succeed".
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@tuber/kit';

export const productLockKey = (productId: string) => `catalog:lock:product:${productId}`;

/** How long a lock lives if its holder dies without releasing it. */
export const PRODUCT_LOCK_TTL_MS = 15_000;

/** Deletes the lock only if it is still ours (it may have expired and been taken by another write). */
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * Runs `work` holding the product's lock. Waits for it at most `waitMs`, then throws what `busy`
 * makes (a route answers 409, a consumer lets the event be redelivered).
 */
export async function withProductLock<T>(
  redis: RedisClient,
  productId: string,
  work: () => Promise<T>,
  options: { waitMs?: number; busy: () => Error },
): Promise<T> {
  const key = productLockKey(productId);
  const token = randomUUID();
  const deadline = Date.now() + (options.waitMs ?? 5_000);
  while ((await redis.set(key, token, { NX: true, PX: PRODUCT_LOCK_TTL_MS })) === null) {
    if (Date.now() > deadline) throw options.busy();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
  }
}

/** Takes the product's lock if it is free right now; returns its release, or null when another write holds it. */
export async function tryProductLock(redis: RedisClient, productId: string): Promise<(() => Promise<void>) | null> {
  const key = productLockKey(productId);
  const token = randomUUID();
  if ((await redis.set(key, token, { NX: true, PX: PRODUCT_LOCK_TTL_MS })) === null) return null;
  return async () => {
    await redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
  };
}
